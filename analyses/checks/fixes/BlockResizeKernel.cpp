// Conditions (a) and (b) of the block-resize safety rule (BlockResizeSafety.h)
// on a kernel's body: its variables, its guards and its statements. The
// expressions are in BlockResizeExpressions.cpp.
#include "ast/AstWalker.h"
#include "ast/SharedMemoryVariables.h"
#include "checks/fixes/BlockResizeKernelScan.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::occlint {

namespace resize {

bool isWideInteger(QualType T, ASTContext &Ctx) {
  return T->isIntegerType() && !T->isBooleanType() && Ctx.getIntWidth(T) >= 32;
}

const VarDecl *referencedVar(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

bool alwaysReturns(const Stmt *S) {
  if (isa_and_nonnull<ReturnStmt>(S))
    return true;
  const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  return CS && !CS->body_empty() && alwaysReturns(CS->body_back());
}

// Local variables that hold the global index (or the grid-stride step) and
// are never changed, and every use of a local or parameter that is not a
// plain read (an assignment, ++, &x, a reference binding).
void KernelScan::collectVariables(const Stmt *Body) {
  struct Collector : AstWalker {
    KernelScan &Scan;
    std::vector<const VarDecl *> Candidates;
    std::vector<std::pair<const VarDecl *, const Expr *>> Assigned;
    explicit Collector(KernelScan &Scan) : Scan(Scan) {}
    bool visitStmt(Stmt *S) override {
      if (auto *Ref = dyn_cast<DeclRefExpr>(S)) {
        const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        if (!VD || VD->hasGlobalStorage())
          return true;
        const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Scan.Parents->getParentIgnoreParens(Ref));
        if (!Cast || (Cast->getCastKind() != CK_LValueToRValue && Cast->getCastKind() != CK_ArrayToPointerDecay))
          Scan.NonReads[VD].push_back(Ref);
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
        if (const VarDecl *VD = referencedVar(BO->getLHS()); VD && !VD->hasGlobalStorage())
          Assigned.push_back({VD, BO->getRHS()});
      }
      return true;
    }
    bool visitDecl(Decl *D) override {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return true;
      if (VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->getInit() && isWideInteger(VD->getType(), Scan.Ctx))
        Candidates.push_back(VD);
      if (VD->getInit())
        Assigned.push_back({VD, VD->getInit()});
      return true;
    }
  } C(*this);
  C.traverseStmt(Body);
  for (const VarDecl *VD : C.Candidates) { // in source order: `int j = i;` after `int i = ...;`
    if (!isReadOnly(VD))
      continue;
    const Expr *Init = VD->getInit();
    const VarDecl *From = referencedVar(stripIntegerCasts(Init, Ctx));
    if (isGlobalIndexFormula(Init, Ctx) || (From && IndexVars.count(From))) {
      if (IndexVars.empty())
        IndexName = VD->getNameAsString();
      IndexVars.insert(VD);
    } else if (isGridStrideFormula(Init, Ctx) || (From && StrideVars.count(From))) {
      StrideVars.insert(VD);
    }
  }
  // Thread-dependent locals: a fixpoint over what each local is assigned.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const auto &[VD, Value] : C.Assigned)
      if (!ThreadValues.count(VD) && mentionsThreadValue(Value)) {
        ThreadValues.insert(VD);
        Grew = true;
      }
  }
}

bool KernelScan::isIndex(const Expr *E) const {
  const Expr *S = stripIntegerCasts(E, Ctx);
  if (const VarDecl *VD = referencedVar(S); VD && IndexVars.count(VD))
    return true;
  return isGlobalIndexFormula(S, Ctx);
}

bool KernelScan::mentionsThreadValue(const Stmt *S) const {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (isIndex(E) || builtinComponent(E, Ctx))
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      return !builtinVariableName(Ref->getDecl()).empty() || (VD && ThreadValues.count(VD));
    }
  }
  for (const Stmt *Child : S->children())
    if (mentionsThreadValue(Child))
      return true;
  return false;
}

// n such that Cond being true implies idx < n.
ParamSet KernelScan::guardsOf(const Expr *Cond) const {
  const Expr *C = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C)) {
    if (BO->getOpcode() == BO_LAnd) {
      ParamSet Out = guardsOf(BO->getLHS()), R = guardsOf(BO->getRHS());
      Out.insert(R.begin(), R.end());
      return Out;
    }
    if (BO->getOpcode() == BO_LT && isIndex(BO->getLHS()))
      if (const ParmVarDecl *N = bound(BO->getRHS()))
        return {N};
    if (BO->getOpcode() == BO_GT && isIndex(BO->getRHS()))
      if (const ParmVarDecl *N = bound(BO->getLHS()))
        return {N};
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot)
    return exitGuardsOf(UO->getSubExpr());
  return {};
}

