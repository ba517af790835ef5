// Reading values in a context (ValueContext.h): the frame a variable belongs
// to, guards that refine it, parameters bound to the arguments of the call in
// the next frame out, members of finite sets a variant picks (case labels,
// constant array elements), and the reasons a value stays unknown.
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <utility>

namespace clang::tidy::occlint {

ValueEvaluatorImpl::ValueEvaluatorImpl(ASTContext &Ctx, ValueEvaluator::Cache &C, const ValueContext &Context,
                                       EvaluationTrace &Trace)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), C(C), Context(Context), Trace(&Trace) {
  if (!Context.frames.empty())
    Frame = 0;
  ContextFree = Context.frames.size() <= 1 && Context.picks.empty() && !Context.target &&
                (Context.frames.empty() || guardsOf(0).empty());
}

unsigned ValueEvaluatorImpl::frameOf(const VarDecl &VD) const {
  if (Frame == NoFrame || Frame >= Context.frames.size())
    return NoFrame;
  const auto *Owner = dyn_cast_or_null<FunctionDecl>(VD.getParentFunctionOrMethod());
  const FunctionDecl *Current = Context.frames[Frame].function;
  if (Owner && Current && Owner->getCanonicalDecl() == Current->getCanonicalDecl())
    return Frame;
  return NoFrame;
}

const std::vector<GuardFact> &ValueEvaluatorImpl::guardsOf(unsigned F) {
  static const std::vector<GuardFact> None;
  if (F == NoFrame || F >= Context.frames.size())
    return None;
  auto It = GuardsOfFrame.find(F);
  if (It != GuardsOfFrame.end())
    return It->second;
  const ValueFrame &VF = Context.frames[F];
  const Stmt *Body = VF.function ? VF.function->getBody() : nullptr;
  std::vector<GuardFact> Facts;
  if (Body && VF.at) {
    std::unique_ptr<StatementParents> &Parents = C.parentMaps[Body];
    if (!Parents)
      Parents = std::make_unique<StatementParents>(*Body);
    Facts = guardsAround(*VF.at, *Body, *Parents, Ctx);
  }
  return GuardsOfFrame.emplace(F, std::move(Facts)).first->second;
}

void ValueEvaluatorImpl::recordChoice(const OpenChoice &Choice) {
  if (!Trace)
    return;
  if (!Trace->choice)
    Trace->choice = Choice;
  if (Choice.kind == OpenChoice::Kind::SetMember && !Trace->setChoice)
    Trace->setChoice = Choice;
}

void ValueEvaluatorImpl::recordReason(std::string Reason) {
  if (Trace && Trace->unknownReason.empty())
    Trace->unknownReason = std::move(Reason);
}

void ValueEvaluatorImpl::replay(const EvaluationTrace &Learnt) {
  if (Learnt.needsTarget && Trace)
    Trace->needsTarget = true;
  if (Learnt.sweptArray && Trace && !Trace->sweptArray)
    Trace->sweptArray = Learnt.sweptArray;
  if (Learnt.choice)
    recordChoice(*Learnt.choice);
  if (Learnt.setChoice)
    recordChoice(*Learnt.setChoice);
  if (!Learnt.unknownReason.empty())
    recordReason(Learnt.unknownReason);
}

const CachedValue<IVal> *ValueEvaluatorImpl::cachedInt(const VarDecl *Def, unsigned F) {
  if (F == NoFrame || ContextFree) {
    auto &Map = F == NoFrame ? C.intVars : C.intVarsInFrame;
    auto It = Map.find(Def);
    return It == Map.end() ? nullptr : &It->second;
  }
  auto It = FrameInts.find({Def, F});
  return It == FrameInts.end() ? nullptr : &It->second;
}

void ValueEvaluatorImpl::cacheInt(const VarDecl *Def, unsigned F, CachedValue<IVal> Entry) {
  if (F == NoFrame || ContextFree)
    (F == NoFrame ? C.intVars : C.intVarsInFrame)[Def] = std::move(Entry);
  else
    FrameInts[{Def, F}] = std::move(Entry);
}

