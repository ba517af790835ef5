#include "facts/GridStrideLoops.h"

#include "facts/BlockResizePatterns.h"

#include "facts/AstWalker.h"

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

class GridStrideFinder : public AstWalker {
public:
  explicit GridStrideFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  bool visitStmt(Stmt *S) override {
    if (const auto *For = dyn_cast<ForStmt>(S))
      Found |= addsGridStride(For->getInc(), Ctx);
    else if (const auto *Op = dyn_cast<CompoundAssignOperator>(S); Op && LoopDepth > 0)
      Found |= addsGridStride(Op, Ctx);
    return !Found;
  }
  // A `while` or `do` loop's condition and body are inside the loop.
  bool enterStmt(Stmt *S) override {
    if (isa<WhileStmt, DoStmt>(S))
      ++LoopDepth;
    return true;
  }
  void leaveStmt(Stmt *S) override {
    if (isa<WhileStmt, DoStmt>(S))
      --LoopDepth;
  }
  bool Found = false;

private:
  ASTContext &Ctx;
  unsigned LoopDepth = 0;
};

} // namespace

bool hasGridStrideLoop(const Stmt *Body, ASTContext &Ctx) {
  if (!Body)
    return false;
  GridStrideFinder Finder(Ctx);
  Finder.traverseStmt(Body);
  return Finder.Found;
}

} // namespace clang::tidy::occlint
