// A run's entry, its integers and its calls. Every value has C++'s own
// meaning on integers: it is kept in 128 bits and converted to its type
// after every operation (modulo 2^N, as C++20 converts), and an operation
// whose result does not fit a signed type stops the run (undefined
// behaviour: the program's value is not known either).
#include "values/HostFunctionRunnerInternals.h"

namespace clang::tidy::occlint::host_runner_detail {

std::optional<i128> Runner::call(const FunctionDecl &Def, llvm::ArrayRef<i128> Arguments) {
  if (Calls.size() >= MaxCallDepth)
    return stop("its calls nest deeper than " + std::to_string(MaxCallDepth));
  if (Def.isVariadic() || Def.getNumParams() != Arguments.size())
    return stop("'" + nameOf(Def) + "' takes other arguments");
  // std::min and std::max return a reference to const: its value is read.
  QualType Result = Def.getReturnType().getNonReferenceType();
  if (!Result->isVoidType() && !Result->isIntegralOrEnumerationType())
    return stop("'" + nameOf(Def) + "' does not return an integer");
  Calls.emplace_back();
  for (unsigned I = 0; I < Def.getNumParams(); ++I) {
    const ParmVarDecl *P = Def.getParamDecl(I);
    if (!takesIntegerValue(*P)) {
      Calls.pop_back();
      return stop("'" + nameOf(Def) + "' takes '" + nameOf(*P) + "' by pointer, reference or as a non-integer");
    }
    Calls.back().vars[P] = Arguments[I];
  }
  std::optional<Flow> F = exec(Def.getBody());
  std::optional<i128> Returned = Calls.back().returned;
  Calls.pop_back();
  if (!F)
    return std::nullopt;
  if (Result->isVoidType())
    return 0;
  if (*F != Flow::Return || !Returned)
    return stop("'" + nameOf(Def) + "' ends without returning a value");
  return Returned;
}

std::nullopt_t Runner::stop(std::string Reason) {
  if (Why.empty())
    Why = std::move(Reason);
  return std::nullopt;
}

bool Runner::step() {
  if (!Why.empty())
    return false;
  if (++Steps > MaxSteps) {
    stop("it runs more than " + std::to_string(MaxSteps) + " steps");
    return false;
  }
  return true;
}

Runner::IntType Runner::intType(QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  IntType R;
  if (!T->isIntegralOrEnumerationType())
    return R;
  R.isBool = T->isBooleanType();
  R.width = Ctx.getIntWidth(T);
  R.isSigned = T->isSignedIntegerOrEnumerationType();
  R.valid = R.width > 0 && R.width <= 64;
  return R;
}

/// V converted to T as C++20 converts (modulo 2^N); bool: V != 0.
std::optional<i128> Runner::convert(i128 V, QualType T) {
  IntType I = intType(T);
  if (!I.valid)
    return stop("it computes with a value of type '" + T.getAsString() + "'");
  if (I.isBool)
    return V != 0;
  const i128 Mod = static_cast<i128>(1) << I.width;
  i128 R = V % Mod;
  if (R < 0)
    R += Mod;
  if (I.isSigned && R >= Mod / 2)
    R -= Mod;
  return R;
}

/// The result of an arithmetic operation in T: signed overflow stops.
std::optional<i128> Runner::arithmeticResult(i128 V, QualType T) {
  IntType I = intType(T);
  if (!I.valid)
    return stop("it computes with a value of type '" + T.getAsString() + "'");
  if (I.isSigned && !I.isBool) {
    const i128 Half = static_cast<i128>(1) << (I.width - 1);
    if (V < -Half || V >= Half)
      return stop("a signed operation overflows");
    return V;
  }
  return convert(V, T);
}

std::optional<i128> Runner::fromAPSInt(const llvm::APSInt &V) {
  if ((V.isSigned() && V.getSignificantBits() > 64) || (!V.isSigned() && V.getActiveBits() > 64))
    return stop("a constant wider than 64 bits");
  return V.isSigned() ? static_cast<i128>(V.getSExtValue()) : static_cast<i128>(V.getZExtValue());
}

/// A constant the compiler folds (sizeof, a constexpr global, ...).
std::optional<i128> Runner::folded(const Expr *E) {
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() && E->EvaluateAsInt(R, Ctx))
    return fromAPSInt(R.Val.getInt());
  return std::nullopt;
}

