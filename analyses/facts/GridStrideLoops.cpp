#include "facts/GridStrideLoops.h"

#include "facts/BlockResizePatterns.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::occlint {

namespace {

// `x += gridDim.x * blockDim.x`, or `x += stride` where `stride` was
// initialised with that product.
bool addsGridStride(const Stmt *S, ASTContext &Ctx) {
  const auto *Add = dyn_cast_or_null<CompoundAssignOperator>(S);
  if (!Add || Add->getOpcode() != BO_AddAssign)
    return false;
  const Expr *Step = resize::stripIntegerCasts(Add->getRHS(), Ctx);
  if (resize::isGridStrideFormula(Step, Ctx))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Step))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return Var->getInit() && resize::isGridStrideFormula(resize::stripIntegerCasts(Var->getInit(), Ctx), Ctx);
  return false;
}

class GridStrideFinder : public RecursiveASTVisitor<GridStrideFinder> {
public:
  explicit GridStrideFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitForStmt(ForStmt *For) {
    Found |= addsGridStride(For->getInc(), Ctx);
    return !Found;
  }
  bool TraverseWhileStmt(WhileStmt *While) { return inLoop([&] { return RecursiveASTVisitor::TraverseWhileStmt(While); }); }
  bool TraverseDoStmt(DoStmt *Do) { return inLoop([&] { return RecursiveASTVisitor::TraverseDoStmt(Do); }); }
  bool VisitCompoundAssignOperator(CompoundAssignOperator *Op) {
    if (LoopDepth > 0)
      Found |= addsGridStride(Op, Ctx);
    return !Found;
  }
  bool Found = false;

private:
  template <class F> bool inLoop(F Traverse) {
    ++LoopDepth;
    const bool Continue = Traverse();
    --LoopDepth;
    return Continue;
  }
  ASTContext &Ctx;
  unsigned LoopDepth = 0;
};

} // namespace

bool hasGridStrideLoop(const Stmt *Body, ASTContext &Ctx) {
  if (!Body)
    return false;
  GridStrideFinder Finder(Ctx);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

} // namespace clang::tidy::occlint
