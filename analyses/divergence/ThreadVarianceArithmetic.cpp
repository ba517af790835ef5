// Arithmetic on thread values: the affine forms (per-lane table + aligned
// Rest) under + - * / % shifts and bitwise operations with constants.
#include "divergence/ThreadVariance.h"
#include "divergence/ThreadVarianceImpl.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <numeric>

namespace clang::tidy::occlint {

// Lane values wrap modulo 2^64, as the machine's integers do, instead of
// overflowing (undefined behaviour): a chain of thousands of `v = v * 3 + t`
// in generated code passes int64's range (UBSan found it on the stress set).
template <typename Op> static int64_t wrapping(int64_t A, int64_t B, Op O) {
  return int64_t(O(uint64_t(A), uint64_t(B)));
}

using namespace detail;

namespace {

bool isPow2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }
unsigned log2of(int64_t V) { return std::countr_zero(uint64_t(V)); }

/// Alignment of a lane-constant value as a whole (its Rest and its lane part).
unsigned wholeAlign(const ThreadValue &V) { return std::min(V.Align, tz(V.Lane[0])); }

/// The lanes' values are known up to a per-warp offset and step by at most
/// one from lane to lane, all in one direction (`i = blockIdx.x * blockDim.x
/// + threadIdx.x`, `tid / 2`): a warp covers at most 32 consecutive integers.
bool unitSteps(const ThreadValue &A) {
  if (A.Rest == RestKind::PerLane)
    return false;
  bool Up = true, Down = true;
  for (unsigned L = 1; L < Lanes; ++L) {
    const int64_t Step = A.Lane[L] - A.Lane[L - 1];
    Up = Up && (Step == 0 || Step == 1);
    Down = Down && (Step == 0 || Step == -1);
  }
  return Up || Down;
}

} // namespace

ThreadValue neg(const ThreadValue &A) {
  if (A.Split != SplitKind::None)
    return opaque({A});
  ThreadValue R = A;
  R.Lane = mapTable(A.Lane, [](int64_t X) { return wrapping(0, X, std::minus<>()); });
  return normalize(R);
}

ThreadValue add(const ThreadValue &A, const ThreadValue &B) {
  if (A.Split != SplitKind::None || B.Split != SplitKind::None)
    return opaque({A, B});
  ThreadValue R;
  for (unsigned L = 0; L < Lanes; ++L)
    R.Lane[L] = wrapping(A.Lane[L], B.Lane[L], std::plus<>());
  R.Rest = maxKind(A.Rest, B.Rest);
  R.Align = std::min(A.Align, B.Align);
  R.Assumed = A.Assumed || B.Assumed;
  // A monotone index plus something uniform stays monotone.
  if (A.Mono != MonoCoord::None && B.blockUniform())
    R.Mono = A.Mono;
  else if (B.Mono != MonoCoord::None && A.blockUniform())
    R.Mono = B.Mono;
  // A range of lanes shifted by a per-warp amount is as long as before.
  if (A.Rest == RestKind::PerLane && B.laneConstant())
    R.SpanLog2 = A.SpanLog2;
  else if (B.Rest == RestKind::PerLane && A.laneConstant())
    R.SpanLog2 = B.SpanLog2;
  return normalize(R);
}

ThreadValue sub(const ThreadValue &A, const ThreadValue &B) { return add(A, neg(B)); }

