// Conditions on thread values: comparisons, truth values and && || ! ?:,
// which give the booleans a branch tests and the shape of the thread split
// (boundary, single thread, lane threshold, per-thread data).
#include "divergence/ThreadVariance.h"
#include "divergence/ThreadVarianceImpl.h"

#include <algorithm>
#include <bit>
#include <utility>

namespace clang::tidy::occlint {

using namespace detail;

namespace {

bool holds(CompareOp Op, int64_t D) {
  switch (Op) {
  case CompareOp::LT:
    return D < 0;
  case CompareOp::LE:
    return D <= 0;
  case CompareOp::GT:
    return D > 0;
  case CompareOp::GE:
    return D >= 0;
  case CompareOp::EQ:
    return D == 0;
  case CompareOp::NE:
    return D != 0;
  }
  return false;
}

bool isBoolean(const ThreadValue &V) {
  if (V.Split != SplitKind::None)
    return true;
  if (V.Rest != RestKind::Const)
    return false;
  return std::all_of(V.Lane.begin(), V.Lane.end(), [](int64_t X) { return X == 0 || X == 1; });
}

/// A boolean's split as (kind, lanes known to differ from the rest).
std::pair<SplitKind, uint32_t> splitOf(const ThreadValue &V) {
  if (auto M = V.trueLanes()) {
    if (std::popcount(*M) <= 1)
      return {SplitKind::SingleLane, 0};
    return {SplitKind::Data, ~*M};
  }
  return {V.Split, V.SureOther};
}

/// A strided index against a uniform bound (`c < C` for c = lane + 32 k: a
/// warp- or block-stride loop, or the tail guard of its chunk): the index's
/// lane parts fit in one period of its alignment, so the lanes disagree only
/// in the period the bound falls in, the tail of the range: a boundary, as
/// for a monotone index. (A lane index itself against an unknown bound,
/// `lane < k`, has no period: a threshold.)
bool stridedAgainstBound(const ThreadValue &A, const ThreadValue &B) {
  for (const auto &[Index, Bound] : {std::pair{&A, &B}, std::pair{&B, &A}})
    if (Bound->laneConstant() && Index->spanWithinPeriod())
      return true;
  return false;
}

} // namespace

ThreadValue compare(CompareOp Op, const ThreadValue &A, const ThreadValue &B) {
  const bool Assumed = A.Assumed || B.Assumed;
  if (A.Split == SplitKind::None && B.Split == SplitKind::None && onlyAtBound({A, B}))
    return boolSplit(SplitKind::Boundary, 0, Assumed); // it differs only past a bound
  if (A.Split != SplitKind::None || B.Split != SplitKind::None) {
    if (A.laneConstant() || B.laneConstant()) {
      const ThreadValue &S = A.Split != SplitKind::None ? A : B;
      return boolSplit(S.Split, S.SureOther, Assumed);
    }
    return boolSplit(SplitKind::Data, 0, Assumed);
  }
  const ThreadValue D = sub(A, B);
  if (D.laneConstant()) {
    if (auto V = D.exact())
      return withAssumed(ThreadValue::constant(holds(Op, *V)), Assumed);
    return kindOnly(D.Rest, Assumed);
  }
  if (D.Rest == RestKind::Const)
    return withAssumed(
        ThreadValue::table(mapTable(D.Lane, [&](int64_t X) { return int64_t(holds(Op, X)); }), RestKind::Const, 0),
        Assumed);
  const Table &T = D.Lane;
  const int64_t Mod = pow2(D.Align);
  const bool Equality = Op == CompareOp::EQ || Op == CompareOp::NE;
  if (Equality) {
    // v == 0 needs Lane[l] ≡ -Rest ≡ 0 (mod 2^Align): the other lanes are sure.
    uint32_t Possible = 0;
    for (unsigned L = 0; L < Lanes; ++L)
      if (D.Align == 0 || floorMod(T[L], Mod) == 0)
        Possible |= 1u << L;
    if (Possible == 0)
      return withAssumed(ThreadValue::constant(Op == CompareOp::NE), Assumed);
    if (D.Rest != RestKind::PerLane) {
      Table Sorted = T;
      std::sort(Sorted.begin(), Sorted.end());
      const bool Injective = std::adjacent_find(Sorted.begin(), Sorted.end()) == Sorted.end();
      if (Injective)
        return boolSplit(D.Mono == MonoCoord::Linear ? SplitKind::SingleThread : SplitKind::SingleLane, 0, Assumed);
    }
    return boolSplit(SplitKind::Data, ~Possible, Assumed);
  }
  if (D.Rest == RestKind::PerLane)
    return boolSplit(D.Mono != MonoCoord::None || D.SpanLog2 ? SplitKind::Boundary : SplitKind::Data, 0, Assumed);
  // Relational: lanes disagree iff a threshold t ≡ 0 (mod 2^Align) falls
  // between the smallest and the largest lane part.
  const int64_t Off = (Op == CompareOp::LE || Op == CompareOp::GT) ? 1 : 0;
  const int64_t Lo = *std::min_element(T.begin(), T.end()) - Off;
  const int64_t Hi = *std::max_element(T.begin(), T.end()) - Off;
  if (floorDiv(Hi, Mod) == floorDiv(Lo, Mod))
    return kindOnly(D.Rest, Assumed);
  ThreadValue Split = boolSplit(
      D.Mono != MonoCoord::None || stridedAgainstBound(A, B) ? SplitKind::Boundary : SplitKind::Threshold, 0, Assumed);
  // The same test per aligned group of lanes: where no threshold falls
  // inside any group, each group is on one side (`threadIdx.x < 8`: groups
  // of 8).
  for (unsigned Log2 = 4; Log2 >= 1 && !Split.GroupLog2; --Log2) {
    const unsigned G = 1u << Log2;
    bool Uniform = true;
    for (unsigned First = 0; First < Lanes && Uniform; First += G) {
      const auto [Min, Max] = std::minmax_element(T.begin() + First, T.begin() + First + G);
      Uniform = floorDiv(*Max - Off, Mod) == floorDiv(*Min - Off, Mod);
    }
    if (Uniform)
      Split.GroupLog2 = Log2;
  }
  return Split;
}

ThreadValue toBool(const ThreadValue &A) {
  if (isBoolean(A))
    return A;
  return compare(CompareOp::NE, A, ThreadValue::constant(0));
}

ThreadValue logicalNot(const ThreadValue &A) {
  ThreadValue B = toBool(A);
  if (B.Rest == RestKind::Const) {
    B.Lane = mapTable(B.Lane, [](int64_t X) { return int64_t(X == 0); });
    return B;
  }
  return B; // a uniform unknown, or a split: negation keeps its shape
}

namespace {

ThreadValue combineLogical(bool IsAnd, const ThreadValue &A0, const ThreadValue &B0) {
  const ThreadValue A = toBool(A0), B = toBool(B0);
  const bool Assumed = A.Assumed || B.Assumed;
  for (const auto &[X, Y] : {std::pair{&A, &B}, std::pair{&B, &A}})
    if (auto V = X->exact())
      return (*V != 0) == IsAnd ? withAssumed(*Y, Assumed) : withAssumed(ThreadValue::constant(!IsAnd), Assumed);
  if (A.Rest == RestKind::Const && B.Rest == RestKind::Const) {
    Table T;
    for (unsigned L = 0; L < Lanes; ++L)
      T[L] = IsAnd ? (A.Lane[L] && B.Lane[L]) : (A.Lane[L] || B.Lane[L]);
    return withAssumed(ThreadValue::table(T, RestKind::Const, 0), Assumed);
  }
  if (A.laneConstant() && B.laneConstant())
    return kindOnly(maxKind(A.Rest, B.Rest), Assumed);
  // Lanes uniform in aligned groups on both sides stay so in the result.
  const unsigned Groups = std::min(groupLog2Of(A), groupLog2Of(B));
  if (A.laneConstant() || B.laneConstant()) {
    auto [S, Sure] = splitOf(A.laneConstant() ? B : A);
    ThreadValue R = boolSplit(S, Sure, Assumed);
    R.GroupLog2 = Groups;
    return R;
  }
  auto [SA, MA] = splitOf(A);
  auto [SB, MB] = splitOf(B);
  if (IsAnd) {
    // A subset of a single thread/lane is still one.
    for (SplitKind K : {SplitKind::SingleThread, SplitKind::SingleLane})
      if (SA == K || SB == K)
        return boolSplit(K, 0, Assumed);
  }
  if (SA == SplitKind::Boundary && SB == SplitKind::Boundary) {
    ThreadValue R = boolSplit(SplitKind::Boundary, 0, Assumed);
    R.GroupLog2 = Groups;
    return R;
  }
  if (IsAnd) {
    // A lane pattern narrowed by a boundary guard (`kx < 13 && px < width`):
    // the lanes outside the pattern are false in every warp, the others true
    // except in the warp the bound falls in. The pattern's false lanes are
    // kept as the sure ones; the shape is the guard's.
    for (const auto &[X, Y] : {std::pair{&A, &B}, std::pair{&B, &A}})
      if (auto M = X->trueLanes(); M && Y->Split == SplitKind::Boundary)
        return boolSplit(SplitKind::Boundary, ~*M, Assumed);
  }
  return boolSplit(SplitKind::Data, MA == MB ? MA : 0, Assumed);
}

} // namespace

ThreadValue logicalAnd(const ThreadValue &A, const ThreadValue &B) { return combineLogical(true, A, B); }
ThreadValue logicalOr(const ThreadValue &A, const ThreadValue &B) { return combineLogical(false, A, B); }

ThreadValue select(const ThreadValue &C0, const ThreadValue &A, const ThreadValue &B) {
  const ThreadValue C = toBool(C0);
  if (auto V = C.exact())
    return *V ? A : B;
  if (A == B && C.laneConstant())
    return A;
  if (C.laneConstant())
    return join(join(A, B), kindOnly(C.Rest, C.Assumed));
  if (C.Rest == RestKind::Const && A.Rest == RestKind::Const && B.Rest == RestKind::Const &&
      A.Split == SplitKind::None && B.Split == SplitKind::None) {
    Table T;
    for (unsigned L = 0; L < Lanes; ++L)
      T[L] = C.Lane[L] ? A.Lane[L] : B.Lane[L];
    return withAssumed(ThreadValue::table(T, RestKind::Const, 0), A.Assumed || B.Assumed || C.Assumed);
  }
  return withAssumed(ThreadValue::top(), A.Assumed || B.Assumed || C.Assumed);
}

} // namespace clang::tidy::occlint