const CachedValue<IDim3> *ValueEvaluatorImpl::cachedDim3(const VarDecl *Def, unsigned F) {
  if (F == NoFrame || ContextFree) {
    auto &Map = F == NoFrame ? C.dim3Vars : C.dim3VarsInFrame;
    auto It = Map.find(Def);
    return It == Map.end() ? nullptr : &It->second;
  }
  auto It = FrameDim3s.find({Def, F});
  return It == FrameDim3s.end() ? nullptr : &It->second;
}

void ValueEvaluatorImpl::cacheDim3(const VarDecl *Def, unsigned F, CachedValue<IDim3> Entry) {
  if (F == NoFrame || ContextFree)
    (F == NoFrame ? C.dim3Vars : C.dim3VarsInFrame)[Def] = std::move(Entry);
  else
    FrameDim3s[{Def, F}] = std::move(Entry);
}

std::string ValueEvaluatorImpl::where(SourceLocation Loc) const {
  const PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "an unknown place";
  return llvm::sys::path::filename(P.getFilename()).str() + ":" + std::to_string(P.getLine());
}

// The guards around the frame's statement, applied to a variable with one
// reaching definition (the caller makes sure of that).
IVal ValueEvaluatorImpl::refineByGuards(const VarDecl &VD, IVal V) {
  const unsigned F = frameOf(VD);
  if (F == NoFrame)
    return V;
  // A variable its function assigns: a guard tests the value that reaches
  // its statement, which is this value only when the same write reaches
  // both (ValueEvaluatorWrites.cpp).
  auto Via = ReadVia.find(&VD);
  const BodyWrites *Writes = nullptr;
  if (Via != ReadVia.end())
    if (const Stmt *Body = Context.frames[F].function ? Context.frames[F].function->getBody() : nullptr)
      Writes = &writesIn(*Body);
  for (const GuardFact &G : guardsOf(F)) {
    if (G.var != &VD)
      continue;
    if (Via != ReadVia.end() &&
        (!Writes || !G.statement || !sameWrite(Writes->reachingWrite(VD, *G.statement), Via->second)))
      continue;
    i128 Lo = G.min ? std::max<i128>(V.lo, *G.min) : V.lo;
    i128 Hi = G.max ? std::min<i128>(V.hi, *G.max) : V.hi;
    if (Lo > Hi) {
      // The guard contradicts the value: in this context the statement does
      // not run (a helper's caller passes a value the helper's own test
      // sends elsewhere).
      if (Trace)
        Trace->infeasible = true;
      continue;
    }
    const std::string Name = "'" + VD.getName().str() + "'";
    if (!G.members.empty()) {
      std::vector<i128> Members;
      for (int64_t M : G.members)
        if (M >= Lo && M <= Hi)
          Members.push_back(M);
      if (Members.empty())
        continue;
      IVal Hull = V;
      Hull.lo = Members.front();
      Hull.hi = Members.back();
      Hull.loKnown = Hull.hiKnown = true;
      V = Members.size() == 1 ? Hull : pickMember(G.key, Members, Hull, G.loc, Name, F);
      if (V.exact())
        V.derivation =
            mergeDerivations(V.derivation, {{G.loc, Name + " is " + describe(V) + " here (" + G.text + ")"}});
      continue;
    }
    const bool Changed = Lo != V.lo || Hi != V.hi;
    if (Lo != V.lo)
      V.loKnown = true;
    if (Hi != V.hi)
      V.hiKnown = true;
    V.lo = Lo;
    V.hi = Hi;
    if (Changed)
      V.derivation = mergeDerivations(V.derivation, {{G.loc, Name + " is " + describe(V) + " here (" + G.text + ")"}});
  }
  if (V.exact())
    V.spelling.clear();
  return V;
}

IVal ValueEvaluatorImpl::pickMember(const void *Key, const std::vector<i128> &Members, IVal Hull, SourceLocation Loc,
                                    const std::string &What, unsigned InFrame) {
  if (InFrame == NoFrame)
    return Hull; // no context to pick in
  auto It = Context.picks.find({Key, InFrame});
  if (It == Context.picks.end() || It->second >= Members.size()) {
    OpenChoice Choice;
    Choice.kind = OpenChoice::Kind::SetMember;
    Choice.frame = InFrame;
    Choice.key = Key;
    Choice.count = static_cast<unsigned>(Members.size());
    recordChoice(Choice);
    recordReason(What + " is one of " + std::to_string(Members.size()) + " values");
    return Hull;
  }
  IVal R = exactOf(Members[It->second]);
  R.derivation = Hull.derivation;
  R.derivation.push_back(
      {Loc, What + " is " + describe(R) + " in this variant (one of " + std::to_string(Members.size()) + " values)"});
  return R;
}

