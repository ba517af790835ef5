// Folding integer expressions: the walk over an integer-typed expression
// (parentheses, casts, unary and binary operators, ?:, min/max calls) that
// turns each node into an interval, with clang's constant folding as a fallback.
#include "values/ValueEvaluatorInternals.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace clang::tidy::occlint {

namespace value_evaluator_detail {

IVal hullOf(const IVal &A, const IVal &B) {
  IVal R;
  R.derivation = mergeDerivations(A.derivation, B.derivation);
  R.lo = std::min(A.lo, B.lo);
  R.hi = std::max(A.hi, B.hi);
  R.loKnown = A.lo < B.lo ? A.loKnown : B.lo < A.lo ? B.loKnown : (A.loKnown || B.loKnown);
  R.hiKnown = A.hi > B.hi ? A.hiKnown : B.hi > A.hi ? B.hiKnown : (A.hiKnown || B.hiKnown);
  return R;
}

IVal membersHull(std::vector<i128> &Members) {
  std::sort(Members.begin(), Members.end());
  Members.erase(std::unique(Members.begin(), Members.end()), Members.end());
  IVal R;
  R.lo = Members.front();
  R.hi = Members.back();
  R.loKnown = R.hiKnown = true;
  return R;
}

} // namespace value_evaluator_detail

std::optional<i128> ValueEvaluatorImpl::fold(const Expr *E) const {
  if (!E || E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return std::nullopt;
  if (!E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.isSigned()) {
    if (V.getSignificantBits() > 64)
      return std::nullopt;
    return static_cast<i128>(V.getSExtValue());
  }
  if (V.getActiveBits() > 64)
    return std::nullopt;
  return static_cast<i128>(V.getZExtValue());
}

IVal ValueEvaluatorImpl::evalInt(const Expr *E) {
  if (!E)
    return IVal{};
  QualType T = E->getType();
  std::string Spelling = spellingOf(E);
  if (E->isValueDependent() || E->isTypeDependent() || E->containsErrors())
    return unknownOf(T, Spelling);
  if (Depth >= MaxDepth || Steps >= MaxSteps) {
    ++Truncations;
    return unknownOf(T, Spelling);
  }
  ++Depth;
  ++Steps;
  IVal R = evalIntNode(E);
  --Depth;
  if (!R.exact())
    if (std::optional<i128> V = fold(E)) {
      R.lo = R.hi = *V;
      R.loKnown = R.hiKnown = true;
    }
  if (rangeOf(T).valid)
    R = normalize(std::move(R), T);
  if (R.exact())
    R.spelling.clear();
  else if (!Spelling.empty())
    R.spelling = Spelling;
  if (!isa<ImplicitCastExpr, FullExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, CXXDefaultArgExpr,
           CXXDefaultInitExpr, SubstNonTypeTemplateParmExpr, OpaqueValueExpr>(E))
    addMacroNotes(E, R);
  return R;
}

IVal ValueEvaluatorImpl::evalIntNode(const Expr *E) {
  QualType T = E->getType();
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return evalInt(P->getSubExpr());
  if (const auto *F = dyn_cast<FullExpr>(E))
    return evalInt(F->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return evalInt(M->getSubExpr());
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return evalInt(B->getSubExpr());
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return evalInt(D->getExpr());
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
    return evalInt(D->getExpr());
  if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
    return O->getSourceExpr() ? evalInt(O->getSourceExpr()) : unknownOf(T);
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
    IVal R = evalInt(S->getReplacement());
    if (R.informative())
      if (const NonTypeTemplateParmDecl *P = S->getParameter())
        if (!P->getName().empty())
          R.derivation = mergeDerivations(
              {{P->getLocation(), "'" + P->getName().str() + "' is defined here as " + describe(R)}}, R.derivation);
    return R;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E))
    return IL->getNumInits() == 1 && T->isIntegralOrEnumerationType() ? evalInt(IL->getInit(0)) : unknownOf(T);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evalIntCast(Cast);
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(D);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return evalUnary(U);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return evalBinary(B);
  if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
    return evalConditional(Cond);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return evalMember(M);
  if (const auto *S = dyn_cast<ArraySubscriptExpr>(E))
    return evalSubscript(S);
  return unknownOf(T);
}

IVal ValueEvaluatorImpl::evalIntCast(const CastExpr *E) {
  const Expr *Sub = E->getSubExpr();
  QualType T = E->getType();
  switch (E->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
    if (!Sub->getType()->isIntegralOrEnumerationType())
      return unknownOf(T);
    return castTo(evalInt(Sub), T);
  default:
    return unknownOf(T); // floating point, pointers, ...: only a constant fold
  }
}

