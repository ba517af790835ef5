#include "LaunchConfig.h"

#include "clang/AST/APValue.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::occlint {

static const Expr *writtenArgOrNull(const CallExpr &Config, unsigned Index) {
  if (Index >= Config.getNumArgs())
    return nullptr;
  const Expr *Arg = Config.getArg(Index);
  if (isa<CXXDefaultArgExpr>(Arg))
    return nullptr;
  return Arg;
}

LaunchConfigExprs getLaunchConfigExprs(const CUDAKernelCallExpr &Launch) {
  LaunchConfigExprs Out;
  const CallExpr *Config = Launch.getConfig();
  if (!Config)
    return Out;
  Out.grid = writtenArgOrNull(*Config, 0);
  Out.block = writtenArgOrNull(*Config, 1);
  Out.dynamicSharedMem = writtenArgOrNull(*Config, 2);
  Out.stream = writtenArgOrNull(*Config, 3);
  return Out;
}

// Reads x, y, z out of an evaluated dim3 struct value.
static std::optional<Dim3Value> fromStructValue(const APValue &V, QualType Ty) {
  const auto *Record = Ty->getAsCXXRecordDecl();
  if (!V.isStruct() || !Record)
    return std::nullopt;
  Dim3Value Out;
  unsigned Index = 0;
  for (const FieldDecl *Field : Record->fields()) {
    if (Index >= 3)
      return std::nullopt;
    const APValue &FieldValue = V.getStructField(Field->getFieldIndex());
    if (!FieldValue.isInt())
      return std::nullopt;
    Out.xyz[Index++] = FieldValue.getInt().getZExtValue();
  }
  if (Index != 3)
    return std::nullopt;
  return Out;
}

std::optional<Dim3Value> evaluateDim3(const Expr &E, const ASTContext &Ctx) {
  if (E.isValueDependent() || E.isTypeDependent())
    return std::nullopt;
  const Expr *Inner = E.IgnoreImplicit();
  // A plain integer converted to dim3 by the implicit constructor.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner)) {
    Dim3Value Out;
    for (unsigned I = 0; I < Construct->getNumArgs() && I < 3; ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (Arg->isValueDependent())
        return std::nullopt;
      Expr::EvalResult R;
      if (!Arg->EvaluateAsInt(R, Ctx))
        // dim3(dim3) copy construction, or a non-constant component.
        return Construct->getNumArgs() == 1 ? evaluateDim3(*Arg, Ctx) : std::nullopt;
      Out.xyz[I] = R.Val.getInt().getZExtValue();
    }
    return Out;
  }
  if (Inner->getType()->isIntegerType()) {
    Expr::EvalResult R;
    if (!Inner->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    Dim3Value Out;
    Out.xyz[0] = R.Val.getInt().getZExtValue();
    return Out;
  }
  Expr::EvalResult R;
  if (Inner->getType()->isRecordType() && Inner->EvaluateAsRValue(R, Ctx))
    return fromStructValue(R.Val, Inner->getType());
  return std::nullopt;
}

const IntegerLiteral *getBlockSizeLiteral(const Expr &E) {
  const Expr *Inner = E.IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner)) {
    if (Construct->getNumArgs() == 0)
      return nullptr;
    for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        return nullptr; // dim3(x, y[, z]): rounding x alone may not be the fix
    Inner = Construct->getArg(0)->IgnoreImplicit();
  }
  return dyn_cast<IntegerLiteral>(Inner->IgnoreParens());
}

} // namespace clang::tidy::occlint