const Expr *ValueEvaluatorImpl::boundArgument(const ParmVarDecl &P) const {
  const unsigned F = frameOf(P);
  if (F == NoFrame || F + 1 >= Context.frames.size())
    return nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(Context.frames[F + 1].at);
  if (!Call || isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  const unsigned Index = P.getFunctionScopeIndex();
  return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
}

ValueEvaluatorImpl::ParamBinding ValueEvaluatorImpl::bindParameter(const ParmVarDecl &P, bool WrittenAfter) {
  ParamBinding B;
  const auto *Fn = dyn_cast<FunctionDecl>(P.getDeclContext());
  B.function = Fn ? Fn->getNameAsString() : std::string("?");
  B.of = "parameter '" + P.getName().str() + "' of '" + B.function + "'";
  B.frame = frameOf(P);
  // A reference parameter reads the caller's object: its value at the call
  // when nothing writes through it (a forwarding reference a template only
  // hands on); checked below whenever a binding is used.
  const bool Reference = P.getType()->isReferenceType();
  if (B.frame == NoFrame || P.getType().isVolatileQualified() ||
      (Reference && P.getType().getNonReferenceType().isVolatileQualified())) {
    recordReason(B.of);
    return B;
  }
  // Whether the function modifies the parameter matters only when a binding
  // or a guard would be used: Clang's ExprMutationAnalyzer costs the uses of
  // the parameter times the body (3,000 launches reading 'n' in one function
  // made it quadratic), so it is not asked for a parameter that stays unknown.
  B.argument = boundArgument(P);
  const std::vector<GuardFact> &Guards = guardsOf(B.frame);
  const bool Guarded = std::any_of(Guards.begin(), Guards.end(), [&](const GuardFact &G) { return G.var == &P; });
  if ((B.argument || Guarded || Reference) && !WrittenAfter && isMutated(P)) {
    recordReason(B.of + ", which the function modifies");
    B.argument = nullptr;
    return B;
  }
  B.readable = true;
  return B;
}

ValueDerivation ValueEvaluatorImpl::callStep(const ParmVarDecl &P, const ParamBinding &B, const std::string &Value,
                                             bool ValueKnown, const std::string &Read) {
  if (!ValueKnown)
    recordReason(B.of + ", called with a runtime value at " + where(B.argument->getBeginLoc()));
  return {SM.getExpansionLoc(B.argument->getBeginLoc()),
          "'" + B.function + "' is called here with '" + (Read.empty() ? P.getName().str() : Read) + "' = " + Value};
}

void ValueEvaluatorImpl::openCallers(const ParmVarDecl &P, const ParamBinding &B) {
  OpenChoice Choice;
  Choice.kind = OpenChoice::Kind::Callers;
  Choice.frame = B.frame;
  Choice.parameter = &P;
  recordChoice(Choice);
  recordReason(B.of);
}

IVal ValueEvaluatorImpl::evalParam(const ParmVarDecl &P, QualType UseType, bool WrittenAfter) {
  if (std::optional<IVal> Lambda = evalLambdaParameter(P, UseType, WrittenAfter))
    return refineByGuards(P, std::move(*Lambda));
  const std::string Name = P.getName().str();
  const ParamBinding B = bindParameter(P, WrittenAfter);
  if (!B.readable)
    return unknownOf(UseType, Name);
  if (!B.argument) {
    // The guards first: a case label among several is a choice of its own,
    // taken before the callers are.
    IVal V = refineByGuards(P, unknownOf(P.getType().getNonReferenceType(), Name));
    if (!V.exact())
      openCallers(P, B);
    return castTo(std::move(V), UseType);
  }
  IVal V = evalArgument(B, [&](const Expr *Arg) { return castTo(evalInt(Arg), P.getType().getNonReferenceType()); });
  V.derivation = mergeDerivations(V.derivation, {callStep(P, B, describe(V), V.informative())});
  if (!V.exact())
    V.spelling = Name;
  return refineByGuards(P, castTo(std::move(V), UseType));
}

const InitListExpr *ValueEvaluatorImpl::stableArrayElements(const VarDecl &Array) {
  if (!Ctx.getAsConstantArrayType(Array.getType()))
    return nullptr;
  const VarDecl *Def = &Array;
  const Expr *Init = Array.getAnyInitializer(Def);
  const auto *List = Init ? dyn_cast<InitListExpr>(Init->IgnoreImplicit()) : nullptr;
  if (List && List->isSyntacticForm() && List->getSemanticForm())
    List = List->getSemanticForm();
  return List && hasStableValue(Array) ? List : nullptr;
}

// arr[i] of a constant array (or one never modified) with a braced
// initializer: the element when i is known, else one of the elements i can
// reach (a set a variant picks from).
IVal ValueEvaluatorImpl::evalSubscript(const ArraySubscriptExpr *E) {
  QualType T = E->getType();
  const auto *Ref = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *AT = VD ? Ctx.getAsConstantArrayType(VD->getType()) : nullptr;
  if (!AT || !T->isIntegralOrEnumerationType())
    return unknownOf(T);
  const InitListExpr *List = stableArrayElements(*VD);
  if (!List) {
    recordReason("'" + VD->getName().str() + "' is an array whose elements can change");
    return unknownOf(T);
  }
  const uint64_t Size = AT->getSize().getZExtValue();
  // The index's own reason for being unknown ("'j' is modified after its
  // definition") is not the element's: a sweep over the array says which
  // array it reads instead. Its choices and target dependence still count.
  EvaluationTrace IndexTrace;
  EvaluationTrace *Outer = Trace;
  Trace = &IndexTrace;
  IVal Index = evalInt(E->getIdx());
  Trace = Outer;
  if (Trace && IndexTrace.infeasible)
    Trace->infeasible = true;
  EvaluationTrace IndexLearnt = IndexTrace;
  IndexLearnt.unknownReason.clear();
  replay(IndexLearnt);
  const i128 Lo = std::max<i128>(Index.lo, 0), Hi = std::min<i128>(Index.hi, i128(Size) - 1);
  if (Size == 0 || Lo > Hi || Hi - Lo >= 256) {
    recordReason(IndexTrace.unknownReason);
    return unknownOf(T);
  }
  const unsigned Saved = Frame;
  Frame = frameOf(*VD);
  std::vector<i128> Members;
  std::vector<ValueDerivation> Steps = Index.derivation;
  bool AllExact = true;
  for (i128 I = Lo; I <= Hi && AllExact; ++I) {
    const Expr *Element = I < List->getNumInits() ? List->getInit(unsigned(I)) : List->getArrayFiller();
    IVal V = Element ? castTo(evalInt(Element), T) : unknownOf(T);
    AllExact = V.exact();
    Members.push_back(V.lo);
  }
  Frame = Saved;
  if (!AllExact)
    return unknownOf(T);
  IVal Hull = membersHull(Members);
  Hull.derivation = std::move(Steps);
  const std::string What = "'" + spellingOf(E) + "'";
  if (Members.size() == 1) {
    Hull.derivation.push_back(
        {VD->getLocation(), What + " is " + describe(Hull) + ": '" + VD->getName().str() + "' is defined here"});
    return Hull;
  }
  // Several elements: a sweep over the array (benchmark code tries each
  // block size in turn). Each element is a variant of its own (the launch is
  // run with every one of them), picked in the frame the read is written in;
  // the trace names the array, because each element is deliberate: a finding
  // about the worst of them would not be worth acting on (the launch checks
  // say nothing about a swept value, docs/launch-analysis.md).
  const unsigned ReadFrame = Frame;
  Hull.derivation.push_back({VD->getLocation(), What + " is one of the " + std::to_string(Members.size()) + " values " +
                                                    describe(Hull) + " of '" + VD->getName().str() +
                                                    "', defined here"});
  if (ReadFrame == NoFrame || !Context.picks.count({E, ReadFrame}))
    recordReason(What + " is one of " + std::to_string(Members.size()) + " elements of '" + VD->getName().str() + "'");
  else if (Trace && !Trace->sweptArray)
    Trace->sweptArray = VD; // this variant takes one element
  return pickMember(E, Members, Hull, E->getExprLoc(), What, ReadFrame);
}

} // namespace clang::tidy::occlint
