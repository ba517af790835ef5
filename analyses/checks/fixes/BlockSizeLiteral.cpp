#include "checks/fixes/BlockSizeLiteral.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

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
