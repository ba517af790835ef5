#include "facts/GridStrideLoops.h"

#include "ast/AstWalker.h"
#include "ast/CudaIndexPatterns.h"

#include "clang/AST/ExprCXX.h"

#include <optional>
#include <vector>

namespace clang::tidy::occlint {

namespace {

// `grid.size()`, `grid.num_threads()`, `grid.num_blocks()` on a cooperative
// groups grid (`cg::grid_group`, `cg::this_grid()`).
// (CUDA's headers declare them static: a call through the object is then a
// plain call of the method.)
bool isCooperativeGridSize(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const auto *Method = Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  if (!Method || !Method->getIdentifier())
    return false;
  const StringRef Name = Method->getName();
  if (Name != "size" && Name != "num_threads" && Name != "num_blocks" && Name != "dim_blocks")
    return false;
  const CXXRecordDecl *Record = Method->getParent();
  return Record && Record->getIdentifier() && Record->getName().contains("grid_group");
}

// Whether `S` reads the grid's size: `gridDim` or a cooperative grid's size.
// Each node is asked about itself only: one pass over the expression.
bool readsGridSize(const Stmt *S, ASTContext &Ctx) {
  if (!S)
    return false;
  if (isCooperativeGridSize(S))
    return true;
  if (std::optional<llvm::StringRef> Read = resize::builtinReadHere(S, Ctx))
    return *Read == "gridDim";
  for (const Stmt *Child : S->children())
    if (readsGridSize(Child, Ctx))
      return true;
  return false;
}

// A step that reads the grid's size, or a variable initialised with one.
bool isGridStep(const Expr *Step, ASTContext &Ctx) {
  Step = resize::stripIntegerCasts(Step, Ctx);
  if (readsGridSize(Step, Ctx))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Step))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return Var->getInit() && readsGridSize(Var->getInit(), Ctx);
  return false;
}

// `x += step` or `x = x + step` with a grid step.
bool addsGridStride(const Stmt *S, ASTContext &Ctx) {
  if (const auto *Add = dyn_cast_or_null<CompoundAssignOperator>(S))
    return Add->getOpcode() == BO_AddAssign && isGridStep(Add->getRHS(), Ctx);
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(S); Assign && Assign->getOpcode() == BO_Assign)
    if (const auto *Sum = dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
        Sum && Sum->getOpcode() == BO_Add)
      return isGridStep(Sum->getLHS(), Ctx) || isGridStep(Sum->getRHS(), Ctx);
  return false;
}

class GridStrideFinder : public AstWalker {
public:
  explicit GridStrideFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  bool visitStmt(Stmt *S) override {
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      if (addsGridStride(For->getInc(), Ctx))
        Found = For;
    } else if (!Loops.empty() && isa<CompoundAssignOperator, BinaryOperator>(S) && addsGridStride(S, Ctx)) {
      Found = Loops.back();
    }
    return !Found;
  }
  // A `while` or `do` loop's condition and body are inside the loop.
  bool enterStmt(Stmt *S) override {
    if (isa<WhileStmt, DoStmt>(S))
      Loops.push_back(S);
    return true;
  }
  void leaveStmt(Stmt *S) override {
    if (isa<WhileStmt, DoStmt>(S))
      Loops.pop_back();
  }
  const Stmt *Found = nullptr;

private:
  ASTContext &Ctx;
  std::vector<const Stmt *> Loops;
};

// The integer parameter that `S` reads, directly or through a
// local variable initialised from one (one level of locals at a time, as
// deep as they go); null when it reads none.
const ParmVarDecl *parameterRead(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      return Parm->getType()->isIntegerType() ? Parm : nullptr;
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()); Var && Var->isLocalVarDecl())
      return parameterRead(Var->getInit(), Depth + 1);
    return nullptr;
  }
  for (const Stmt *Child : S->children())
    if (const ParmVarDecl *Parm = parameterRead(Child, Depth))
      return Parm;
  return nullptr;
}

const Expr *conditionOf(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getCond();
  return nullptr;
}

class RuntimeExtentFinder : public AstWalker {
public:
  bool visitStmt(Stmt *S) override {
    if (const Expr *Condition = conditionOf(S))
      if (const ParmVarDecl *Parm = parameterRead(Condition))
        Found = {S, Condition, Parm};
    return !Found;
  }
  KernelLoop Found;
};

// Whether `S` reads `blockIdx`, directly or through local variables'
// initialisers (a loop variable's included: `for (int t = row; ...)`),
// references to `Own` aside.
bool readsBlockIndex(const Stmt *S, ASTContext &Ctx, const VarDecl *Own = nullptr, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return false;
  if (std::optional<llvm::StringRef> Read = resize::builtinReadHere(S, Ctx); Read && *Read == "blockIdx")
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || Var == Own || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl())
      return false;
    return readsBlockIndex(Var->getInit(), Ctx, nullptr, Depth + 1);
  }
  for (const Stmt *Child : S->children())
    if (readsBlockIndex(Child, Ctx, Own, Depth))
      return true;
  return false;
}

// The variable a for loop declares in its init (`for (int t = ...; ...)`).
const VarDecl *loopVariable(const ForStmt &For) {
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(For.getInit()); Decl && Decl->isSingleDecl())
    return dyn_cast<VarDecl>(Decl->getSingleDecl());
  return nullptr;
}

class BlockDependentTripFinder : public AstWalker {
public:
  explicit BlockDependentTripFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  bool visitStmt(Stmt *S) override {
    const auto *For = dyn_cast<ForStmt>(S);
    if (!For || !For->getCond() || addsGridStride(For->getInc(), Ctx))
      return true;
    // The start and the bound, the loop's own variable aside in the bound
    // (its initialiser is the start).
    const bool Start = readsBlockIndex(For->getInit(), Ctx);
    const bool Bound = readsBlockIndex(For->getCond(), Ctx, loopVariable(*For));
    if (Start != Bound)
      Found = For;
    return !Found;
  }
  const Stmt *Found = nullptr;

private:
  ASTContext &Ctx;
};

} // namespace

KernelLoop findGridStrideLoop(const Stmt *Body, ASTContext &Ctx) {
  if (!Body)
    return {};
  GridStrideFinder Finder(Ctx);
  Finder.traverseStmt(Body);
  if (!Finder.Found)
    return {};
  const Expr *Condition = conditionOf(Finder.Found);
  return {Finder.Found, Condition, parameterRead(Condition)};
}

KernelLoop findRuntimeExtentLoop(const Stmt *Body) {
  if (!Body)
    return {};
  RuntimeExtentFinder Finder;
  Finder.traverseStmt(Body);
  return Finder.Found;
}

const Stmt *findBlockDependentTripLoop(const Stmt *Body, ASTContext &Ctx) {
  if (!Body)
    return nullptr;
  BlockDependentTripFinder Finder(Ctx);
  Finder.traverseStmt(Body);
  return Finder.Found;
}

} // namespace clang::tidy::occlint
