// The integer literal that spells a 1-D block size, so a fix-it can replace
// it (`k<<<g, 100>>>` -> `k<<<g, 128>>>`).
#pragma once

#include "clang/AST/Expr.h"

namespace clang::tidy::occlint {

/// The literal when the block argument is one (possibly converted to dim3
/// implicitly, or `dim3(100)`); null for dim3(x, y[, z]) and anything else.
const IntegerLiteral *getBlockSizeLiteral(const Expr &E);

} // namespace clang::tidy::occlint
