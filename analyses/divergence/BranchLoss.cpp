#include "divergence/BranchLoss.h"

#include <algorithm>
#include <bit>

namespace clang::tidy::occlint {

namespace {

/// How one run of the branch splits: the share of the warps that split and,
/// in a split warp, the share of its lanes on the taken side (the `then`
/// path, the loop's body, a switch's first case).
struct SplitShape {
  double SplitWarps = 1;
  double TakenLanes = 0.5;
  /// A loop whose trip counts differ by one iteration at most (a strided
  /// loop, a bound in the block): only its last iteration splits.
  bool LastIterationOnly = false;
};

SplitShape splitShapeOf(const DivergenceBranch &B) {
  SplitShape S;
  const double OneWarpOfTheBlock = 1.0 / double(B.WarpsPerBlock ? B.WarpsPerBlock : AssumedWarpsPerBlock);
  if (B.What == "switch")
    return S; // the cases' lanes are not modelled: half idle on each
  const ThreadValue C = toBool(B.Cond);
  const unsigned L = std::clamp(B.WarpLanes, 1u, 32u);
  const uint32_t Filled = L == 32 ? ~0u : (1u << L) - 1;
  if (const std::optional<uint32_t> M = C.trueLanes()) {
    const int True = std::popcount(*M & Filled);
    S.TakenLanes = double(True) / double(L);
    if (True == 0 || True == int(L))
      S.SplitWarps = 0; // the lanes a warp holds agree
    return S;
  }
  switch (C.Split) {
  case SplitKind::Boundary:
    if (C.SureOther != 0) { // a lane pattern narrowed by a bound: its sure lanes split every warp
      S.TakenLanes = 1.0 - double(std::popcount(C.SureOther & Filled)) / double(L);
      return S;
    }
    S.SplitWarps = OneWarpOfTheBlock;
    S.LastIterationOnly = B.Loop;
    return S;
  case SplitKind::SingleThread:
    S.SplitWarps = OneWarpOfTheBlock;
    S.TakenLanes = 1.0 / double(L);
    return S;
  case SplitKind::SingleLane:
    S.TakenLanes = 1.0 / double(L);
    return S;
  default:         // a threshold within each warp, data, an unknown pattern: half the lanes
    if (C.AtBound) // differences only from assignments under a boundary guard
      S.SplitWarps = OneWarpOfTheBlock;
    return S;
  }
}

} // namespace

double estimatedLoss(const DivergenceBranch &B) {
  if (B.FunctionWork <= 0)
    return 0;
  const SplitShape S = splitShapeOf(B);
  double IdlePerRun;
  if (B.Loop) {
    const double Body = double(B.WorkTaken);
    IdlePerRun = S.LastIterationOnly ? Body / std::max(B.Trips, 1.0) * 0.5 : Body * (1.0 - S.TakenLanes);
  } else {
    IdlePerRun = double(B.WorkTaken) * (1.0 - S.TakenLanes) + double(B.WorkOther) * S.TakenLanes;
  }
  const double Loss = IdlePerRun * B.Repeat * S.SplitWarps * B.WorkShare / B.FunctionWork;
  return std::clamp(Loss, 0.0, 1.0);
}

double predictedActiveThreadsPerWarp(double LanesPerWarp, double Loss) {
  return LanesPerWarp * (1.0 - std::clamp(Loss, 0.0, 31.0 / 32.0));
}

} // namespace clang::tidy::occlint
