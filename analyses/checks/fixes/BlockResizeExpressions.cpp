// Conditions (a) and (b) of the block-resize safety rule (BlockResizeSafety.h)
// on a kernel's expressions: global memory accesses and their guards, calls
// (what they communicate, and the callees' bodies), built-in variables,
// variables a grid-stride loop would carry from one element to the next.
#include "ast/SharedMemoryVariables.h"
#include "checks/fixes/BlockResizeKernelScan.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

namespace clang::tidy::occlint::resize {

// What a callee does across threads, judged by its name (or namespace);
// "" for nothing known.
std::string communicationKind(const FunctionDecl &FD) {
  for (const DeclContext *DC = FD.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "cooperative_groups")
      return "cooperative groups";
  const std::string Name = FD.getNameAsString();
  const llvm::StringRef N(Name);
  const std::string Lower = N.lower();
  if (N.starts_with("__syncthreads") || N == "__syncwarp" || N.starts_with("__barrier") ||
      N.starts_with("__nvvm_bar") || N.starts_with("__bar_"))
    return "a barrier";
  if (N.starts_with("__shfl") || N.starts_with("__ballot") || N == "__any" || N == "__all" || N == "__uni" ||
      N.starts_with("__any_sync") || N.starts_with("__all_sync") || N.starts_with("__uni_sync") ||
      N.starts_with("__activemask") || N.starts_with("__match") || N.starts_with("__reduce_") ||
      N.starts_with("__lanemask") || N.starts_with("__fns") || N.starts_with("__nvvm_shfl") ||
      N.starts_with("__nvvm_vote") || N.starts_with("__nvvm_match"))
    return "a warp intrinsic";
  if (Lower.find("atomic") != std::string::npos)
    return "an atomic";
  if (Lower.find("fence") != std::string::npos)
    return "a memory fence";
  if (Lower.find("memcpy_async") != std::string::npos || Lower.find("pipeline") != std::string::npos)
    return "an asynchronous copy";
  if (N == "__trap" || N == "__brkpt" || N == "abort" || N == "exit" || N.starts_with("__assert"))
    return "it stops the kernel";
  if (N == "malloc" || N == "free" || N == "realloc" || N == "calloc" || N.starts_with("cudaMalloc") ||
      N.starts_with("cudaFree"))
    return "it allocates memory";
  return "";
}

bool KernelScan::visitExpr(const Expr *E, const Scope &Sc) {
  if (!Failed.empty())
    return false;
  if (isIndex(E)) {
    if (Sc.strideVar && !Callee)
      return fail("uses its thread index inside its grid-stride loop ('" + spellingOf(E, Ctx) + "')");
    ++IndexUses;
    return true;
  }
  if (std::optional<BuiltinComponent> B = builtinComponent(E, Ctx))
    return fail("reads " + B->variable.str() + "." + B->component.str() + " other than in the index " +
                "blockIdx.x * blockDim.x + threadIdx.x");
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return visitDeclRef(*Ref);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return visitAccess(AS->getBase(), AS->getIdx(), *AS, Sc);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *Add = dyn_cast<BinaryOperator>(Sub); Add && Add->getOpcode() == BO_Add) {
        if (Add->getLHS()->getType()->isPointerType())
          return visitAccess(Add->getLHS(), Add->getRHS(), *UO, Sc);
        return visitAccess(Add->getRHS(), Add->getLHS(), *UO, Sc);
      }
      if (Callee && isa<CXXThisExpr>(Sub))
        return true;
      return fail("dereferences '" + spellingOf(Sub, Ctx) + "'");
    }
    if (UO->isIncrementDecrementOp() && !checkCarried(UO->getSubExpr(), Sc))
      return false;
    return visit(UO->getSubExpr(), Sc);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() && !checkCarried(BO->getLHS(), Sc))
      return false;
    if (!visit(BO->getLHS(), Sc))
      return false;
    if (BO->getOpcode() == BO_LAnd)
      return visit(BO->getRHS(), with(Sc, guardsOf(BO->getLHS())));
    if (BO->getOpcode() == BO_LOr)
      return visit(BO->getRHS(), with(Sc, exitGuardsOf(BO->getLHS())));
    return visit(BO->getRHS(), Sc);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return visit(CO->getCond(), Sc) && visit(CO->getTrueExpr(), with(Sc, guardsOf(CO->getCond()))) &&
           visit(CO->getFalseExpr(), with(Sc, exitGuardsOf(CO->getCond())));
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow() && !(Callee && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())))
      return fail("accesses memory through '" + spellingOf(ME, Ctx) + "'");
    return visit(ME->getBase(), Sc);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return visitCall(*CE, Sc);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return visitConstruct(*CE, Sc);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return visit(DA->getExpr(), Sc);
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return visit(DI->getExpr(), Sc);
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return visit(OV->getSourceExpr(), Sc);
  if (isa<LambdaExpr>(E))
    return fail("uses a lambda");
  if (isa<CXXNewExpr, CXXDeleteExpr>(E))
    return fail("allocates memory");
  if (isa<PseudoObjectExpr>(E))
    return fail("reads a property ('" + spellingOf(E, Ctx) + "')");
  for (const Stmt *Child : E->children())
    if (!visit(Child, Sc))
      return false;
  return true;
}

