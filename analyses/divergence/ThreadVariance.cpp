#include "divergence/ThreadVariance.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <sstream>

namespace clang::tidy::occlint {

namespace {

using Table = std::array<int64_t, Lanes>;

unsigned tz(int64_t V) { return V == 0 ? ExactAlign : std::min<unsigned>(std::countr_zero(uint64_t(V)), 62); }
int64_t floorDiv(int64_t A, int64_t B) { return A / B - ((A % B != 0) && ((A < 0) != (B < 0))); }
int64_t floorMod(int64_t A, int64_t B) { return A - floorDiv(A, B) * B; }
int64_t pow2(unsigned K) { return int64_t(1) << std::min(K, 62u); }
bool isPow2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }
unsigned log2of(int64_t V) { return std::countr_zero(uint64_t(V)); }
RestKind maxKind(RestKind A, RestKind B) { return std::max(A, B); }

bool allEqual(const Table &T) {
  return std::all_of(T.begin(), T.end(), [&](int64_t V) { return V == T[0]; });
}

Table mapTable(const Table &T, auto F) {
  Table Out;
  for (unsigned L = 0; L < Lanes; ++L)
    Out[L] = F(T[L]);
  return Out;
}

/// Puts a value in canonical form so that equal abstract values compare equal.
ThreadValue normalize(ThreadValue V) {
  if (V.Rest == RestKind::Const) {
    for (int64_t &X : V.Lane)
      X += V.RestConst;
    V.RestConst = 0;
    V.Align = ExactAlign;
  } else {
    V.RestConst = 0;
    if (V.Align >= 62)
      V.Align = 62;
  }
  if (V.Rest == RestKind::PerLane)
    for (int64_t &X : V.Lane)
      X = V.Align >= 62 ? X : floorMod(X, pow2(V.Align));
  return V;
}

/// Alignment of a lane-constant value as a whole (its Rest and its lane part).
unsigned wholeAlign(const ThreadValue &V) { return std::min(V.Align, tz(V.Lane[0])); }

ThreadValue boolSplit(SplitKind S, uint32_t SureOther, bool Assumed) {
  ThreadValue V = ThreadValue::top();
  V.Split = S;
  V.SureOther = SureOther;
  V.Assumed = Assumed;
  return V;
}

ThreadValue withAssumed(ThreadValue V, bool Assumed) {
  V.Assumed = V.Assumed || Assumed;
  return V;
}

ThreadValue kindOnly(RestKind K, bool Assumed) {
  ThreadValue V = K == RestKind::WarpUniform ? ThreadValue::warpUniform() : ThreadValue::uniform();
  V.Assumed = Assumed;
  return V;
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

bool ThreadValue::uniformWithin(unsigned G) const {
  if (Rest == RestKind::PerLane)
    return false;
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
         Split == O.Split && SureOther == O.SureOther && Assumed == O.Assumed;
}

std::string ThreadValue::str() const {
  std::ostringstream S;
  static const char *Kinds[] = {"const", "block", "warp", "lane"};
  S << Kinds[int(Rest)] << " align=" << Align << " lanes=[";
  for (unsigned L = 0; L < Lanes; ++L)
    S << (L ? "," : "") << Lane[L];
  S << "] mono=" << int(Mono) << " split=" << int(Split);
  return S.str();
}

ThreadValue join(const ThreadValue &A, const ThreadValue &B) {
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
  return normalize(R);
}

ThreadValue opaque(const std::vector<ThreadValue> &Ops) {
  RestKind K = RestKind::BlockUniform;
  bool Assumed = false;
  for (const ThreadValue &V : Ops) {
    Assumed = Assumed || V.Assumed;
    if (!V.laneConstant())
      return withAssumed(ThreadValue::top(), Assumed);
    K = maxKind(K, V.Rest);
  }
  return kindOnly(K, Assumed);
}

ThreadValue neg(const ThreadValue &A) {
  if (A.Split != SplitKind::None)
    return opaque({A});
  ThreadValue R = A;
  R.Lane = mapTable(A.Lane, [](int64_t X) { return -X; });
  return normalize(R);
}

ThreadValue add(const ThreadValue &A, const ThreadValue &B) {
  if (A.Split != SplitKind::None || B.Split != SplitKind::None)
    return opaque({A, B});
  ThreadValue R;
  for (unsigned L = 0; L < Lanes; ++L)
    R.Lane[L] = A.Lane[L] + B.Lane[L];
  R.Rest = maxKind(A.Rest, B.Rest);
  R.Align = std::min(A.Align, B.Align);
  R.Assumed = A.Assumed || B.Assumed;
  // A monotone index plus something uniform stays monotone.
  if (A.Mono != MonoCoord::None && B.blockUniform())
    R.Mono = A.Mono;
  else if (B.Mono != MonoCoord::None && A.blockUniform())
    R.Mono = B.Mono;
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
    R.Lane = mapTable(A.Lane, [&](int64_t X) { return X * *K; });
    R.Align = std::min(A.Align + tz(*K), 62u);
    R.Assumed = Assumed;
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
  case BitOp::And: return X & M;
  case BitOp::Or: return X | M;
  case BitOp::Xor: return X ^ M;
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

namespace {

bool holds(CompareOp Op, int64_t D) {
  switch (Op) {
  case CompareOp::LT: return D < 0;
  case CompareOp::LE: return D <= 0;
  case CompareOp::GT: return D > 0;
  case CompareOp::GE: return D >= 0;
  case CompareOp::EQ: return D == 0;
  case CompareOp::NE: return D != 0;
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

} // namespace

ThreadValue compare(CompareOp Op, const ThreadValue &A, const ThreadValue &B) {
  const bool Assumed = A.Assumed || B.Assumed;
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
    return boolSplit(D.Mono != MonoCoord::None ? SplitKind::Boundary : SplitKind::Data, 0, Assumed);
  // Relational: lanes disagree iff a threshold t ≡ 0 (mod 2^Align) falls
  // between the smallest and the largest lane part.
  const int64_t Off = (Op == CompareOp::LE || Op == CompareOp::GT) ? 1 : 0;
  const int64_t Lo = *std::min_element(T.begin(), T.end()) - Off;
  const int64_t Hi = *std::max_element(T.begin(), T.end()) - Off;
  if (floorDiv(Hi, Mod) == floorDiv(Lo, Mod))
    return kindOnly(D.Rest, Assumed);
  return boolSplit(D.Mono != MonoCoord::None ? SplitKind::Boundary : SplitKind::Threshold, 0, Assumed);
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
  if (A.laneConstant() || B.laneConstant()) {
    auto [S, Sure] = splitOf(A.laneConstant() ? B : A);
    return boolSplit(S, Sure, Assumed);
  }
  auto [SA, MA] = splitOf(A);
  auto [SB, MB] = splitOf(B);
  if (IsAnd) {
    // A subset of a single thread/lane is still one.
    for (SplitKind K : {SplitKind::SingleThread, SplitKind::SingleLane})
      if (SA == K || SB == K)
        return boolSplit(K, 0, Assumed);
  }
  if (SA == SplitKind::Boundary && SB == SplitKind::Boundary)
    return boolSplit(SplitKind::Boundary, 0, Assumed);
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

namespace {

std::string laneRange(unsigned From, unsigned To) {
  return From == To ? "lane " + std::to_string(From)
                    : "lanes " + std::to_string(From) + "-" + std::to_string(To);
}

/// How the lanes in M differ from the others, in words.
std::string describeMask(uint32_t M) {
  const int N = std::popcount(M);
  if (N == 0 || N == 32)
    return "";
  if (M == 0x55555555u || M == 0xAAAAAAAAu)
    return "even and odd lanes take different paths";
  for (uint32_t X : {M, ~M})
    if (std::popcount(X) == 1)
      return "lane " + std::to_string(std::countr_zero(X)) + " takes a different path from the other 31 lanes";
  for (uint32_t X : {M, ~M}) {
    const int K = std::popcount(X);
    if (X == (K == 32 ? ~0u : (1u << K) - 1)) // a prefix 0..K-1
      return laneRange(0, K - 1) + " and " + laneRange(K, 31) + " take different paths";
  }
  for (unsigned P = 4; P <= 16; P *= 2)
    for (uint32_t X : {M, ~M}) {
      const unsigned R = std::countr_zero(X);
      uint32_t Every = 0;
      for (unsigned L = R; L < 32; L += P)
        Every |= 1u << L;
      if (X == Every)
        return "every " + std::to_string(P) + "th lane (lanes " + std::to_string(R) + ", " + std::to_string(R + P) +
               ", ...) takes a different path from the others";
    }
  for (unsigned G = 2; G <= 8; G *= 2) {
    uint32_t Alt = 0;
    for (unsigned L = 0; L < 32; ++L)
      if ((L / G) % 2 == 0)
        Alt |= 1u << L;
    if (M == Alt || M == ~Alt)
      return "alternating groups of " + std::to_string(G) + " lanes take different paths";
  }
  return std::to_string(N) + " of the 32 lanes take a different path from the other " + std::to_string(32 - N);
}

} // namespace

std::string describeSplit(const ThreadValue &Cond) {
  const ThreadValue C = toBool(Cond);
  if (C.laneConstant())
    return "";
  if (auto M = C.trueLanes())
    return describeMask(*M);
  switch (C.Split) {
  case SplitKind::Boundary:
    return "threads on either side of the bound take different paths (only the warp that straddles it splits)";
  case SplitKind::SingleThread:
    return "one thread of the block takes a different path from all the others";
  case SplitKind::SingleLane:
    return "at most one lane of each warp takes a different path from the other lanes";
  case SplitKind::Threshold:
    return "the lanes below a threshold take a different path from the lanes above it";
  case SplitKind::Data:
  case SplitKind::None:
    if (C.SureOther != 0 && C.SureOther != ~0u) {
      const std::string S = describeMask(C.SureOther);
      if (!S.empty())
        return S;
    }
    return "lanes take different paths depending on per-thread data";
  }
  return "";
}

} // namespace clang::tidy::occlint
