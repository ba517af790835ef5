#include "ast/DeepExpressions.h"

#include "clang/AST/ExprCXX.h"

#include <utility>
#include <vector>

namespace clang::tidy::occlint {

bool isPureOperator(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCompoundAssignmentOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp();
  return isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr, ConditionalOperator, ArraySubscriptExpr, MemberExpr>(E);
}

void forEachOperandPostOrder(const Expr *E, llvm::function_ref<void(const Expr *)> Visit) {
  if (!E || !isPureOperator(E))
    return;
  // (node, next child to look at); a node is visited after its children.
  std::vector<std::pair<const Expr *, Stmt::const_child_iterator>> Stack;
  Stack.push_back({E, E->child_begin()});
  while (!Stack.empty()) {
    auto &[Node, Child] = Stack.back();
    if (Child == Node->child_end()) {
      const Expr *Done = Node;
      Stack.pop_back();
      if (Done != E)
        Visit(Done);
      continue;
    }
    const auto *Sub = dyn_cast_or_null<Expr>(*Child);
    ++Child;
    if (!Sub)
      continue;
    if (isPureOperator(Sub))
      Stack.push_back({Sub, Sub->child_begin()});
    else
      Visit(Sub);
  }
}

} // namespace clang::tidy::occlint