bool KernelScan::visitDeclRef(const DeclRefExpr &Ref) {
  const ValueDecl *D = Ref.getDecl();
  if (const llvm::StringRef Builtin = builtinVariableName(D); !Builtin.empty())
    return fail("reads " + Builtin.str() + " other than in the index blockIdx.x * blockDim.x + threadIdx.x");
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (isSharedMemoryVariable(*VD))
      return fail("uses __shared__ memory ('" + VD->getNameAsString() + "')");
    if (StrideVars.count(VD))
      return fail("uses the grid's thread count ('" + VD->getNameAsString() + "') other than as a grid-stride step");
    if (VD->hasGlobalStorage() && !VD->getType().isConstQualified() && !VD->isConstexpr() &&
        !VD->hasAttr<CUDAConstantAttr>())
      return fail("uses the global variable '" + VD->getNameAsString() + "'");
    return true;
  }
  if (isa<FunctionDecl>(D))
    return fail("takes the address of '" + D->getNameAsString() + "'");
  return true;
}

bool KernelScan::visitAccess(const Expr *Base, const Expr *Index, const Expr &Whole, const Scope &Sc) {
  const VarDecl *VD = referencedVar(Base);
  if (VD && isSharedMemoryVariable(*VD))
    return fail("uses __shared__ memory ('" + VD->getNameAsString() + "')");
  if (VD && !VD->hasGlobalStorage() && !isa<ParmVarDecl>(VD) && VD->getType()->isArrayType()) {
    // The thread's own array: an index from the thread's values may be out
    // of its bounds for the extra threads, outside the guard.
    if (runsForExtraThreads(Sc) && mentionsThreadValue(Index))
      return fail("indexes its array '" + VD->getNameAsString() + "' with its thread index outside the guard");
    return visit(Index, Sc);
  }
  const bool Global = VD && ((isa<ParmVarDecl>(VD) && VD->getType()->isPointerType()) ||
                             (VD->hasGlobalStorage() && VD->getType()->isArrayType()));
  if (!Global)
    return fail("accesses memory through '" + spellingOf(Base, Ctx) + "'");
  if (Callee)
    return fail("accesses '" + spellingOf(&Whole, Ctx) + "'");
  if (!isReadOnly(VD))
    return fail("changes the pointer '" + VD->getNameAsString() + "'");
  if (Sc.strideVar) {
    if (referencedVar(stripIntegerCasts(Index, Ctx)) == Sc.strideVar) {
      ++StrideAccesses;
      return true;
    }
    return fail("accesses '" + spellingOf(&Whole, Ctx) + "', whose index is not its grid-stride loop's '" +
                Sc.strideVar->getNameAsString() + "'");
  }
  if (isIndex(Index)) {
    if (Sc.guards.empty())
      return fail("accesses '" + spellingOf(&Whole, Ctx) + "' without a guard '" + IndexName +
                  " < n' (n a parameter) around it");
    if (!Bounds) {
      Bounds = Sc.guards;
    } else {
      ParamSet Common;
      for (const ParmVarDecl *P : *Bounds)
        if (Sc.guards.count(P))
          Common.insert(P);
      Bounds = std::move(Common);
    }
    ++GuardedAccesses;
    return true;
  }
  if (mentionsBuiltin(Index, "blockIdx", Ctx) && !mentionsBuiltin(Index, "threadIdx", Ctx))
    return fail("has a per-block result ('" + spellingOf(&Whole, Ctx) + "')");
  return fail("accesses '" + spellingOf(&Whole, Ctx) + "', whose index is not " + IndexName);
}

