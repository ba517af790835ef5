// A parameter of a lambda that the launch's own function holds in a local
// variable and calls:
//
//   void run(float *p) {
//     auto launch = [&](int threads) { fill<<<264, threads>>>(p); };
//     launch(128);
//     launch(256);
//   }
//
// The launch is read in its enclosing function (the walk does not make a
// lambda's body a function of its own), so its parameter is bound to the
// arguments of the lambda's calls in that function, each evaluated where the
// call is: one value, or one of a set a variant picks from (one variant per
// call, every parameter of the lambda taken from the same call). Only when
// no copy of the closure leaves the function: its variable is used for
// nothing but calls (not copied, captured by copy, passed on or converted),
// so the calls seen are all the calls the lambda gets.
#include "values/ValueEvaluatorInternals.h"

#include "ast/AstWalker.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

/// `launch(128)`: a call of the closure's operator(); its first argument is
/// the closure object.
const CXXMethodDecl *lambdaCallee(const CallExpr &Call) {
  const auto *Operator = dyn_cast<CXXOperatorCallExpr>(&Call);
  const auto *Method = Operator ? dyn_cast_or_null<CXXMethodDecl>(Operator->getDirectCallee()) : nullptr;
  return Method && Operator->getOperator() == OO_Call && Method->getParent()->isLambda() &&
                 !Method->isExplicitObjectMemberFunction()
             ? Method
             : nullptr;
}

/// The calls of one lambda in a function body, through the one local
/// variable that holds it.
class LambdaCallFinder : public AstWalker {
public:
  explicit LambdaCallFinder(const CXXRecordDecl &Closure) : Closure(Closure) {}

  bool visitDecl(Decl *D) override {
    if (const auto *V = dyn_cast<VarDecl>(D))
      visitVariable(*V);
    return true;
  }
  bool visitStmt(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      visitCall(*Call);
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      References.push_back(Ref);
    else if (const auto *L = dyn_cast<LambdaExpr>(S))
      visitLambda(*L);
    return true;
  }

  /// The calls, when they are all the lambda's calls; nullopt otherwise.
  std::optional<std::vector<const CallExpr *>> finish() const {
    if (Escapes || !Holder)
      return std::nullopt;
    for (const DeclRefExpr *Ref : References)
      if (Ref->getDecl() == Holder && std::find(CallObjects.begin(), CallObjects.end(), Ref) == CallObjects.end())
        return std::nullopt; // copied, passed on, converted, its address taken
    for (const DeclRefExpr *Object : CallObjects)
      if (Object->getDecl() != Holder)
        return std::nullopt;
    return Calls;
  }

private:
  void visitVariable(const VarDecl &V) {
    const Expr *Init = V.getInit();
    const auto *Lambda = Init ? dyn_cast<LambdaExpr>(Init->IgnoreImplicit()) : nullptr;
    if (Lambda && Lambda->getLambdaClass() == &Closure) {
      if (Holder || !V.isLocalVarDecl() || V.getType()->isReferenceType())
        Escapes = true;
      Holder = &V;
    }
  }
  void visitCall(const CallExpr &Call) {
    const CXXMethodDecl *Method = lambdaCallee(Call);
    if (Method && Method->getParent() == &Closure) {
      const auto *Object = dyn_cast<DeclRefExpr>(Call.getArg(0)->IgnoreParenImpCasts());
      if (!Object)
        Escapes = true; // called on a temporary or through a copy
      else
        CallObjects.push_back(Object);
      Calls.push_back(&Call);
    }
  }
  void visitLambda(const LambdaExpr &L) {
    // A lambda capturing the variable by copy holds a copy of the closure.
    for (const LambdaCapture &Capture : L.captures())
      if (Capture.capturesVariable() && Capture.getCaptureKind() == LCK_ByCopy && Holder &&
          Capture.getCapturedVar() == Holder)
        Escapes = true;
  }

  const CXXRecordDecl &Closure;
  const VarDecl *Holder = nullptr;
  bool Escapes = false;
  std::vector<const CallExpr *> Calls;
  std::vector<const DeclRefExpr *> CallObjects;
  std::vector<const DeclRefExpr *> References;
};

} // namespace

const std::optional<std::vector<const CallExpr *>> &ValueEvaluatorImpl::lambdaCallsIn(const FunctionDecl &Enclosing,
                                                                                      const CXXRecordDecl &Closure) {
  auto [It, New] = C.lambdaCalls.try_emplace(&Closure);
  if (New && Enclosing.getBody()) {
    LambdaCallFinder Finder(Closure);
    Finder.traverseStmt(Enclosing.getBody());
    It->second = Finder.finish();
  }
  return It->second;
}

