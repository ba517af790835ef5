#include "facts/StatementParents.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <vector>

namespace clang::tidy::occlint {

namespace {

// The data-recursion hooks bracket each statement's subtree, so Stack holds
// the statements above the one being visited.
class ParentCollector : public RecursiveASTVisitor<ParentCollector> {
public:
  explicit ParentCollector(llvm::DenseMap<const Stmt *, const Stmt *> &Parents) : Parents(Parents) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool dataTraverseStmtPre(Stmt *S) {
    if (!Stack.empty())
      Parents.try_emplace(S, Stack.back());
    Stack.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }

private:
  llvm::DenseMap<const Stmt *, const Stmt *> &Parents;
  std::vector<const Stmt *> Stack;
};

} // namespace

StatementParents::StatementParents(const Stmt &Root) {
  ParentCollector(Parents).TraverseStmt(const_cast<Stmt *>(&Root));
}

} // namespace clang::tidy::occlint
