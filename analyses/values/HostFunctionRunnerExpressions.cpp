// The expressions a run evaluates: C++'s integer operators, conversions,
// assignments to the run's locals (HostFunctionRunnerInternals.h).
#include "values/HostFunctionRunnerInternals.h"

namespace clang::tidy::occlint::host_runner_detail {

std::optional<i128> Runner::eval(const Expr *E) {
  if (!step())
    return std::nullopt;
  if (E->isValueDependent())
    return stop("it depends on a template parameter");
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return eval(P->getSubExpr());
  if (const auto *C = dyn_cast<ConstantExpr>(E)) {
    if (C->hasAPValueResult() && C->getAPValueResult().isInt())
      return fromAPSInt(C->getResultAsAPSInt());
    return eval(C->getSubExpr());
  }
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return eval(S->getReplacement());
  if (const auto *W = dyn_cast<ExprWithCleanups>(E))
    return eval(W->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(M->getSubExpr());
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(D->getExpr());
  if (const auto *L = dyn_cast<IntegerLiteral>(E))
    return fromAPSInt(llvm::APSInt(L->getValue(), !L->getType()->isSignedIntegerType()));
  if (const auto *L = dyn_cast<CharacterLiteral>(E))
    return convert(L->getValue(), L->getType());
  if (const auto *L = dyn_cast<CXXBoolLiteralExpr>(E))
    return static_cast<i128>(L->getValue());
  if (const auto *R = dyn_cast<DeclRefExpr>(E))
    return read(R);
  if (const auto *C = dyn_cast<CastExpr>(E))
    return evalCast(C);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return evalUnary(U);
  if (const auto *A = dyn_cast<CompoundAssignOperator>(E))
    return evalCompoundAssign(A);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return evalBinary(B);
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    std::optional<i128> Cond = eval(C->getCond());
    if (!Cond)
      return std::nullopt;
    return eval(*Cond ? C->getTrueExpr() : C->getFalseExpr());
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (std::optional<i128> V = folded(E))
    return V;
  return stop(std::string("it evaluates a ") + E->getStmtClassName());
}

std::optional<i128> Runner::evalCast(const CastExpr *E) {
  switch (E->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return eval(E->getSubExpr());
  case CK_ToVoid:
    if (!eval(E->getSubExpr()))
      return std::nullopt;
    return 0;
  case CK_IntegralCast:
  case CK_IntegralToBoolean: {
    std::optional<i128> V = eval(E->getSubExpr());
    return V ? convert(*V, E->getType()) : std::nullopt;
  }
  case CK_BooleanToSignedIntegral: {
    std::optional<i128> V = eval(E->getSubExpr());
    return V ? convert(*V ? -1 : 0, E->getType()) : std::nullopt;
  }
  default:
    if (std::optional<i128> V = folded(E))
      return V;
    return stop(std::string("it converts with a ") + E->getCastKindName() + " cast");
  }
}

std::optional<i128> Runner::evalUnary(const UnaryOperator *E) {
  if (E->isIncrementDecrementOp()) {
    std::optional<i128> *Slot = slotOf(E->getSubExpr());
    if (!Slot)
      return stop("it increments something other than a local integer");
    if (!*Slot)
      return stop("it increments a variable before setting it");
    QualType T = E->getSubExpr()->getType();
    if (intType(T).isBool)
      return stop("it increments a bool");
    i128 Old = **Slot;
    std::optional<i128> New = arithmeticResult(Old + (E->isIncrementOp() ? 1 : -1), T);
    if (!New)
      return std::nullopt;
    *Slot = *New;
    return E->isPrefix() ? *New : Old;
  }
  std::optional<i128> V = eval(E->getSubExpr());
  if (!V)
    return std::nullopt;
  switch (E->getOpcode()) {
  case UO_Plus:
    return V;
  case UO_Minus:
    return arithmeticResult(-*V, E->getType());
  case UO_Not:
    return convert(~*V, E->getType());
  case UO_LNot:
    return static_cast<i128>(*V == 0);
  default:
    return stop(std::string("it uses the operator ") + UnaryOperator::getOpcodeStr(E->getOpcode()).str());
  }
}

/// Op on two values already converted to their operands' types; the result
/// in ResultType, or a stop (division by zero, a shift out of range,
/// signed overflow).
std::optional<i128> Runner::arith(BinaryOperatorKind Op, i128 A, i128 B, QualType LHSType, QualType ResultType) {
  switch (Op) {
  case BO_Mul:
    return arithmeticResult(A * B, ResultType);
  case BO_Add:
    return arithmeticResult(A + B, ResultType);
  case BO_Sub:
    return arithmeticResult(A - B, ResultType);
  case BO_Div:
  case BO_Rem:
    if (B == 0)
      return stop("it divides by zero");
    return arithmeticResult(Op == BO_Div ? A / B : A % B, ResultType);
  case BO_Shl:
  case BO_Shr: {
    IntType L = intType(LHSType);
    if (!L.valid || B < 0 || B >= static_cast<i128>(L.width))
      return stop("it shifts by a count out of range");
    if (Op == BO_Shr)
      return convert(A >> static_cast<int>(B), ResultType);
    if (L.isSigned && A < 0)
      return stop("it shifts a negative value left");
    return arithmeticResult(A << static_cast<int>(B), ResultType);
  }
  case BO_And:
    return convert(A & B, ResultType);
  case BO_Or:
    return convert(A | B, ResultType);
  case BO_Xor:
    return convert(A ^ B, ResultType);
  case BO_LT:
    return static_cast<i128>(A < B);
  case BO_GT:
    return static_cast<i128>(A > B);
  case BO_LE:
    return static_cast<i128>(A <= B);
  case BO_GE:
    return static_cast<i128>(A >= B);
  case BO_EQ:
    return static_cast<i128>(A == B);
  case BO_NE:
    return static_cast<i128>(A != B);
  default:
    return stop(std::string("it uses the operator ") + BinaryOperator::getOpcodeStr(Op).str());
  }
}

std::optional<i128> Runner::evalBinary(const BinaryOperator *E) {
  BinaryOperatorKind Op = E->getOpcode();
  if (Op == BO_LAnd || Op == BO_LOr) {
    std::optional<i128> L = eval(E->getLHS());
    if (!L)
      return std::nullopt;
    if ((Op == BO_LAnd) != (*L != 0))
      return static_cast<i128>(*L != 0);
    std::optional<i128> R = eval(E->getRHS());
    return R ? std::optional<i128>(*R != 0) : std::nullopt;
  }
  if (Op == BO_Comma) {
    if (!eval(E->getLHS()))
      return std::nullopt;
    return eval(E->getRHS());
  }
  if (Op == BO_Assign) {
    std::optional<i128> *Slot = slotOf(E->getLHS());
    if (!Slot)
      return stop("it assigns to something other than a local integer");
    std::optional<i128> V = eval(E->getRHS());
    if (!V)
      return std::nullopt;
    std::optional<i128> Stored = convert(*V, E->getLHS()->getType());
    if (Stored)
      *Slot = *Stored;
    return Stored;
  }
  std::optional<i128> L = eval(E->getLHS());
  if (!L)
    return std::nullopt;
  std::optional<i128> R = eval(E->getRHS());
  if (!R)
    return std::nullopt;
  return arith(Op, *L, *R, E->getLHS()->getType(), E->getType());
}

std::optional<i128> Runner::evalCompoundAssign(const CompoundAssignOperator *E) {
  std::optional<i128> *Slot = slotOf(E->getLHS());
  if (!Slot)
    return stop("it assigns to something other than a local integer");
  std::optional<i128> R = eval(E->getRHS());
  if (!R)
    return std::nullopt;
  if (!*Slot)
    return stop("it updates a variable before setting it");
  std::optional<i128> L = convert(**Slot, E->getComputationLHSType());
  if (!L)
    return std::nullopt;
  std::optional<i128> V = arith(BinaryOperator::getOpForCompoundAssignment(E->getOpcode()), *L, *R,
                                E->getComputationLHSType(), E->getComputationResultType());
  if (!V)
    return std::nullopt;
  std::optional<i128> Stored = convert(*V, E->getLHS()->getType());
  if (Stored)
    *Slot = *Stored;
  return Stored;
}

} // namespace clang::tidy::occlint::host_runner_detail