std::optional<IVal> ValueEvaluatorImpl::evalLambdaParameter(const ParmVarDecl &P, QualType UseType, bool WrittenAfter) {
  const auto *Method = dyn_cast<CXXMethodDecl>(P.getDeclContext());
  if (!Method || !Method->getParent()->isLambda() || Frame == NoFrame || Frame >= Context.frames.size())
    return std::nullopt;
  const CXXRecordDecl &Closure = *Method->getParent();
  const FunctionDecl *Current = Context.frames[Frame].function;
  const auto *Enclosing = dyn_cast_or_null<FunctionDecl>(Closure.getParentFunctionOrMethod());
  if (!Current || !Enclosing || Enclosing->getCanonicalDecl() != Current->getCanonicalDecl())
    return std::nullopt; // a lambda in a lambda: its calls are not in this frame's function
  const std::string Name = P.getName().str();
  const std::string Of = "parameter '" + Name + "' of the lambda at " + where(Closure.getLocation());
  if (P.getType()->isReferenceType() || P.getType().isVolatileQualified() || (!WrittenAfter && isMutated(P))) {
    recordReason(Of + (P.getType()->isReferenceType() ? ", a reference" : ", which the lambda modifies"));
    return unknownOf(UseType, Name);
  }
  const std::optional<std::vector<const CallExpr *>> &Calls = lambdaCallsIn(*Enclosing, Closure);
  if (!Calls) {
    recordReason(Of + ": the lambda is not only called where it is defined (copied, passed on or converted)");
    return unknownOf(UseType, Name);
  }
  if (Calls->empty() || Calls->size() > MaxLambdaCalls) {
    recordReason(Of + (Calls->empty() ? ": the lambda is never called"
                                      : ": the lambda is called from " + std::to_string(Calls->size()) +
                                            " places; at most " + std::to_string(MaxLambdaCalls) + " are followed"));
    return unknownOf(UseType, Name);
  }
  const QualType Type = P.getType().getNonReferenceType();
  std::vector<IVal> Values;
  for (const CallExpr *Call : *Calls) {
    const unsigned Index = P.getFunctionScopeIndex() + 1; // after the closure object
    if (Index >= Call->getNumArgs() || isa<CXXDefaultArgExpr>(Call->getArg(Index))) {
      recordReason(Of + ": a call at " + where(Call->getBeginLoc()) + " leaves it to its default");
      return unknownOf(UseType, Name);
    }
    const Expr *Arg = Call->getArg(Index);
    IVal V = castTo(evalInt(Arg), Type);
    V.derivation = mergeDerivations(V.derivation, {{SM.getExpansionLoc(Arg->getBeginLoc()),
                                                    "the lambda is called here with '" + Name + "' = " + describe(V)}});
    Values.push_back(std::move(V));
  }
  const bool AllExact = std::all_of(Values.begin(), Values.end(), [](const IVal &V) { return V.exact(); });
  if (!AllExact) {
    for (size_t I = 0; I < Values.size(); ++I)
      if (!Values[I].exact()) {
        recordReason(Of + ", called with a runtime value at " + where(Calls->at(I)->getBeginLoc()));
        break;
      }
    IVal Hull = Values.front();
    for (size_t I = 1; I < Values.size(); ++I)
      Hull = hullOf(Hull, Values[I]);
    Hull.spelling = Name;
    return castTo(std::move(Hull), UseType);
  }
  if (Values.size() == 1)
    return castTo(std::move(Values.front()), UseType);
  // One member per call, in the calls' order: every parameter of the lambda
  // read in one variant takes the same call's argument (the pick's key is
  // the closure, its index the call).
  std::vector<i128> PerCall, Sorted;
  for (const IVal &V : Values)
    PerCall.push_back(V.lo);
  Sorted = PerCall;
  IVal Hull = membersHull(Sorted);
  IVal R = pickMember(&Closure, PerCall, Hull, SM.getExpansionLoc(P.getLocation()), "'" + Name + "'", Frame);
  if (R.exact())
    for (const IVal &V : Values)
      if (V.lo == R.lo) {
        R.derivation = mergeDerivations(V.derivation, R.derivation);
        break;
      }
  return castTo(std::move(R), UseType);
}

} // namespace clang::tidy::occlint
