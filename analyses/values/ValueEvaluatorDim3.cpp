// Reading dim3 values (a launch's grid and block): dim3(x, y, z), an integer
// converted to dim3, braced initializers, dim3 variables with one reaching
// definition, constant dim3s, and the x/y/z members of a dim3 value.
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/APValue.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <array>
#include <optional>
#include <utility>

namespace clang::tidy::occlint {

namespace {

std::string describeDim3(const IDim3 &D) {
  return "dim3(" + describe(D.c[0]) + ", " + describe(D.c[1]) + ", " + describe(D.c[2]) + ")";
}

} // namespace

namespace value_evaluator_detail {

std::optional<unsigned> componentIndex(const FieldDecl &F) {
  const RecordDecl *RD = F.getParent();
  if (!RD || !F.getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  unsigned Found = 0;
  for (const FieldDecl *G : RD->fields())
    if (G->getName() == "x" || G->getName() == "y" || G->getName() == "z")
      ++Found;
  if (Found != 3)
    return std::nullopt;
  StringRef N = F.getName();
  if (N == "x")
    return 0;
  if (N == "y")
    return 1;
  if (N == "z")
    return 2;
  return std::nullopt;
}

std::optional<std::array<const FieldDecl *, 3>> dim3Fields(const RecordDecl *RD) {
  if (!RD)
    return std::nullopt;
  std::array<const FieldDecl *, 3> Out{nullptr, nullptr, nullptr};
  for (const FieldDecl *F : RD->fields())
    if (auto I = componentIndex(*F))
      Out[*I] = F;
  if (!Out[0] || !Out[1] || !Out[2])
    return std::nullopt;
  return Out;
}

} // namespace value_evaluator_detail

// b.x of a dim3 value.
IVal ValueEvaluatorImpl::evalMember(const MemberExpr *E) {
  QualType T = E->getType();
  const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
  if (!F || E->isArrow()) {
    recordReason("'" + spellingOf(E) + "' is a data member (values are not followed through members)");
    return unknownOf(T);
  }
  // prop.multiProcessorCount of a cudaDeviceProp filled by cudaGetDeviceProperties.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && VD->getType()->isRecordType())
      if (std::optional<IVal> Queried = deviceQueryValue(*VD, F, T))
        return *Queried;
  std::optional<unsigned> Index = componentIndex(*F);
  if (!Index || !dim3Fields(F->getParent())) {
    // A local object's member, followed through its writes; any other
    // struct's member (`cfg->threads`, a class's `threads_`): what writes it
    // can be anywhere the object goes, so its value is not followed.
    if (std::optional<IVal> Local = evalLocalMember(*E))
      return *Local;
    recordReason("'" + spellingOf(E) + "' is a data member (values are not followed through members)");
    return unknownOf(T);
  }
  IDim3 D = evalDim3(E->getBase());
  return castTo(D.c[*Index], T);
}

std::optional<IDim3> ValueEvaluatorImpl::evalDim3Members(const DeclRefExpr &Use, const VarDecl &VD) {
  const auto Fields = dim3Fields(VD.getType()->getAsRecordDecl());
  const BodyWrites *Writes = memberWritesOf(VD);
  if (!Fields || !Writes)
    return std::nullopt;
  for (const FieldDecl *F : *Fields)
    if (!Writes->tracked({VD, F}))
      return std::nullopt; // the variable's own reason ("modified after its definition")
  IDim3 Out;
  for (unsigned I = 0; I < 3; ++I)
    Out.c[I] = *evalMemberPlace(VD, *(*Fields)[I], Use, (*Fields)[I]->getType());
  return Out;
}

IDim3 ValueEvaluatorImpl::unknownDim3(const std::string &Spelling) const {
  IDim3 D;
  static const char *Names[3] = {".x", ".y", ".z"};
  for (unsigned I = 0; I < 3; ++I)
    D.c[I] = unknownOf(Ctx.UnsignedIntTy, Spelling.empty() ? "" : Spelling + Names[I]);
  return D;
}

static const Expr *stripDim3Wrappers(const Expr *E) {
  while (true) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CastExpr>(E);
             C && (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_ConstructorConversion ||
                   C->getCastKind() == CK_LValueToRValue))
      E = C->getSubExpr();
    else
      return E;
  }
}