std::optional<i128> *Runner::slotOf(const Expr *LValue) {
  const auto *Ref = dyn_cast<DeclRefExpr>(LValue->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || Calls.empty())
    return nullptr;
  auto It = Calls.back().vars.find(VD);
  return It == Calls.back().vars.end() ? nullptr : &It->second;
}

std::optional<i128> Runner::read(const DeclRefExpr *E) {
  const ValueDecl *D = E->getDecl();
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(D))
    return fromAPSInt(ECD->getInitVal());
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return stop("it reads '" + nameOf(*D) + "'");
  if (std::optional<i128> *Slot = slotOf(E)) {
    if (!*Slot)
      return stop("it reads '" + nameOf(*VD) + "' before setting it");
    return **Slot;
  }
  // Not a local of this run: only a constant usable in constant
  // expressions (constexpr, or const with a constant initializer).
  const VarDecl *Def = nullptr;
  if (VD->getAnyInitializer(Def) && Def && Def->isUsableInConstantExpressions(Ctx))
    if (const APValue *V = Def->evaluateValue(); V && V->isInt())
      return fromAPSInt(V->getInt());
  return stop("it reads '" + nameOf(*VD) + "', which is not a constant");
}

std::optional<i128> Runner::evalCall(const CallExpr *E) {
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(E) || isa<CXXMemberCallExpr>(E))
    return stop("it calls a function through a pointer, an operator or an object");
  std::vector<i128> Arguments;
  const FunctionDecl *Def = nullptr;
  const bool HasBody = Callee->hasBody(Def) && Def;
  for (unsigned I = 0; I < E->getNumArgs(); ++I) {
    std::optional<i128> V = eval(E->getArg(I));
    if (!V)
      return std::nullopt;
    QualType ParamType = I < Callee->getNumParams() ? Callee->getParamDecl(I)->getType() : E->getArg(I)->getType();
    std::optional<i128> Converted = convert(*V, ParamType.getNonReferenceType());
    if (!Converted)
      return std::nullopt;
    Arguments.push_back(*Converted);
  }
  if (!HasBody) {
    // CUDA's and the C library's min and max, declared without a body.
    StringRef Name = Callee->getDeclName().isIdentifier() ? Callee->getName() : "";
    bool IsMin = Name == "min" || Name == "umin" || Name == "llmin" || Name == "ullmin";
    bool IsMax = Name == "max" || Name == "umax" || Name == "llmax" || Name == "ullmax";
    if ((IsMin || IsMax) && Arguments.size() == 2 && E->getType()->isIntegralOrEnumerationType())
      return convert(IsMin ? std::min(Arguments[0], Arguments[1]) : std::max(Arguments[0], Arguments[1]), E->getType());
    return stop("it calls '" + nameOf(*Callee) + "', whose body is not in this translation unit");
  }
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Def); Method && !Method->isStatic())
    return stop("it calls the member function '" + nameOf(*Def) + "'");
  return call(*Def, Arguments);
}

} // namespace clang::tidy::occlint::host_runner_detail

namespace clang::tidy::occlint {

HostRunOutcome runHostFunction(ASTContext &Ctx, const FunctionDecl &Def, llvm::ArrayRef<__int128> Arguments) {
  host_runner_detail::Runner R(Ctx);
  HostRunOutcome Out;
  Out.value = R.call(Def, Arguments);
  if (!Out.value)
    Out.whyNot = R.why();
  return Out;
}

} // namespace clang::tidy::occlint
