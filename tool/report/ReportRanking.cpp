#include "report/ReportRanking.h"

#include "report/ReportModel.h"

#include "checks/CheckRegistry.h"

#include <algorithm>

namespace occlint {

using clang::tidy::occlint::LaunchRecord;

FindingLoss estimateFindingLoss(const std::string &Check, const LaunchRecord &L) {
  const auto *Declaration = clang::tidy::occlint::findCheckDeclaration(Check);
  return Declaration && Declaration->launchLoss ? Declaration->launchLoss(L) : FindingLoss{};
}

LaunchWeight estimateLaunchWeight(const LaunchRecord &L) {
  LaunchWeight W;
  if (L.shape && L.shape->gridBlocks) {
    W.basis = LaunchWeight::Basis::Exact;
    W.gridBlocks = *L.shape->gridBlocks;
  } else if (L.gridBlocksAtMost) {
    W.basis = LaunchWeight::Basis::Bound;
    W.gridBlocks = *L.gridBlocksAtMost;
  } else {
    return W; // one full wave
  }
  // The blocks resident at once: the occupancy's, or, where it is not known
  // (no resource report, a launch that cannot start), as many as the threads
  // and the block cap allow (so the weight is the least the grid can be).
  int64_t PerSm = 0;
  if (L.occupancy && L.occupancy->failure == LaunchFailure::None && L.occupancy->blocksPerSM > 0) {
    PerSm = L.occupancy->blocksPerSM;
  } else if (L.shape && L.shape->threadsPerBlock() > 0) {
    const int64_t Warps = (L.shape->threadsPerBlock() + L.gpu.arch.warpSize - 1) / std::max(L.gpu.arch.warpSize, 1);
    PerSm = std::min<int64_t>(L.gpu.arch.maxWarpsPerSM / std::max<int64_t>(Warps, 1), L.gpu.arch.maxBlocksPerSM);
  }
  const int64_t Resident = std::max<int64_t>(PerSm, 1) * std::max(L.gpu.smCount, 1);
  W.waves = double(std::max<int64_t>(W.gridBlocks, 0)) / double(Resident);
  return W;
}

std::string describeLaunchWeight(const LaunchWeight &W) {
  if (W.basis == LaunchWeight::Basis::Unbounded)
    return "1 wave or more (grid not known)";
  char Buffer[64];
  if (W.waves < 0.0005) // a `<<<1, 1>>>` step: 1/4,224 of a wave on an H100
    std::snprintf(Buffer, sizeof Buffer, "under 0.1%% of a wave");
  else if (W.waves < 1)
    std::snprintf(Buffer, sizeof Buffer, "%.1f%% of a wave", 100.0 * W.waves);
  else
    std::snprintf(Buffer, sizeof Buffer, "%.1f waves", W.waves);
  const std::string Blocks = std::to_string(W.gridBlocks) + (W.gridBlocks == 1 ? " block" : " blocks");
  if (W.basis == LaunchWeight::Basis::Bound)
    return "at most " + std::string(Buffer) + " (" + Blocks + ")";
  return std::string(Buffer) + " (" + Blocks + ")";
}

bool ranksBefore(const FindingLoss &A, const LaunchWeight &WeightA, const FindingLoss &B, const LaunchWeight &WeightB) {
  if (A.kind != B.kind)
    return int(A.kind) < int(B.kind);
  switch (A.kind) {
  case FindingLoss::Kind::Estimated:
    return A.loss * WeightA.waves > B.loss * WeightB.waves;
  case FindingLoss::Kind::OccupancyOnly:
    if (WeightA.waves != WeightB.waves)
      return WeightA.waves > WeightB.waves;
    return A.occupancy.value_or(1) < B.occupancy.value_or(1);
  default:
    return false;
  }
}

std::string describeLoss(const FindingLoss &Loss) {
  switch (Loss.kind) {
  case FindingLoss::Kind::CannotStart:
    return "cannot start";
  case FindingLoss::Kind::Estimated:
    return (Loss.what == "tail wave" ? "up to " : "") + reportPercent(Loss.loss) + " " + Loss.what;
  case FindingLoss::Kind::OccupancyOnly:
    return "occupancy " + (Loss.occupancy ? reportPercent(*Loss.occupancy) : std::string("unknown"));
  case FindingLoss::Kind::NotEstimated:
    break;
  }
  return "not estimated";
}

} // namespace occlint