bool KernelScan::visitCall(const CallExpr &CE, const Scope &Sc) {
  if (isa<CUDAKernelCallExpr>(CE))
    return fail("launches a kernel");
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD)
    return fail("calls through a pointer ('" + spellingOf(CE.getCallee(), Ctx) + "')");
  const std::string Name = FD->getNameAsString();
  if (const std::string Kind = communicationKind(*FD); !Kind.empty())
    return fail("calls " + Name + " (" + Kind + ")");
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&CE)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    const auto *Method = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (Object && Method && Method->isArrow() && !(Callee && isa<CXXThisExpr>(Object->IgnoreParenImpCasts())))
      return fail("calls '" + Name + "' through the pointer '" + spellingOf(Object, Ctx) + "'");
    if (!visit(Object, Sc))
      return false;
  }
  for (const Expr *Arg : CE.arguments())
    if (!visit(Arg, Sc))
      return false;
  if (isLibrary(*FD)) {
    for (const Expr *Arg : CE.arguments())
      if (Arg->getType()->isPointerType() || Arg->getType()->isArrayType())
        return fail("passes a pointer to " + Name);
    return true;
  }
  const FunctionDecl *Definition = nullptr;
  if (!FD->hasBody(Definition) || !Definition)
    return fail("calls '" + Name + "', whose body is not in this translation unit");
  // What a callee does depends on its arguments alone (it reads no built-in
  // variable): outside the guard, no value of the extra threads goes in.
  if (runsForExtraThreads(Sc))
    for (const Expr *Arg : CE.arguments())
      if (mentionsThreadValue(Arg))
        return fail("calls '" + Name + "' with its thread index outside the guard");
  return visitCallee(Definition, Name);
}

bool KernelScan::visitConstruct(const CXXConstructExpr &CE, const Scope &Sc) {
  for (const Expr *Arg : CE.arguments())
    if (!visit(Arg, Sc))
      return false;
  const CXXConstructorDecl *Ctor = CE.getConstructor();
  if (!Ctor || Ctor->isTrivial())
    return true;
  if (isLibrary(*Ctor)) {
    for (const Expr *Arg : CE.arguments())
      if (Arg->getType()->isPointerType() || Arg->getType()->isArrayType())
        return fail("passes a pointer to " + Ctor->getNameAsString());
    return true;
  }
  const FunctionDecl *Definition = nullptr;
  if (Ctor->isDefaulted() && !Ctor->hasBody(Definition))
    return true;
  if (!Ctor->hasBody(Definition) || !Definition)
    return fail("constructs a '" + Ctor->getNameAsString() + "', whose constructor is not in this translation unit");
  if (runsForExtraThreads(Sc))
    for (const Expr *Arg : CE.arguments())
      if (mentionsThreadValue(Arg))
        return fail("constructs a '" + Ctor->getNameAsString() + "' from its thread index outside the guard");
  return visitCallee(Definition, Ctor->getNameAsString());
}

bool KernelScan::visitCallee(const FunctionDecl *FD, const std::string &Name) {
  if (!Visited.insert(FD).second)
    return true; // checked already, or being checked (recursion)
  if (Depth >= MaxCallDepth)
    return fail("calls functions nested too deep to check ('" + Name + "')");
  KernelScan Sub(*FD, Ctx, /*Callee=*/true, Visited, Depth + 1);
  Sub.run();
  if (!Sub.failure().empty())
    return fail("calls '" + Name + "', which " + Sub.failure());
  return true;
}

// Inside a grid-stride loop, a variable declared outside the loop must not
// be assigned: it would carry a value from one element to the next, and which
// elements a thread handles depends on the launch.
bool KernelScan::checkCarried(const Expr *Target, const Scope &Sc) {
  if (!Sc.strideBody)
    return true;
  const Expr *T = Target->IgnoreParenImpCasts();
  while (true) {
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(T); AS && referencedVar(AS->getBase()) &&
                                                          !referencedVar(AS->getBase())->hasGlobalStorage() &&
                                                          referencedVar(AS->getBase())->getType()->isArrayType())
      T = AS->getBase()->IgnoreParenImpCasts();
    else if (const auto *ME = dyn_cast<MemberExpr>(T); ME && !ME->isArrow())
      T = ME->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  const VarDecl *VD = referencedVar(T);
  if (!VD || VD->hasGlobalStorage() || VD == Sc.strideVar)
    return true;
  const SourceRange Body = Sc.strideBody->getSourceRange();
  const SourceLocation At = SM.getExpansionLoc(VD->getLocation());
  if (!SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(Body.getBegin())) &&
      !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body.getEnd()), At))
    return true;
  return fail("carries '" + VD->getNameAsString() + "' from one element of its grid-stride loop to the next");
}

} // namespace clang::tidy::occlint::resize