ThreadValue mul(const ThreadValue &A, const ThreadValue &B) {
  if (A.Split != SplitKind::None || B.Split != SplitKind::None)
    return opaque({A, B});
  if (!B.exact() && A.exact())
    return mul(B, A);
  const bool Assumed = A.Assumed || B.Assumed;
  if (auto K = B.exact()) {
    if (*K == 0)
      return withAssumed(ThreadValue::constant(0), Assumed);
    ThreadValue R = A;
    R.Lane = mapTable(A.Lane, [&](int64_t X) { return wrapping(X, *K, std::multiplies<>()); });
    R.Align = std::min(A.Align + tz(*K), 62u);
    R.Assumed = Assumed;
    // A range of lanes scaled by 2^k is 2^k times as long (and still one
    // period of the alignment, which grows by k); other factors spread it.
    const uint64_t Magnitude = *K < 0 ? 0 - uint64_t(*K) : uint64_t(*K);
    R.SpanLog2 = A.SpanLog2 && std::has_single_bit(Magnitude)
                     ? std::min(A.SpanLog2 + unsigned(std::countr_zero(Magnitude)), 62u)
                     : 0;
    return normalize(R);
  }
  ThreadValue R;
  if (A.laneConstant() && B.laneConstant()) {
    R = kindOnly(maxKind(A.Rest, B.Rest), Assumed);
    R.Align = std::min(wholeAlign(A) + wholeAlign(B), 62u);
  } else if (B.laneConstant()) {
    R = withAssumed(ThreadValue::top(), Assumed);
    R.Align = wholeAlign(B);
  } else if (A.laneConstant()) {
    R = withAssumed(ThreadValue::top(), Assumed);
    R.Align = wholeAlign(A);
  } else {
    return withAssumed(ThreadValue::top(), Assumed);
  }
  if (A.Mono != MonoCoord::None && B.blockUniform())
    R.Mono = A.Mono;
  else if (B.Mono != MonoCoord::None && A.blockUniform())
    R.Mono = B.Mono;
  return normalize(R);
}

ThreadValue div(const ThreadValue &A, const ThreadValue &B) {
  if (A.Split != SplitKind::None || B.Split != SplitKind::None)
    return opaque({A, B});
  const bool Assumed = A.Assumed || B.Assumed;
  auto K = B.exact();
  if (!K || *K <= 0) {
    ThreadValue R = opaque({A, B});
    if (A.Mono != MonoCoord::None && B.blockUniform())
      R.Mono = A.Mono;
    // A row index: consecutive integers over a uniform width (`i / width`
    // of a flattened 2-D index) change value only where a row starts. The
    // width is taken to be at least a warp, as image and matrix rows are:
    // then only the warp a row boundary falls in holds two rows, and a test
    // on the row splits the warps the bound falls in (narrower rows put
    // several rows in every warp; their number is the launch's, not the code's).
    if (!K && B.blockUniform() && unitSteps(A) && !R.laneConstant())
      R.AtBound = true;
    return R;
  }
  ThreadValue R = A;
  R.Assumed = Assumed;
  if (A.Rest == RestKind::Const) {
    R.Lane = mapTable(A.Lane, [&](int64_t X) { return floorDiv(X, *K); });
    return normalize(R);
  }
  if (A.Rest == RestKind::PerLane) {
    R = withAssumed(ThreadValue::top(), Assumed);
    R.Mono = A.Mono; // division by a positive constant is monotone
    return R;
  }
  // Rest is uniform per warp with alignment 2^Align.
  if (isPow2(*K) && log2of(*K) <= A.Align) {
    R.Lane = mapTable(A.Lane, [&](int64_t X) { return floorDiv(X, *K); });
    R.Align = A.Align - log2of(*K);
    return normalize(R);
  }
  // Does any possible residue of Rest make two lanes of a warp fall into
  // different quotients? Rest mod K runs over the multiples of gcd(2^Align, K).
  const int64_t Step = std::gcd(pow2(A.Align), *K);
  bool Agree = true;
  if (*K / Step > 4096) {
    Agree = false;
  } else {
    for (int64_t Res = 0; Res < *K && Agree; Res += Step) {
      const int64_t Q = floorDiv(A.Lane[0] + Res, *K);
      for (unsigned L = 1; L < Lanes && Agree; ++L)
        Agree = floorDiv(A.Lane[L] + Res, *K) == Q;
    }
  }
  R = Agree ? kindOnly(A.Rest, Assumed) : withAssumed(ThreadValue::top(), Assumed);
  R.Mono = A.Mono;
  // Consecutive integers over a constant of at least 32 change quotient at
  // most once per warp: a row boundary (see the uniform divisor above).
  if (!Agree && *K >= int64_t(Lanes) && unitSteps(A))
    R.AtBound = true;
  return normalize(R);
}