// n such that Cond being false implies idx < n.
ParamSet KernelScan::exitGuardsOf(const Expr *Cond) const {
  const Expr *C = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C)) {
    if (BO->getOpcode() == BO_LOr) {
      ParamSet Out = exitGuardsOf(BO->getLHS()), R = exitGuardsOf(BO->getRHS());
      Out.insert(R.begin(), R.end());
      return Out;
    }
    if (BO->getOpcode() == BO_GE && isIndex(BO->getLHS()))
      if (const ParmVarDecl *N = bound(BO->getRHS()))
        return {N};
    if (BO->getOpcode() == BO_LE && isIndex(BO->getRHS()))
      if (const ParmVarDecl *N = bound(BO->getLHS()))
        return {N};
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(C); UO && UO->getOpcode() == UO_LNot)
    return guardsOf(UO->getSubExpr());
  return {};
}

KernelResizeFacts KernelScan::run() {
  KernelResizeFacts Out;
  const Stmt *Body = Fn.getBody();
  if (!Body) {
    Out.whyNot = "has no body in this translation unit";
    return Out;
  }
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  collectVariables(Body);
  bool Ok = true;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&Fn))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Ok && Init->isWritten())
        Ok = visit(Init->getInit(), Scope{});
  if (Ok)
    visit(Body, Scope{});
  Out.indexName = IndexName;
  if (!Failed.empty()) {
    Out.whyNot = Failed;
    return Out;
  }
  if (GuardedAccesses && StrideAccesses) {
    Out.whyNot = "accesses memory both inside a grid-stride loop and outside it";
  } else if (StrideAccesses) {
    if (IndexUses) {
      Out.whyNot = "uses its thread index other than as the start of its grid-stride loop";
      return Out;
    }
    Out.form = KernelResizeFacts::Form::GridStride;
    for (const ParmVarDecl *P : StrideBounds)
      Out.boundParams.push_back(P->getFunctionScopeIndex());
  } else if (GuardedAccesses) {
    if (!Bounds || Bounds->empty()) {
      Out.whyNot = "guards its memory accesses with different bounds";
      return Out;
    }
    Out.form = KernelResizeFacts::Form::Guarded;
    for (const ParmVarDecl *P : *Bounds)
      Out.boundParams.push_back(P->getFunctionScopeIndex());
  } else {
    Out.form = KernelResizeFacts::Form::NoAccess;
  }
  return Out;
}

bool KernelScan::visit(const Stmt *S, const Scope &Sc) {
  if (!Failed.empty())
    return false;
  if (!S)
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    return visitExpr(E, Sc);
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return visitCompound(*CS, Sc);
  if (const auto *IS = dyn_cast<IfStmt>(S)) {
    if (!visit(IS->getInit(), Sc) || !visit(IS->getConditionVariableDeclStmt(), Sc) || !visit(IS->getCond(), Sc))
      return false;
    return visit(IS->getThen(), with(Sc, guardsOf(IS->getCond()))) &&
           visit(IS->getElse(), with(Sc, exitGuardsOf(IS->getCond())));
  }
  if (const auto *FS = dyn_cast<ForStmt>(S)) {
    const VarDecl *Var = nullptr;
    const ParmVarDecl *Bound = nullptr;
    if (matchGridStride(*FS, Var, Bound)) {
      if (Sc.strideVar)
        return fail("nests grid-stride loops");
      // Its start, condition and step are the loop's own: not visited.
      Scope Inner = Sc;
      Inner.strideVar = Var;
      Inner.strideBody = FS->getBody();
      Inner.innerLoop = false;
      StrideBounds.insert(Bound);
      return visit(FS->getBody(), Inner);
    }
    return visitLoop(S, FS->getCond(), Sc);
  }
  if (const auto *WS = dyn_cast<WhileStmt>(S))
    return visitLoop(S, WS->getCond(), Sc);
  if (const auto *DS = dyn_cast<DoStmt>(S))
    return visitLoop(S, DS->getCond(), Sc);
  // Leaving a grid-stride loop early: which elements a thread handles depends
  // on the launch, so the elements left over would change with it.
  if (Sc.strideVar && !Callee && (isa<ReturnStmt>(S) || (isa<BreakStmt>(S) && !Sc.innerLoop)))
    return fail("leaves its grid-stride loop early (" + std::string(isa<ReturnStmt>(S) ? "return" : "break") + ")");
  if (const auto *SS = dyn_cast<SwitchStmt>(S); SS && Sc.strideVar) {
    Scope Inner = Sc;
    Inner.innerLoop = true;
    for (const Stmt *Child : SS->children())
      if (!visit(Child, Inner))
        return false;
    return true;
  }
  if (isa<GotoStmt, IndirectGotoStmt>(S))
    return fail("uses goto");
  if (isa<AsmStmt>(S))
    return fail("contains inline assembly");
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (!visitDecl(D, Sc))
        return false;
    return true;
  }
  for (const Stmt *Child : S->children())
    if (!visit(Child, Sc))
      return false;
  return true;
}

