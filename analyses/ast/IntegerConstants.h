// The value of an integer constant expression, as the compiler folds it
// (`32`, `4 * WARP`, `sizeof(float4) / 4`, a constexpr call), for the
// analyses that read bounds, steps and cases from the source.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>

namespace clang::tidy::occlint {

/// E's value when it is an integral or enumeration constant that fits in
/// int64_t; nullopt for a null, dependent or erroneous expression, one that
/// does not fold, and a wider value (an `unsigned __int128` shifted past 64
/// bits: APSInt::getExtValue would assert on it).
std::optional<int64_t> integerConstantOf(const Expr *E, const ASTContext &Ctx);

} // namespace clang::tidy::occlint