IVal ValueEvaluatorImpl::evalUnary(const UnaryOperator *E) {
  QualType T = E->getType();
  const Expr *Sub = E->getSubExpr();
  switch (E->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return evalInt(Sub);
  case UO_Minus: {
    IVal A = evalInt(Sub);
    IVal R = A;
    R.lo = -A.hi;
    R.hi = -A.lo;
    R.loKnown = A.hiKnown;
    R.hiKnown = A.loKnown;
    return R;
  }
  case UO_Not: {
    IVal A = evalInt(Sub);
    TypeRange TR = rangeOf(T);
    if (!TR.valid)
      return unknownOf(T);
    IVal R = A;
    if (TR.isSigned) { // ~x == -x - 1
      R.lo = -A.hi - 1;
      R.hi = -A.lo - 1;
    } else { // ~x == max - x
      R.lo = TR.max - A.hi;
      R.hi = TR.max - A.lo;
    }
    R.loKnown = A.hiKnown;
    R.hiKnown = A.loKnown;
    return R;
  }
  case UO_LNot: {
    IVal A = evalInt(Sub);
    IVal R = unknownOf(T);
    R.derivation = A.derivation;
    if (A.exact()) {
      R.lo = R.hi = A.lo == 0;
    } else if (A.lo > 0 || A.hi < 0) {
      R.lo = R.hi = 0;
    } else {
      R.lo = 0;
      R.hi = 1;
    }
    R.loKnown = R.hiKnown = R.exact();
    return R;
  }
  default:
    return unknownOf(T); // ++, --, *, &: not a value the source pins down
  }
}

IVal ValueEvaluatorImpl::evalBinary(const BinaryOperator *E) {
  QualType T = E->getType();
  BinaryOperatorKind Op = E->getOpcode();
  if (Op == BO_Comma)
    return evalInt(E->getRHS());
  if (E->isAssignmentOp() || Op == BO_Cmp || Op == BO_PtrMemD || Op == BO_PtrMemI)
    return unknownOf(T);
  if (!E->getLHS()->getType()->isIntegralOrEnumerationType() || !E->getRHS()->getType()->isIntegralOrEnumerationType())
    return unknownOf(T);
  IVal A = evalInt(E->getLHS());
  if (Op == BO_LAnd || Op == BO_LOr) {
    IVal R = exactOf(0);
    R.derivation = A.derivation;
    bool AFalse = A.exact() && A.lo == 0, ATrue = A.lo > 0 || A.hi < 0;
    if (Op == BO_LAnd && AFalse)
      return R;
    if (Op == BO_LOr && ATrue)
      return [&] {
        R.lo = R.hi = 1;
        return R;
      }();
    IVal B = evalInt(E->getRHS());
    R.derivation = mergeDerivations(A.derivation, B.derivation);
    bool BFalse = B.exact() && B.lo == 0, BTrue = B.lo > 0 || B.hi < 0;
    bool Value;
    if (Op == BO_LAnd && (ATrue && BTrue))
      Value = true;
    else if (Op == BO_LAnd && BFalse)
      Value = false;
    else if (Op == BO_LOr && AFalse && BFalse)
      Value = false;
    else if (Op == BO_LOr && BTrue)
      Value = true;
    else {
      R.lo = 0;
      R.hi = 1;
      R.loKnown = R.hiKnown = false;
      return R;
    }
    R.lo = R.hi = Value;
    return R;
  }
  IVal B = evalInt(E->getRHS());
  if (E->isComparisonOp()) {
    IVal R = exactOf(0);
    R.derivation = mergeDerivations(A.derivation, B.derivation);
    std::optional<bool> V;
    switch (Op) {
    case BO_LT:
      if (A.hi < B.lo)
        V = true;
      else if (A.lo >= B.hi)
        V = false;
      break;
    case BO_GT:
      if (A.lo > B.hi)
        V = true;
      else if (A.hi <= B.lo)
        V = false;
      break;
    case BO_LE:
      if (A.hi <= B.lo)
        V = true;
      else if (A.lo > B.hi)
        V = false;
      break;
    case BO_GE:
      if (A.lo >= B.hi)
        V = true;
      else if (A.hi < B.lo)
        V = false;
      break;
    case BO_EQ:
      if (A.exact() && B.exact() && A.lo == B.lo)
        V = true;
      else if (A.hi < B.lo || B.hi < A.lo)
        V = false;
      break;
    case BO_NE:
      if (A.exact() && B.exact() && A.lo == B.lo)
        V = false;
      else if (A.hi < B.lo || B.hi < A.lo)
        V = true;
      break;
    default:
      break;
    }
    if (V) {
      R.lo = R.hi = *V;
    } else {
      R.lo = 0;
      R.hi = 1;
      R.loKnown = R.hiKnown = false;
    }
    return R;
  }
  return arith(Op, A, B, E->getLHS()->getType());
}

