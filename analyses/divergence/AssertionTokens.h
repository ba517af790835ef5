// The argument of an `assert(...)` as the preprocessor saw it
// (facts/StatedAssertions.h): a list of token spellings, read by the rules
// that take an assertion as a statement about the kernel (its block shape,
// a count's alignment). Parentheses, top-level splits and small integer
// constants; nothing here resolves a name other than a constant's.
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
} // namespace clang

namespace clang::tidy::occlint {

using AssertionTokens = llvm::ArrayRef<std::string>;

/// T without the parentheses that wrap all of it: `((a == b))` -> `a == b`.
AssertionTokens stripParens(AssertionTokens T);

/// T split at Sep outside parentheses: `a && (b && c)` at "&&" -> `a`, `(b && c)`.
std::vector<AssertionTokens> splitTopLevel(AssertionTokens T, llvm::StringRef Sep);

/// A constant of integers and named constants (a const local of Body's top
/// level, a const variable or enumerator at file scope) with + - * / % and
/// parentheses, within 32 bits: `(32 * 4)`, `WARPS * 32`.
std::optional<int64_t> constantOf(AssertionTokens T, const CompoundStmt &Body, ASTContext &Ctx);

} // namespace clang::tidy::occlint
