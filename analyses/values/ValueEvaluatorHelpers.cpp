// Small helpers evaluated at their call: a function whose body is one
// `return expression;` (ceil_div, div_up, blocks_for: the common shape of
// grid arithmetic in host code) returns that expression with its parameters
// bound to the call's arguments. The arguments are evaluated where the call
// is (its frame, guards and variant); the body is read in the same
// evaluation, so a parameter read inside it takes its argument's value.
//
// Only what is certain: the body must be the function's one definition, the
// parameters values or references to const, and the helper not already being
// evaluated (recursion). A helper of more statements (loops, branches, a
// switch), or a recursive one, is run when every argument is exact
// (HostFunctionRunner.h). Anything else stays "the value returned by 'f'".
// A helper of one return statement that returns a dim3 is read the same way.
#include "values/HostFunctionRunner.h"
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

/// The returned expression when FD is `{ return E; }`, else null.
const Expr *singleReturn(const FunctionDecl &FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

/// A parameter whose value is its argument's: by value, or a reference to a
/// non-volatile const (the helper cannot change what it refers to).
bool readsArgumentValue(const ParmVarDecl &P) {
  QualType T = P.getType();
  if (const auto *Ref = T->getAs<ReferenceType>()) {
    QualType Pointee = Ref->getPointeeType();
    return Pointee.isConstQualified() && !Pointee.isVolatileQualified();
  }
  return !T.isVolatileQualified();
}

} // namespace

const FunctionDecl *ValueEvaluatorImpl::helperDefinition(const CallExpr *E) const {
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(E) || isa<CXXMemberCallExpr>(E))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def || Def->isVariadic() || Def->getNumParams() != E->getNumArgs())
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Def); Method && !Method->isStatic())
    return nullptr;
  return Def;
}

bool ValueEvaluatorImpl::helperBeingEvaluated(const FunctionDecl &Def) const {
  return std::any_of(Helpers.begin(), Helpers.end(),
                     [&](const HelperFrame &H) { return H.function->getCanonicalDecl() == Def.getCanonicalDecl(); });
}

std::optional<std::vector<ValueDerivation>> ValueEvaluatorImpl::pushHelperArguments(const CallExpr *E,
                                                                                    const FunctionDecl &Def) {
  for (const ParmVarDecl *P : Def.parameters())
    if (!readsArgumentValue(*P) || !P->getType().getNonReferenceType()->isIntegralOrEnumerationType())
      return std::nullopt;
  HelperFrame Frame{&Def, {}};
  std::vector<ValueDerivation> Steps;
  for (unsigned I = 0; I < Def.getNumParams(); ++I) {
    const ParmVarDecl *P = Def.getParamDecl(I);
    IVal Arg = castTo(evalInt(E->getArg(I)), P->getType().getNonReferenceType());
    Steps = mergeDerivations(Steps, Arg.derivation);
    Frame.arguments.emplace_back(P, std::move(Arg));
  }
  Helpers.push_back(std::move(Frame));
  return Steps;
}

std::optional<IVal> ValueEvaluatorImpl::evalHelperCall(const CallExpr *E) {
  const FunctionDecl *Def = helperDefinition(E);
  if (!Def)
    return std::nullopt;
  const Expr *Returned = singleReturn(*Def);
  if (!Returned || !Returned->getType()->isIntegralOrEnumerationType() || Helpers.size() >= MaxHelperDepth ||
      helperBeingEvaluated(*Def))
    return runHelperCall(E, *Def);
  std::optional<std::vector<ValueDerivation>> Steps = pushHelperArguments(E, *Def);
  if (!Steps)
    return std::nullopt;
  IVal R = evalInt(Returned);
  Helpers.pop_back();
  R.derivation = mergeDerivations(*Steps, R.derivation);
  if (R.exact())
    R.derivation.push_back(
        {SM.getExpansionLoc(E->getBeginLoc()), "'" + Def->getNameAsString() + "' returns " + describe(R) + " here"});
  return R;
}

// `dim3 blockFor(int threads) { return dim3(threads, 1, 1); }`: the same
// rule for a helper that returns a dim3 (one return statement, integer
// parameters); a helper of more statements is not run for a dim3.
std::optional<IDim3> ValueEvaluatorImpl::evalDim3HelperCall(const CallExpr *E) {
  const FunctionDecl *Callee = E->getDirectCallee();
  const std::string Name =
      Callee && Callee->getDeclName().isIdentifier() ? "'" + Callee->getName().str() + "'" : std::string("a call");
  const FunctionDecl *Def = helperDefinition(E);
  const Expr *Returned = Def ? singleReturn(*Def) : nullptr;
  if (!Def || !Returned || Helpers.size() >= MaxHelperDepth || helperBeingEvaluated(*Def)) {
    recordReason("the value returned by " + Name +
                 (Def && !Returned ? ", whose body is not one return statement" : ""));
    return std::nullopt;
  }
  std::optional<std::vector<ValueDerivation>> Steps = pushHelperArguments(E, *Def);
  if (!Steps) {
    recordReason("the value returned by " + Name + ", whose parameters are not all integers");
    return std::nullopt;
  }
  IDim3 R = evalDim3(Returned);
  Helpers.pop_back();
  for (IVal &Component : R.c) {
    Component.derivation = mergeDerivations(*Steps, Component.derivation);
    if (Component.exact())
      Component.derivation.push_back(
          {SM.getExpansionLoc(E->getBeginLoc()), Name + " returns " + describe(Component) + " here"});
  }
  return R;
}

std::optional<IVal> ValueEvaluatorImpl::runHelperCall(const CallExpr *E, const FunctionDecl &Def) {
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  for (const ParmVarDecl *P : Def.parameters())
    if (!readsArgumentValue(*P) || !P->getType().getNonReferenceType()->isIntegralOrEnumerationType())
      return std::nullopt;
  std::vector<i128> Arguments;
  std::vector<ValueDerivation> Steps;
  for (unsigned I = 0; I < Def.getNumParams(); ++I) {
    IVal Arg = castTo(evalInt(E->getArg(I)), Def.getParamDecl(I)->getType().getNonReferenceType());
    if (!Arg.exact())
      return std::nullopt; // the argument's own reason stays the first
    Steps = mergeDerivations(Steps, Arg.derivation);
    Arguments.push_back(Arg.lo);
  }
  const std::string Name = Def.getNameAsString();
  HostRunOutcome Run = runHostFunction(Ctx, Def, Arguments);
  if (!Run.value) {
    recordReason("the value returned by '" + Name + "', which was not run: " + Run.whyNot);
    return std::nullopt;
  }
  IVal R = castTo(exactOf(*Run.value), E->getType());
  R.derivation = std::move(Steps);
  R.derivation.push_back({SM.getExpansionLoc(E->getBeginLoc()), "'" + Name + "' returns " + describe(R) + " here"});
  return R;
}

const IVal *ValueEvaluatorImpl::helperArgument(const ParmVarDecl &P) const {
  for (auto H = Helpers.rbegin(); H != Helpers.rend(); ++H)
    for (const auto &[Param, Value] : H->arguments)
      if (Param == &P)
        return &Value;
  return nullptr;
}

} // namespace clang::tidy::occlint
