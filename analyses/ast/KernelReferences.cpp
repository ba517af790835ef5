#include "ast/KernelReferences.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

const FunctionDecl *referencedKernel(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf) {
      E = Unary->getSubExpr();
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl());
      if (!FD || !FD->hasAttr<CUDAGlobalAttr>())
        return nullptr;
      // The definition, when the translation unit has one.
      if (const FunctionDecl *Definition = FD->getDefinition())
        return Definition;
      return FD;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace clang::tidy::occlint
