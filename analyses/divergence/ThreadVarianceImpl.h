// Internal to the thread-variance domain (ThreadVariance*.cpp), not a public
// interface: the integer helpers and the canonical-form constructors that
// the lattice, the arithmetic and the conditions all build values with.
#pragma once

#include "divergence/ThreadVariance.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace clang::tidy::occlint::detail {

using Table = std::array<int64_t, Lanes>;

inline unsigned tz(int64_t V) { return V == 0 ? ExactAlign : std::min<unsigned>(std::countr_zero(uint64_t(V)), 62); }
inline int64_t floorDiv(int64_t A, int64_t B) { return A / B - ((A % B != 0) && ((A < 0) != (B < 0))); }
inline int64_t floorMod(int64_t A, int64_t B) { return A - floorDiv(A, B) * B; }
inline int64_t pow2(unsigned K) { return int64_t(1) << std::min(K, 62u); }
inline RestKind maxKind(RestKind A, RestKind B) { return std::max(A, B); }

Table mapTable(const Table &T, auto F) {
  Table Out;
  for (unsigned L = 0; L < Lanes; ++L)
    Out[L] = F(T[L]);
  return Out;
}

/// Puts a value in canonical form so that equal abstract values compare equal.
inline ThreadValue normalize(ThreadValue V) {
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

inline ThreadValue boolSplit(SplitKind S, uint32_t SureOther, bool Assumed) {
  ThreadValue V = ThreadValue::top();
  V.Split = S;
  V.SureOther = SureOther;
  V.Assumed = Assumed;
  return V;
}

/// The aligned lane groups a boolean is uniform in, as log2 (5: the warp,
/// for a value the same in all lanes; ThreadValue::GroupLog2 for a split).
inline unsigned groupLog2Of(const ThreadValue &V) { return V.laneConstant() ? 5 : V.GroupLog2; }

inline ThreadValue withAssumed(ThreadValue V, bool Assumed) {
  V.Assumed = V.Assumed || Assumed;
  return V;
}

inline ThreadValue kindOnly(RestKind K, bool Assumed) {
  ThreadValue V = K == RestKind::WarpUniform ? ThreadValue::warpUniform() : ThreadValue::uniform();
  V.Assumed = Assumed;
  return V;
}

} // namespace clang::tidy::occlint::detail