IDim3 ValueEvaluatorImpl::evalDim3(const Expr *E) {
  if (!E)
    return unknownDim3("");
  std::string Spelling = spellingOf(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return unknownDim3(Spelling);
  if (Depth >= MaxDepth || Steps >= MaxSteps) {
    ++Truncations;
    return unknownDim3(Spelling);
  }
  const Expr *Inner = stripDim3Wrappers(E);
  if (Inner->getType()->isIntegralOrEnumerationType()) {
    IDim3 D;
    D.c[0] = castTo(evalInt(Inner), Ctx.UnsignedIntTy);
    D.c[1] = D.c[2] = exactOf(1);
    return D;
  }
  ++Depth;
  ++Steps;
  std::optional<IDim3> D;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner))
    D = evalConstruct(CE);
  else if (const auto *IL = dyn_cast<InitListExpr>(Inner))
    D = evalInitList(IL);
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Inner))
    D = evalDim3Var(DRE, Spelling);
  else if (const auto *Call = dyn_cast<CallExpr>(Inner))
    D = evalDim3HelperCall(Call);
  --Depth;
  if (!D || !D->exact())
    if (std::optional<IDim3> Folded = foldDim3(Inner)) {
      for (unsigned I = 0; I < 3; ++I)
        if (D)
          Folded->c[I].derivation = D->c[I].derivation;
      D = std::move(Folded);
    }
  if (!D)
    return unknownDim3(Spelling);
  return *D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalConstruct(const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (!Ctor)
    return std::nullopt;
  if (Ctor->isCopyOrMoveConstructor() && E->getNumArgs() >= 1)
    return evalDim3(E->getArg(0));
  auto Fields = dim3Fields(Ctor->getParent());
  if (!Fields)
    return std::nullopt;
  // Which argument each of x, y, z is: from the constructor's member
  // initializers (x(vx), ...), else by position for a type named dim3.
  std::array<std::optional<unsigned>, 3> ArgOf;
  std::array<const Expr *, 3> ConstInit{nullptr, nullptr, nullptr};
  bool Mapped = false;
  const FunctionDecl *DefFD = nullptr;
  if (Ctor->isDefined(DefFD))
    if (const auto *Def = dyn_cast<CXXConstructorDecl>(DefFD)) {
      Mapped = true;
      for (unsigned I = 0; I < 3; ++I) {
        const CXXCtorInitializer *Found = nullptr;
        for (const CXXCtorInitializer *Init : Def->inits())
          if (Init->isMemberInitializer() && Init->getMember() == (*Fields)[I])
            Found = Init;
        const Expr *InitE = Found ? Found->getInit() : nullptr;
        if (!InitE) {
          Mapped = false;
          break;
        }
        const Expr *Stripped = InitE->IgnoreParenImpCasts();
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Stripped))
          if (const auto *Parm = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
            ArgOf[I] = Parm->getFunctionScopeIndex();
            continue;
          }
        if (fold(InitE)) {
          ConstInit[I] = InitE;
          continue;
        }
        Mapped = false;
        break;
      }
    }
  if (!Mapped) {
    if (Ctor->getParent()->getName() != "dim3" || E->getNumArgs() > 3)
      return std::nullopt;
    for (unsigned I = 0; I < 3; ++I) {
      ArgOf[I] = I;
      ConstInit[I] = nullptr;
    }
  }
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    QualType FT = (*Fields)[I]->getType();
    if (ConstInit[I]) {
      D.c[I] = castTo(exactOf(*fold(ConstInit[I])), FT);
      continue;
    }
    unsigned A = *ArgOf[I];
    if (A >= E->getNumArgs()) {
      if (Mapped)
        return std::nullopt;
      D.c[I] = exactOf(1); // dim3's defaults
      continue;
    }
    const Expr *Arg = E->getArg(A);
    if (!Arg->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    D.c[I] = castTo(evalInt(Arg), FT);
  }
  return D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalInitList(const InitListExpr *E) {
  const InitListExpr *Semantic = E->isSemanticForm() ? E : E->getSemanticForm();
  if (!Semantic)
    return std::nullopt;
  const auto *RD = Semantic->getType()->getAsRecordDecl();
  auto Fields = dim3Fields(RD);
  if (!Fields)
    return std::nullopt;
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    unsigned Index = (*Fields)[I]->getFieldIndex();
    if (Index >= Semantic->getNumInits())
      return std::nullopt;
    D.c[I] = castTo(evalInt(Semantic->getInit(Index)), (*Fields)[I]->getType());
  }
  return D;
}

