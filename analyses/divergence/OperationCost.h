// The size estimate behind the divergence findings' "~N operations": what
// one AST node costs by itself (its operands and a called function's body
// are counted separately). Arithmetic, comparisons and compound
// assignments cost one; a memory access costs one per subscript chain
// (`a[i][j][k]` is one load or store); a call costs one; a plain assignment
// costs nothing by itself (a store is counted by its subscript, a copy
// between registers is free); logical operators and commas are control
// flow, counted as the branches they are.
#pragma once

#include "clang/AST/Expr.h"

namespace clang::tidy::occlint {

inline int64_t operationCost(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isCommaOp() || BO->isLogicalOp() || BO->getOpcode() == BO_Assign ? 0 : 1;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
    return isa<ArraySubscriptExpr>(AS->getBase()->IgnoreParenImpCasts()) ? 0 : 1;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref ? 1 : 0;
  return isa<CallExpr>(S) ? 1 : 0;
}

} // namespace clang::tidy::occlint
