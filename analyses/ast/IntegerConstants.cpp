#include "ast/IntegerConstants.h"

namespace clang::tidy::occlint {

std::optional<int64_t> integerConstantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() || E->containsErrors() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx) || !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.isSigned() ? V.getSignificantBits() > 64 : V.getActiveBits() > 63)
    return std::nullopt;
  return V.isSigned() ? V.getSExtValue() : static_cast<int64_t>(V.getZExtValue());
}

} // namespace clang::tidy::occlint
