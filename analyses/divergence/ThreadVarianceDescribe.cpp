// Describing thread values in words: the debug form of a value and which
// lanes take different paths when a branch tests a condition (the message
// text of the divergence findings).
#include "divergence/ThreadVariance.h"

#include <bit>
#include <sstream>
#include <string>

namespace clang::tidy::occlint {

std::string ThreadValue::str() const {
  std::ostringstream S;
  static const char *Kinds[] = {"const", "block", "warp", "lane"};
  S << Kinds[int(Rest)] << " align=" << Align << " lanes=[";
  for (unsigned L = 0; L < Lanes; ++L)
    S << (L ? "," : "") << Lane[L];
  S << "] mono=" << int(Mono) << " split=" << int(Split);
  if (SpanLog2)
    S << " span=2^" << SpanLog2;
  if (AtBound)
    S << " at-bound";
  if (GroupLog2)
    S << " groups=2^" << GroupLog2;
  return S.str();
}

namespace {

std::string laneRange(unsigned From, unsigned To) {
  return From == To ? "lane " + std::to_string(From) : "lanes " + std::to_string(From) + "-" + std::to_string(To);
}

/// How the lanes in M differ from the others, in words, over the first W
/// lanes (the threads a warp holds).
std::string describeMask(uint32_t M, unsigned W) {
  const uint32_t All = W >= 32 ? ~0u : (1u << W) - 1;
  M &= All;
  const uint32_t Rest = ~M & All;
  const int N = std::popcount(M);
  if (N == 0 || N == int(W))
    return "";
  if (M == (0x55555555u & All) || M == (0xAAAAAAAAu & All))
    return "even and odd lanes take different paths";
  for (uint32_t X : {M, Rest})
    if (std::popcount(X) == 1)
      return "lane " + std::to_string(std::countr_zero(X)) + " takes a different path from the other " +
             std::to_string(W - 1) + " lanes";
  for (uint32_t X : {M, Rest}) {
    const int K = std::popcount(X);
    if (X == (K == 32 ? ~0u : (1u << K) - 1)) // a prefix 0..K-1
      return laneRange(0, K - 1) + " and " + laneRange(K, W - 1) + " take different paths";
  }
  for (unsigned P = 4; P <= 16 && P < W; P *= 2)
    for (uint32_t X : {M, Rest}) {
      const unsigned R = std::countr_zero(X);
      uint32_t Every = 0;
      for (unsigned L = R; L < W; L += P)
        Every |= 1u << L;
      if (X == Every)
        return "every " + std::to_string(P) + "th lane (lanes " + std::to_string(R) + ", " + std::to_string(R + P) +
               ", ...) takes a different path from the others";
    }
  for (unsigned G = 2; G <= 8 && 2 * G <= W; G *= 2) {
    uint32_t Alt = 0;
    for (unsigned L = 0; L < W; ++L)
      if ((L / G) % 2 == 0)
        Alt |= 1u << L;
    if (M == Alt || Rest == Alt)
      return "alternating groups of " + std::to_string(G) + " lanes take different paths";
  }
  return std::to_string(N) + " of the " + std::to_string(W) + " lanes take a different path from the other " +
         std::to_string(W - N) +
         (W < 32 ? " (the block's " + std::to_string(W) + " threads fill part of one warp)" : "");
}

} // namespace

std::string describeSplit(const ThreadValue &Cond, unsigned WarpLanes) {
  const unsigned W = WarpLanes == 0 || WarpLanes > 32 ? 32 : WarpLanes;
  const ThreadValue C = toBool(Cond);
  if (C.laneConstant())
    return "";
  if (auto M = C.trueLanes())
    return describeMask(*M, W);
  switch (C.Split) {
  case SplitKind::Boundary:
    if (C.SureOther != 0 && C.SureOther != ~0u) // a lane pattern narrowed by the bound
      if (const std::string S = describeMask(~C.SureOther, W); !S.empty())
        return S + " (and the threads past the bound)";
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
      const std::string S = describeMask(C.SureOther, W);
      if (!S.empty())
        return S;
    }
    return Cond.FromData ? "lanes take different paths depending on per-thread data"
                         : "lanes take different paths depending on a value computed from the thread index";
  }
  return "";
}

} // namespace clang::tidy::occlint
