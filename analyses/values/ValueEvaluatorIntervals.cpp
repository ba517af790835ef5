// The value evaluator's integer domain: the range of an integer type, the
// unknown value of a type, normalization after an operation, conversions
// between integer types, and interval arithmetic on sound bounds.
#include "values/ValueEvaluatorInternals.h"

#include <algorithm>
#include <utility>

namespace clang::tidy::occlint {

namespace {

i128 bitCeilMask(i128 V) { // smallest 2^k - 1 >= V, for V >= 0
  i128 M = 0;
  while (M < V)
    M = (M << 1) | 1;
  return M;
}

} // namespace

TypeRange ValueEvaluatorImpl::rangeOf(QualType T) const {
  TypeRange R;
  if (T.isNull())
    return R;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>()) {
    QualType Int = ET->getDecl()->getIntegerType();
    if (Int.isNull())
      return R;
    T = Int.getCanonicalType();
  }
  if (T->isBooleanType()) {
    R.valid = true;
    R.width = 1;
    R.min = 0;
    R.max = 1;
    return R;
  }
  if (!T->isIntegerType())
    return R;
  unsigned W = Ctx.getIntWidth(T);
  if (W == 0 || W > 64)
    return R;
  R.valid = true;
  R.width = W;
  R.isSigned = T->isSignedIntegerType();
  if (R.isSigned) {
    R.min = -(static_cast<i128>(1) << (W - 1));
    R.max = (static_cast<i128>(1) << (W - 1)) - 1;
  } else {
    R.min = 0;
    R.max = (static_cast<i128>(1) << W) - 1;
  }
  return R;
}

IVal ValueEvaluatorImpl::unknownOf(QualType T, std::string Spelling) const {
  IVal R;
  TypeRange TR = rangeOf(T);
  R.lo = TR.min;
  R.hi = TR.max;
  R.spelling = std::move(Spelling);
  return R;
}

static i128 wrapTo(i128 V, const TypeRange &R) {
  i128 Mod = static_cast<i128>(1) << R.width;
  V %= Mod;
  if (V < 0)
    V += Mod;
  if (R.isSigned && V > R.max)
    V -= Mod;
  return V;
}

// After an arithmetic operation of type T: unsigned results wrap (only an
// exact result is still known then), signed overflow is undefined so the
// bounds are clamped to the type.
IVal ValueEvaluatorImpl::normalize(IVal V, QualType T) const {
  TypeRange R = rangeOf(T);
  auto Unknown = [&] {
    IVal U = unknownOf(T, V.spelling);
    U.derivation = std::move(V.derivation);
    return U;
  };
  if (!R.valid)
    return Unknown();
  if (V.lo >= R.min && V.hi <= R.max)
    return V;
  if (!R.isSigned) {
    if (V.exact() && V.lo > -Huge && V.lo < Huge && !T->isBooleanType()) {
      V.lo = V.hi = wrapTo(V.lo, R);
      return V;
    }
    return Unknown();
  }
  if (V.lo < R.min) {
    V.lo = R.min;
    V.loKnown = false;
  }
  if (V.hi > R.max) {
    V.hi = R.max;
    V.hiKnown = false;
  }
  if (V.lo > V.hi || V.lo > R.max || V.hi < R.min)
    return Unknown();
  return V;
}

IVal ValueEvaluatorImpl::castTo(IVal V, QualType Dest) {
  TypeRange R = rangeOf(Dest);
  if (!R.valid) {
    IVal U = unknownOf(Dest, V.spelling);
    U.derivation = std::move(V.derivation);
    return U;
  }
  if (R.width == 1 && !R.isSigned && R.max == 1 && Dest->isBooleanType()) {
    // Conversion to bool: nonzero is true.
    bool Zero = V.exact() && V.lo == 0, NonZero = V.lo > 0 || V.hi < 0;
    IVal B = Zero || NonZero ? exactOf(NonZero) : unknownOf(Dest, V.spelling);
    B.derivation = std::move(V.derivation);
    return B;
  }
  if (V.lo >= R.min && V.hi <= R.max)
    return V;
  if (V.exact() && V.lo > -Huge && V.lo < Huge) {
    V.lo = V.hi = wrapTo(V.lo, R);
    V.loKnown = V.hiKnown = true;
    return V;
  }
  IVal U = unknownOf(Dest, V.spelling);
  U.derivation = std::move(V.derivation);
  return U;
}

