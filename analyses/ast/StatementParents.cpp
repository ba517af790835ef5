#include "ast/StatementParents.h"

namespace clang::tidy::occlint {

namespace {

class ParentCollector : public AncestorTrackingVisitor {
public:
  explicit ParentCollector(llvm::DenseMap<const Stmt *, const Stmt *> &Parents) : Parents(Parents) {}
  void enterStatement(const Stmt *S, const std::vector<const Stmt *> &Above) override {
    if (!Above.empty())
      Parents.try_emplace(S, Above.back());
  }

private:
  llvm::DenseMap<const Stmt *, const Stmt *> &Parents;
};

} // namespace

StatementParents::StatementParents(const Stmt &Root) { ParentCollector(Parents).traverseStmt(&Root); }

} // namespace clang::tidy::occlint
