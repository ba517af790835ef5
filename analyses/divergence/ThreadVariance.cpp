// The thread-variance lattice: constructing values, asking how uniform they
// are (across a warp, across the block), and joining them where control flow
// merges. Arithmetic, conditions and descriptions are in the sibling
// ThreadVariance*.cpp files.
#include "divergence/ThreadVariance.h"
#include "divergence/ThreadVarianceImpl.h"

#include <algorithm>

namespace clang::tidy::occlint {

using namespace detail;

namespace {

bool allEqual(const Table &T) {
  return std::all_of(T.begin(), T.end(), [&](int64_t V) { return V == T[0]; });
}

} // namespace

ThreadValue ThreadValue::constant(int64_t C) {
  ThreadValue V;
  V.Lane.fill(C);
  return V;
}

ThreadValue ThreadValue::uniform(unsigned AlignLog2) {
  ThreadValue V;
  V.Rest = RestKind::BlockUniform;
  V.Align = std::min(AlignLog2, 62u);
  return V;
}

ThreadValue ThreadValue::warpUniform(unsigned AlignLog2) {
  ThreadValue V = uniform(AlignLog2);
  V.Rest = RestKind::WarpUniform;
  return V;
}

ThreadValue ThreadValue::top() {
  ThreadValue V;
  V.Rest = RestKind::PerLane;
  V.Align = 0;
  return V;
}

ThreadValue ThreadValue::table(const std::array<int64_t, Lanes> &T, RestKind K, unsigned AlignLog2, MonoCoord M) {
  ThreadValue V;
  V.Lane = T;
  V.Rest = K;
  V.Align = K == RestKind::Const ? ExactAlign : std::min(AlignLog2, 62u);
  V.Mono = M;
  return normalize(V);
}

ThreadValue ThreadValue::linearTid() {
  Table T;
  for (unsigned L = 0; L < Lanes; ++L)
    T[L] = L;
  return table(T, RestKind::WarpUniform, 5, MonoCoord::Linear);
}

ThreadValue ThreadValue::laneId() {
  Table T;
  for (unsigned L = 0; L < Lanes; ++L)
    T[L] = L;
  return table(T, RestKind::Const, ExactAlign);
}

bool ThreadValue::laneConstant() const { return Rest != RestKind::PerLane && allEqual(Lane); }
bool ThreadValue::blockUniform() const {
  return laneConstant() && (Rest == RestKind::Const || Rest == RestKind::BlockUniform);
}
std::optional<int64_t> ThreadValue::exact() const {
  if (Rest == RestKind::Const && allEqual(Lane))
    return Lane[0];
  return std::nullopt;
}

unsigned ThreadValue::spanWithinPeriod() const {
  if (Rest == RestKind::PerLane)
    return SpanLog2;
  if (Rest == RestKind::Const || Align == 0 || Align >= 62)
    return 0;
  const auto [Lo, Hi] = std::minmax_element(Lane.begin(), Lane.end());
  // In unsigned arithmetic: lane values wrap (generated chains of `v * 3 + t`),
  // so their difference may pass int64's range; Hi >= Lo, so it is exact.
  return uint64_t(*Hi) - uint64_t(*Lo) < uint64_t(pow2(Align)) ? Align : 0;
}

bool ThreadValue::uniformWithin(unsigned G) const {
  if (Rest == RestKind::PerLane)
    return GroupLog2 > 0 && G <= (1u << GroupLog2);
  for (unsigned L = 0; L < Lanes; ++L)
    if (Lane[L] != Lane[L - L % G])
      return false;
  return true;
}

unsigned ThreadValue::uniformGroup() const {
  if (blockUniform())
    return 64;
  for (unsigned G = 32; G >= 2; G /= 2)
    if (uniformWithin(G))
      return G;
  return 1;
}

std::optional<uint32_t> ThreadValue::trueLanes() const {
  if (Rest != RestKind::Const)
    return std::nullopt;
  uint32_t M = 0;
  for (unsigned L = 0; L < Lanes; ++L)
    if (Lane[L] != 0)
      M |= 1u << L;
  return M;
}

bool ThreadValue::operator==(const ThreadValue &O) const {
  return Lane == O.Lane && Rest == O.Rest && RestConst == O.RestConst && Align == O.Align && Mono == O.Mono &&
         Split == O.Split && SureOther == O.SureOther && Assumed == O.Assumed && FromData == O.FromData &&
         SpanLog2 == O.SpanLog2 && AtBound == O.AtBound && GroupLog2 == O.GroupLog2;
}

static ThreadValue joinValues(const ThreadValue &A, const ThreadValue &B);

ThreadValue join(const ThreadValue &A, const ThreadValue &B) {
  ThreadValue R = joinValues(A, B);
  R.FromData = (A.FromData || B.FromData) && !R.laneConstant();
  R.AtBound = onlyAtBound({A, B}) && !R.laneConstant();
  return R;
}

static ThreadValue joinValues(const ThreadValue &A, const ThreadValue &B) {
  if (A == B)
    return A;
  ThreadValue R;
  R.Assumed = A.Assumed || B.Assumed;
  R.Mono = A.Mono == B.Mono ? A.Mono : MonoCoord::None;
  if (A.Split != SplitKind::None || B.Split != SplitKind::None) {
    // Booleans that differ between threads: keep the shape when both agree.
    if (A.Split == B.Split || B.laneConstant() || A.laneConstant()) {
      const ThreadValue &S = A.Split != SplitKind::None ? A : B;
      ThreadValue Out = boolSplit(S.Split, (A.Split == B.Split) ? (A.SureOther & B.SureOther) : 0, R.Assumed);
      Out.Mono = R.Mono;
      Out.GroupLog2 = std::min(groupLog2Of(A), groupLog2Of(B));
      return Out;
    }
    return boolSplit(SplitKind::Data, 0, R.Assumed);
  }
  if (A.Rest != RestKind::PerLane && B.Rest != RestKind::PerLane) {
    const int64_t D = A.Lane[0] - B.Lane[0];
    bool ConstantShift = true;
    for (unsigned L = 0; L < Lanes && ConstantShift; ++L)
      ConstantShift = A.Lane[L] - B.Lane[L] == D;
    if (ConstantShift) {
      R.Lane = A.Lane;
      R.Rest = maxKind(maxKind(A.Rest, B.Rest), RestKind::BlockUniform);
      R.Align = std::min({A.Align, B.Align, tz(D)});
      return normalize(R);
    }
  }
  // Only the low bits on which both agree in every lane survive.
  unsigned G = std::min(A.Align, B.Align);
  while (G > 0) {
    bool Agree = true;
    for (unsigned L = 0; L < Lanes && Agree; ++L)
      Agree = floorMod(A.Lane[L], pow2(G)) == floorMod(B.Lane[L], pow2(G));
    if (Agree)
      break;
    --G;
  }
  R.Lane = A.Lane;
  R.Rest = RestKind::PerLane;
  R.Align = G;
  // Either state's lanes lie in one range of the same length: so do the joined.
  if (const unsigned Span = A.spanWithinPeriod(); Span && Span == B.spanWithinPeriod())
    R.SpanLog2 = Span;
  return normalize(R);
}

bool onlyAtBound(const std::vector<ThreadValue> &Ops) {
  bool Any = false;
  for (const ThreadValue &V : Ops) {
    if (V.laneConstant())
      continue;
    if (!V.AtBound)
      return false;
    Any = true;
  }
  return Any;
}

ThreadValue opaque(const std::vector<ThreadValue> &Ops) {
  RestKind K = RestKind::BlockUniform;
  bool Assumed = false, Varies = false, FromData = false;
  for (const ThreadValue &V : Ops) {
    Assumed = Assumed || V.Assumed;
    FromData = FromData || V.FromData;
    Varies = Varies || !V.laneConstant();
    K = maxKind(K, V.Rest);
  }
  if (Varies) { // a function of data is data
    ThreadValue T = withAssumed(ThreadValue::top(), Assumed);
    T.FromData = FromData;
    T.AtBound = onlyAtBound(Ops);
    return T;
  }
  return kindOnly(K, Assumed);
}

} // namespace clang::tidy::occlint