// Interval arithmetic on sound bounds. The "known" flags follow the bounds
// each result bound was computed from.
IVal ValueEvaluatorImpl::arith(BinaryOperatorKind Op, const IVal &A, const IVal &B, QualType LHSType) {
  IVal R;
  R.derivation = mergeDerivations(A.derivation, B.derivation);
  auto Unknown = [&] {
    R.lo = -Huge;
    R.hi = Huge;
    R.loKnown = R.hiKnown = false;
    return R;
  };
  auto Mul = [](i128 X, i128 Y, i128 Overflow) {
    i128 P;
    if (__builtin_mul_overflow(X, Y, &P))
      return Overflow;
    return P;
  };
  bool NonNeg = A.lo >= 0 && B.lo >= 0;
  bool AllKnown = A.loKnown && A.hiKnown && B.loKnown && B.hiKnown;
  switch (Op) {
  case BO_Add:
    R.lo = A.lo + B.lo;
    R.hi = A.hi + B.hi;
    R.loKnown = A.loKnown && B.loKnown;
    R.hiKnown = A.hiKnown && B.hiKnown;
    return R;
  case BO_Sub:
    R.lo = A.lo - B.hi;
    R.hi = A.hi - B.lo;
    R.loKnown = A.loKnown && B.hiKnown;
    R.hiKnown = A.hiKnown && B.loKnown;
    return R;
  case BO_Mul: {
    if (NonNeg) {
      R.lo = Mul(A.lo, B.lo, Huge);
      R.hi = Mul(A.hi, B.hi, Huge);
      R.loKnown = A.loKnown && B.loKnown;
      R.hiKnown = A.hiKnown && B.hiKnown;
      return R;
    }
    i128 P[4] = {Mul(A.lo, B.lo, Huge), Mul(A.lo, B.hi, Huge), Mul(A.hi, B.lo, Huge), Mul(A.hi, B.hi, Huge)};
    for (i128 X : P)
      if (X == Huge)
        return Unknown();
    R.lo = *std::min_element(P, P + 4);
    R.hi = *std::max_element(P, P + 4);
    R.loKnown = R.hiKnown = AllKnown;
    return R;
  }
  case BO_Div: {
    if (B.lo <= 0 && B.hi >= 0)
      return Unknown(); // the divisor may be 0
    if (NonNeg) {
      R.lo = A.lo / B.hi;
      R.hi = A.hi / B.lo;
      R.loKnown = A.loKnown && B.hiKnown;
      R.hiKnown = A.hiKnown && B.loKnown;
      return R;
    }
    i128 P[4] = {A.lo / B.lo, A.lo / B.hi, A.hi / B.lo, A.hi / B.hi};
    R.lo = *std::min_element(P, P + 4);
    R.hi = *std::max_element(P, P + 4);
    R.loKnown = R.hiKnown = AllKnown;
    return R;
  }
  case BO_Rem: {
    if (B.lo <= 0 && B.hi >= 0)
      return Unknown();
    if (A.exact() && B.exact()) {
      R.lo = R.hi = A.lo % B.lo;
      R.loKnown = R.hiKnown = true;
      return R;
    }
    i128 MinAbs = std::min(B.lo < 0 ? -B.lo : B.lo, B.hi < 0 ? -B.hi : B.hi);
    i128 MaxAbs = std::max(B.lo < 0 ? -B.lo : B.lo, B.hi < 0 ? -B.hi : B.hi);
    if (A.lo >= 0 && A.hi < MinAbs)
      return [&] {
        IVal S = A;
        S.derivation = R.derivation;
        return S;
      }();
    i128 M = MaxAbs - 1; // |a % b| < |b|, and the sign is a's
    bool BKnown = B.loKnown && B.hiKnown;
    if (A.lo >= 0) {
      R.lo = 0;
      R.loKnown = A.loKnown;
      R.hi = std::min(A.hi, M);
      R.hiKnown = A.hi <= M ? A.hiKnown : BKnown;
    } else if (A.hi <= 0) {
      R.hi = 0;
      R.hiKnown = A.hiKnown;
      R.lo = std::max(A.lo, -M);
      R.loKnown = A.lo >= -M ? A.loKnown : BKnown;
    } else {
      R.lo = std::max(A.lo, -M);
      R.hi = std::min(A.hi, M);
      R.loKnown = A.lo >= -M ? A.loKnown : BKnown;
      R.hiKnown = A.hi <= M ? A.hiKnown : BKnown;
    }
    return R;
  }
  case BO_Shl:
  case BO_Shr: {
    TypeRange L = rangeOf(LHSType);
    if (!L.valid || A.lo < 0 || B.lo < 0 || B.hi >= static_cast<i128>(L.width))
      return Unknown(); // undefined, or a negative value (not bounded here)
    if (Op == BO_Shl) {
      R.lo = Mul(A.lo, static_cast<i128>(1) << static_cast<unsigned>(B.lo), Huge);
      R.hi = Mul(A.hi, static_cast<i128>(1) << static_cast<unsigned>(B.hi), Huge);
      R.loKnown = A.loKnown && B.loKnown;
      R.hiKnown = A.hiKnown && B.hiKnown;
    } else {
      R.lo = A.lo >> static_cast<unsigned>(B.hi);
      R.hi = A.hi >> static_cast<unsigned>(B.lo);
      R.loKnown = A.loKnown && B.hiKnown;
      R.hiKnown = A.hiKnown && B.loKnown;
    }
    return R;
  }
  case BO_And: {
    if (A.exact() && B.exact()) {
      R.lo = R.hi = A.lo & B.lo;
      R.loKnown = R.hiKnown = true;
      return R;
    }
    // x & y lies in [0, y] for y >= 0, whatever x is.
    const IVal *P = nullptr;
    if (NonNeg)
      P = A.hi <= B.hi ? &A : &B;
    else if (A.lo >= 0)
      P = &A;
    else if (B.lo >= 0)
      P = &B;
    if (!P)
      return Unknown();
    R.lo = 0;
    R.hi = P->hi;
    R.loKnown = (A.lo >= 0 && A.loKnown) || (B.lo >= 0 && B.loKnown);
    R.hiKnown = P->hiKnown || (NonNeg && A.hi == B.hi && (A.hiKnown || B.hiKnown));
    return R;
  }
  case BO_Or:
  case BO_Xor: {
    if (A.exact() && B.exact()) {
      R.lo = R.hi = Op == BO_Or ? (A.lo | B.lo) : (A.lo ^ B.lo);
      R.loKnown = R.hiKnown = true;
      return R;
    }
    if (!NonNeg)
      return Unknown();
    R.hi = bitCeilMask(std::max(A.hi, B.hi));
    R.hiKnown = A.hiKnown && B.hiKnown;
    if (Op == BO_Or) { // x | y >= max(x, y)
      bool AFirst = A.lo >= B.lo;
      R.lo = AFirst ? A.lo : B.lo;
      R.loKnown = AFirst ? A.loKnown : B.loKnown;
    } else {
      R.lo = 0;
      R.loKnown = A.loKnown && B.loKnown;
    }
    return R;
  }
  default:
    return Unknown();
  }
}

} // namespace clang::tidy::occlint