IVal ValueEvaluatorImpl::evalConditional(const AbstractConditionalOperator *E) {
  IVal Cond = evalInt(E->getCond());
  bool CondTrue = Cond.lo > 0 || Cond.hi < 0, CondFalse = Cond.exact() && Cond.lo == 0;
  if (CondTrue || CondFalse) {
    IVal R = evalInt(CondTrue ? E->getTrueExpr() : E->getFalseExpr());
    R.derivation = mergeDerivations(Cond.derivation, R.derivation);
    return R;
  }
  IVal A = evalInt(E->getTrueExpr());
  IVal B = evalInt(E->getFalseExpr());
  // Two constants (`big ? 256 : 128`): one of the two, each a variant of its
  // own, as a case label among several is. Not inside a helper evaluated at
  // its call: two calls in one frame would share the pick.
  if (Frame != NoFrame && Helpers.empty() && A.exact() && B.exact() && A.lo != B.lo) {
    std::vector<i128> Both{A.lo, B.lo};
    IVal Hull = membersHull(Both);
    Hull.derivation = Cond.derivation;
    IVal R = pickMember(conditionKey(*E), {A.lo, B.lo}, Hull, E->getExprLoc(), "'" + spellingOf(E) + "'", Frame);
    if (R.exact())
      R.derivation = mergeDerivations(R.derivation, R.lo == A.lo ? A.derivation : B.derivation);
    return R;
  }
  IVal R = hullOf(A, B);
  R.derivation = mergeDerivations(Cond.derivation, R.derivation);
  return R;
}

// A condition reads the same value wherever it is written when it reads
// only constants and variables that keep their value (no calls, no writes).
bool ValueEvaluatorImpl::readsOnlyStableValues(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(Ref->getDecl()))
      return true;
    if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      return !P->getType()->isReferenceType() && !P->getType().isVolatileQualified() && !isMutated(*P);
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    return VD && hasStableValue(*VD);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && readsOnlyStableValues(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && !B->isCommaOp() && readsOnlyStableValues(B->getLHS()) &&
           readsOnlyStableValues(B->getRHS());
  return false;
}

// The key a ?: picks its arm by: the first condition written the same way
// when its value cannot differ (`big ? 256 : 128` and `big ? 8 : 16` in one
// function take the same arm in a variant, never 256 with 16), else the
// expression itself. Arm 0 is the true arm.
const void *ValueEvaluatorImpl::conditionKey(const AbstractConditionalOperator &E) {
  const Expr *Cond = E.getCond()->IgnoreParenImpCasts();
  if (!readsOnlyStableValues(Cond))
    return &E;
  llvm::FoldingSetNodeID ID;
  Cond->Profile(ID, Ctx, /*Canonical=*/true);
  auto &Seen = C.conditionKeys[ID.ComputeHash()];
  for (const auto &[Profile, Key] : Seen)
    if (Profile == ID)
      return Key;
  Seen.emplace_back(ID, Cond);
  return Cond;
}

// min/max: std::min, std::max, ::min, ::max, CUDA's overloads (and its
// umin/umax/llmin/llmax/ullmin/ullmax); other calls: a helper of one return
// statement (ValueEvaluatorHelpers.cpp), else a value the source does not pin.
IVal ValueEvaluatorImpl::evalCall(const CallExpr *E) {
  QualType T = E->getType();
  const FunctionDecl *FD = E->getDirectCallee();
  auto Opaque = [&] {
    if (!fold(E))
      recordReason(FD && FD->getDeclName().isIdentifier() ? "the value returned by '" + FD->getName().str() + "'"
                                                          : "the value of a call");
    return unknownOf(T);
  };
  if (!FD || !FD->getDeclName().isIdentifier() || !T->isIntegralOrEnumerationType())
    return Opaque();
  StringRef Name = FD->getName();
  // std::forward and std::move hand on their argument (a template passing
  // its arguments to the function it was given).
  if (FD->isInStdNamespace() && (Name == "forward" || Name == "move") && E->getNumArgs() == 1)
    return evalInt(E->getArg(0));
  bool IsMin = Name == "min" || Name == "umin" || Name == "llmin" || Name == "ullmin";
  bool IsMax = Name == "max" || Name == "umax" || Name == "llmax" || Name == "ullmax";
  if ((!IsMin && !IsMax) || E->getNumArgs() != 2) {
    if (std::optional<IVal> Returned = evalHelperCall(E))
      return *Returned;
    return Opaque();
  }
  const Expr *Args[2] = {E->getArg(0), E->getArg(1)};
  if (!Args[0]->getType()->isIntegralOrEnumerationType() || !Args[1]->getType()->isIntegralOrEnumerationType())
    return unknownOf(T);
  // Both arguments are compared in the result type (CUDA's min(int, unsigned)
  // compares as unsigned).
  IVal A = castTo(evalInt(Args[0]), T);
  IVal B = castTo(evalInt(Args[1]), T);
  IVal R;
  R.derivation = mergeDerivations(A.derivation, B.derivation);
  auto Pick = [](i128 X, bool XK, i128 Y, bool YK, bool Smaller, bool &Known) {
    if (X == Y) {
      Known = XK || YK;
      return X;
    }
    bool TakeX = Smaller ? X < Y : X > Y;
    Known = TakeX ? XK : YK;
    return TakeX ? X : Y;
  };
  R.lo = Pick(A.lo, A.loKnown, B.lo, B.loKnown, IsMin, R.loKnown);
  R.hi = Pick(A.hi, A.hiKnown, B.hi, B.hiKnown, IsMin, R.hiKnown);
  return R;
}

} // namespace clang::tidy::occlint
