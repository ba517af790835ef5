//===- ReadOnlyUses.cpp - variables a body only reads ---------------------===//
#include "values/ReadOnlyUses.h"

#include "ast/AstWalker.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::occlint {
namespace {

// Iterative (AstWalker's data recursion), so that a deep
// expression costs no stack. Lambda bodies and capture initializers are
// walked like the rest: a capture by reference names the variable without a
// conversion, so it counts as another use.
class UseWalk : public AstWalker {
public:
  UseWalk() { VisitLambdaBodies = true; }
  bool visitStmt(Stmt *S) override {
    if (const auto *E = dyn_cast<ImplicitCastExpr>(S); E && E->getCastKind() == CK_LValueToRValue) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E->getSubExpr()->IgnoreParens()))
        Read.insert(Ref);
    } else if (const auto *E = dyn_cast<DeclRefExpr>(S); E && isa<VarDecl>(E->getDecl())) {
      Uses.push_back(E);
    }
    return true;
  }
  llvm::DenseSet<const DeclRefExpr *> Read;
  std::vector<const DeclRefExpr *> Uses;
};

} // namespace

ReadOnlyUses::ReadOnlyUses(const Stmt &Body) {
  UseWalk Walk;
  Walk.traverseStmt(&Body);
  for (const DeclRefExpr *Use : Walk.Uses)
    if (!Walk.Read.contains(Use))
      UsedOtherwise.insert(cast<VarDecl>(Use->getDecl())->getCanonicalDecl());
}

} // namespace clang::tidy::occlint
