#include "ast/CudaBuiltinVariables.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

llvm::StringRef builtinVariableName(const Decl *D) {
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  if (!VD || !VD->hasGlobalStorage() || !VD->getIdentifier())
    return "";
  const llvm::StringRef Name = VD->getName();
  if (Name != "threadIdx" && Name != "blockIdx" && Name != "blockDim" && Name != "gridDim")
    return "";
  const auto *Record = VD->getType()->getAsCXXRecordDecl();
  if (!Record || !Record->getIdentifier() || !Record->getName().starts_with("__cuda_builtin_"))
    return "";
  return Name;
}

std::optional<BuiltinComponent> builtinMember(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *Property = dyn_cast<MSPropertyRefExpr>(E);
  if (!Property)
    return std::nullopt;
  const Expr *Base = Property->getBaseExpr()->IgnoreParenImpCasts();
  while (const auto *OV = dyn_cast<OpaqueValueExpr>(Base))
    Base = OV->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return std::nullopt;
  const llvm::StringRef Variable = builtinVariableName(Ref->getDecl());
  if (Variable.empty() || !Property->getPropertyDecl()->getIdentifier())
    return std::nullopt;
  return BuiltinComponent{Variable, Property->getPropertyDecl()->getName()};
}

std::optional<unsigned> builtinDimension(llvm::StringRef Component) {
  if (Component.size() != 1 || Component[0] < 'x' || Component[0] > 'z')
    return std::nullopt;
  return unsigned(Component[0] - 'x');
}

} // namespace clang::tidy::occlint