bool KernelScan::visitCompound(const CompoundStmt &CS, const Scope &Sc) {
  Scope Current = Sc;
  for (const Stmt *Child : CS.body()) {
    if (!visit(Child, Current))
      return false;
    // `if (idx >= n) return;`: what follows in this block runs with idx < n.
    if (const auto *IS = dyn_cast<IfStmt>(Child); IS && !IS->getElse() && alwaysReturns(IS->getThen()))
      Current = with(Current, exitGuardsOf(IS->getCond()));
  }
  return true;
}

bool KernelScan::visitDecl(const Decl *D, const Scope &Sc) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return true;
  if (isSharedMemoryVariable(*VD))
    return fail("uses __shared__ memory ('" + VD->getNameAsString() + "')");
  if (IndexVars.count(VD) || StrideVars.count(VD))
    return true; // their initialisers are the index and the step themselves
  if (const CXXRecordDecl *Record = VD->getType()->getAsCXXRecordDecl())
    if (const CXXDestructorDecl *Dtor = Record->getDestructor();
        Dtor && Dtor->isUserProvided() && !isLibrary(*Dtor) && !visitCallee(Dtor, Dtor->getNameAsString()))
      return false;
  return visit(VD->getInit(), Sc);
}

// A loop the extra threads may run (outside every guard) must not depend on
// their index: its trip count is then the same for every thread.
bool KernelScan::visitLoop(const Stmt *Loop, const Expr *Cond, const Scope &Sc) {
  if (runsForExtraThreads(Sc) && mentionsThreadValue(Cond))
    return fail("runs a loop on its thread index outside the guard");
  Scope Inner = Sc;
  Inner.innerLoop = Sc.strideVar != nullptr;
  for (const Stmt *Child : Loop->children())
    if (!visit(Child, Inner))
      return false;
  return true;
}

// for (int i = idx; i < n; i += gridDim.x * blockDim.x), i changed nowhere else.
bool KernelScan::matchGridStride(const ForStmt &FS, const VarDecl *&Var, const ParmVarDecl *&Bound) const {
  const auto *Init = dyn_cast_or_null<DeclStmt>(FS.getInit());
  if (!Init || !Init->isSingleDecl())
    return false;
  const auto *I = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!I || !I->getInit() || !isWideInteger(I->getType(), Ctx) || !isIndex(I->getInit()))
    return false;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(FS.getCond() ? FS.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return false;
  if (Cond->getOpcode() == BO_LT && referencedVar(stripIntegerCasts(Cond->getLHS(), Ctx)) == I)
    Bound = bound(Cond->getRHS());
  else if (Cond->getOpcode() == BO_GT && referencedVar(stripIntegerCasts(Cond->getRHS(), Ctx)) == I)
    Bound = bound(Cond->getLHS());
  if (!Bound)
    return false;
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(FS.getInc() ? FS.getInc()->IgnoreParens() : nullptr);
  if (!Inc || Inc->getOpcode() != BO_AddAssign || referencedVar(Inc->getLHS()) != I)
    return false;
  const VarDecl *Step = referencedVar(stripIntegerCasts(Inc->getRHS(), Ctx));
  if (!isGridStrideFormula(Inc->getRHS(), Ctx) && !(Step && StrideVars.count(Step)))
    return false;
  auto Changes = NonReads.find(I);
  if (Changes == NonReads.end() || Changes->second.size() != 1 ||
      Changes->second.front() != Inc->getLHS()->IgnoreParens())
    return false;
  Var = I;
  return true;
}

} // namespace resize

KernelResizeFacts analyzeKernelForBlockResize(const FunctionDecl &Kernel, ASTContext &Ctx) {
  std::set<const FunctionDecl *> Visited{&Kernel};
  return resize::KernelScan(Kernel, Ctx, /*Callee=*/false, Visited, 0).run();
}

} // namespace clang::tidy::occlint