std::optional<IDim3> ValueEvaluatorImpl::evalDim3Var(const DeclRefExpr *E, const std::string &Spelling) {
  const auto *VD = dyn_cast<VarDecl>(E->getDecl());
  if (!VD)
    return std::nullopt;
  static const char *Names[3] = {".x", ".y", ".z"};
  auto Spell = [&](IDim3 Out) {
    for (unsigned I = 0; I < 3; ++I)
      if (!Out.c[I].exact() && !Spelling.empty())
        Out.c[I].spelling = Spelling + Names[I];
    return Out;
  };
  // A dim3 parameter: the caller's argument, when a frame binds it.
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    const ParamBinding B = bindParameter(*P);
    if (!B.readable)
      return unknownDim3(Spelling);
    if (!B.argument) {
      openCallers(*P, B);
      return unknownDim3(Spelling);
    }
    IDim3 Out = evalArgument(B, [&](const Expr *Arg) { return evalDim3(Arg); });
    const ValueDerivation Step = callStep(*P, B, describeDim3(Out), Out.exact());
    for (IVal &V : Out.c)
      V.derivation = mergeDerivations(V.derivation, {Step});
    return Spell(std::move(Out));
  }
  const VarDecl *Def = VD;
  const Expr *Init = VD->getAnyInitializer(Def);
  IDim3 Out;
  // A local dim3 assigned member by member (`dim3 b; b.x = 96;`): each
  // component read through its writes.
  if (Init && !hasStableValue(*VD))
    if (std::optional<IDim3> Members = evalDim3Members(*E, *VD))
      return Spell(std::move(*Members));
  if (!Init || !Def || !hasStableValue(*VD)) {
    recordReason("'" + VD->getName().str() +
                 (Init ? "' is modified after its definition" : "' is declared without an initializer and set later"));
    return unknownDim3(Spelling);
  }
  const unsigned VarFrame = frameOf(*VD);
  if (const CachedValue<IDim3> *Cached = cachedDim3(Def, VarFrame)) {
    replay(Cached->learnt);
    Out = Cached->value;
  } else {
    if (Active.size() >= MaxVarDepth || !Active.insert(Def).second) {
      ++Truncations;
      return unknownDim3(Spelling);
    }
    unsigned TruncationsBefore = Truncations;
    EvaluationTrace Mine;
    EvaluationTrace *Outer = Trace;
    const unsigned SavedFrame = Frame;
    Trace = &Mine;
    Frame = VarFrame;
    IDim3 Value = evalDim3(Init);
    Frame = SavedFrame;
    Trace = Outer;
    Active.erase(Def);
    replay(Mine);
    std::vector<ValueDerivation> Own{
        {Def->getLocation(), "'" + VD->getName().str() + "' is defined here as " + describeDim3(Value)}};
    Out = Value;
    for (IVal &V : Out.c)
      V.derivation = mergeDerivations(Own, V.derivation);
    if (Truncations == TruncationsBefore)
      cacheDim3(Def, VarFrame, {Out, Mine});
  }
  return Spell(std::move(Out));
}

// A constant dim3 (e.g. returned by a constexpr function).
std::optional<IDim3> ValueEvaluatorImpl::foldDim3(const Expr *E) const {
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  const auto *RD = E->getType()->getAsCXXRecordDecl();
  auto Fields = dim3Fields(RD);
  if (!Fields)
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || !R.Val.isStruct())
    return std::nullopt;
  IDim3 D;
  for (unsigned I = 0; I < 3; ++I) {
    unsigned Index = (*Fields)[I]->getFieldIndex();
    if (Index >= R.Val.getStructNumFields())
      return std::nullopt;
    const APValue &F = R.Val.getStructField(Index);
    if (!F.isInt())
      return std::nullopt;
    const llvm::APSInt &V = F.getInt();
    if (V.getActiveBits() > 63)
      return std::nullopt;
    D.c[I] = exactOf(V.isSigned() ? static_cast<i128>(V.getSExtValue()) : static_cast<i128>(V.getZExtValue()));
  }
  return D;
}

} // namespace clang::tidy::occlint
