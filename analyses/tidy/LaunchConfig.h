// Reads the execution configuration of a kernel launch (`k<<<grid, block,
// smem, stream>>>`) and evaluates its parts when the compiler can prove them
// constant. A value is either known exactly or not known: never guessed.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <array>
#include <cstdint>
#include <optional>

namespace clang::tidy::occlint {

/// A dim3-like triple whose components are all known.
struct Dim3Value {
  std::array<uint64_t, 3> xyz{1, 1, 1};
  uint64_t product() const { return xyz[0] * xyz[1] * xyz[2]; }
};

struct LaunchConfigExprs {
  const Expr *grid = nullptr;
  const Expr *block = nullptr;
  const Expr *dynamicSharedMem = nullptr; // null when not written
  const Expr *stream = nullptr;           // null when not written
};

/// The written arguments between <<< and >>> (defaulted ones are null).
LaunchConfigExprs getLaunchConfigExprs(const CUDAKernelCallExpr &Launch);

/// Evaluates a grid or block argument (an integer, a dim3 temporary or a
/// constexpr dim3) when it is a constant expression.
std::optional<Dim3Value> evaluateDim3(const Expr &E, const ASTContext &Ctx);

/// The integer literal that spells a 1-D block size, if the argument is one
/// (possibly converted to dim3 implicitly); used for fix-its.
const IntegerLiteral *getBlockSizeLiteral(const Expr &E);

} // namespace clang::tidy::occlint