ThreadValue rem(const ThreadValue &A, const ThreadValue &B) {
  if (A.Split != SplitKind::None || B.Split != SplitKind::None)
    return opaque({A, B});
  const bool Assumed = A.Assumed || B.Assumed;
  if (A.laneConstant())
    return A.exact() && B.exact() && *B.exact() != 0 ? ThreadValue::constant(floorMod(*A.exact(), *B.exact()))
                                                     : opaque({A, B});
  auto K = B.exact();
  if (K && *K > 0) {
    if (A.Rest == RestKind::Const || (isPow2(*K) && log2of(*K) <= A.Align))
      return withAssumed(
          ThreadValue::table(mapTable(A.Lane, [&](int64_t X) { return floorMod(X, *K); }), RestKind::Const, 0),
          Assumed);
    const unsigned G = std::min(A.Align, tz(*K));
    return withAssumed(ThreadValue::table(A.Lane, RestKind::PerLane, G), Assumed);
  }
  if (B.laneConstant()) {
    // x % m with m a multiple of 2^b keeps x's low b bits.
    const unsigned G = std::min(A.Align, wholeAlign(B));
    return withAssumed(ThreadValue::table(A.Lane, RestKind::PerLane, G), Assumed);
  }
  return opaque({A, B});
}

ThreadValue shl(const ThreadValue &A, const ThreadValue &B) {
  if (auto S = B.exact(); S && *S >= 0 && *S < 62)
    return mul(A, ThreadValue::constant(int64_t(1) << *S));
  return opaque({A, B});
}

ThreadValue shr(const ThreadValue &A, const ThreadValue &B) {
  if (auto S = B.exact(); S && *S >= 0 && *S < 62)
    return div(A, ThreadValue::constant(int64_t(1) << *S));
  return div(A, B);
}

namespace {

enum class BitOp { And, Or, Xor };

int64_t applyBits(BitOp Op, int64_t X, int64_t M) {
  switch (Op) {
  case BitOp::And:
    return X & M;
  case BitOp::Or:
    return X | M;
  case BitOp::Xor:
    return X ^ M;
  }
  return X;
}

ThreadValue bitwise(BitOp Op, const ThreadValue &A, const ThreadValue &B) {
  if (!B.exact() && A.exact())
    return bitwise(Op, B, A);
  const bool Assumed = A.Assumed || B.Assumed;
  auto M = B.exact();
  if (!M || A.laneConstant() || A.Split != SplitKind::None)
    return opaque({A, B});
  if (A.Rest == RestKind::Const)
    return withAssumed(
        ThreadValue::table(mapTable(A.Lane, [&](int64_t X) { return applyBits(Op, X, *M); }), RestKind::Const, 0),
        Assumed);
  const int64_t Low = pow2(A.Align);
  // A mask within the aligned low bits sees only the lane part.
  if (*M >= 0 && *M < Low && A.Rest != RestKind::PerLane) {
    if (Op == BitOp::And)
      return withAssumed(ThreadValue::table(mapTable(A.Lane, [&](int64_t X) { return X & *M; }), RestKind::Const, 0),
                         Assumed);
    ThreadValue R = A;
    R.Mono = MonoCoord::None;
    R.Lane = mapTable(A.Lane, [&](int64_t X) {
      const int64_t L = floorMod(X, Low);
      return X - L + applyBits(Op, L, *M);
    });
    R.Assumed = Assumed;
    return normalize(R);
  }
  // x & ~(2^k - 1) with 2^k <= 2^Align rounds the lane part only.
  if (Op == BitOp::And && *M < 0 && isPow2(-*M) && log2of(-*M) <= A.Align && A.Rest != RestKind::PerLane) {
    ThreadValue R = A;
    R.Lane = mapTable(A.Lane, [&](int64_t X) { return X & *M; });
    R.Assumed = Assumed;
    return normalize(R);
  }
  // Otherwise only the low Align bits stay known.
  ThreadValue R = ThreadValue::table(mapTable(A.Lane, [&](int64_t X) { return applyBits(Op, floorMod(X, Low), *M); }),
                                     RestKind::PerLane, A.Align);
  return withAssumed(R, Assumed);
}

} // namespace

ThreadValue bitAnd(const ThreadValue &A, const ThreadValue &B) { return bitwise(BitOp::And, A, B); }
ThreadValue bitOr(const ThreadValue &A, const ThreadValue &B) { return bitwise(BitOp::Or, A, B); }
ThreadValue bitXor(const ThreadValue &A, const ThreadValue &B) { return bitwise(BitOp::Xor, A, B); }

} // namespace clang::tidy::occlint
