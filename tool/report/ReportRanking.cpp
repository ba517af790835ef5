#include "report/ReportRanking.h"

#include "report/ReportModel.h"

#include <algorithm>

namespace occlint {

using clang::tidy::occlint::LaunchRecord;

FindingLoss estimateFindingLoss(const std::string &Check, const LaunchRecord &L) {
  FindingLoss Out;
  const bool CanStart = L.occupancy && L.occupancy->failure == LaunchFailure::None;
  if (Check == "cuda-launch-invalid-config") {
    Out.kind = FindingLoss::Kind::CannotStart;
    Out.loss = 1.0;
    Out.what = "cannot start";
    return Out;
  }
  if (Check == "cuda-launch-block-not-warp-multiple" && L.shape) {
    // The share of issued lanes that are masked off (the check's own estimate).
    const int64_t Threads = L.shape->threadsPerBlock();
    const int64_t Lanes = (Threads + 31) / 32 * 32;
    if (Threads > 0) {
      Out.kind = FindingLoss::Kind::Estimated;
      Out.loss = double(Lanes - Threads) / double(Lanes);
      Out.what = "lanes masked off";
    }
    return Out;
  }
  if (Check == "cuda-launch-tiny-grid" && L.shape && L.shape->gridBlocks && L.gpu.smCount > 0) {
    // The SMs the grid leaves idle.
    const int64_t Grid = *L.shape->gridBlocks, Sms = L.gpu.smCount;
    if (Grid > 0 && Grid < Sms) {
      Out.kind = FindingLoss::Kind::Estimated;
      Out.loss = double(Sms - Grid) / double(Sms);
      Out.what = "SMs idle";
    }
    return Out;
  }
  if (Check == "cuda-launch-tail-wave" && CanStart && L.occupancy->fullWaves && L.occupancy->tailBlocks) {
    // The partial wave, if it takes as long as a full one (the check's "up to").
    Out.kind = FindingLoss::Kind::Estimated;
    Out.loss = 1.0 / double(*L.occupancy->fullWaves + 1);
    Out.what = "tail wave";
    return Out;
  }
  if ((Check == "cuda-occupancy-register-cliff" || Check == "cuda-occupancy-block-cap") && CanStart) {
    Out.kind = FindingLoss::Kind::OccupancyOnly;
    Out.occupancy = L.occupancy->occupancy;
    Out.what = "occupancy";
    return Out;
  }
  return Out;
}

bool ranksBefore(const FindingLoss &A, const FindingLoss &B) {
  if (A.kind != B.kind)
    return int(A.kind) < int(B.kind);
  switch (A.kind) {
  case FindingLoss::Kind::Estimated:
    return A.loss > B.loss;
  case FindingLoss::Kind::OccupancyOnly:
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
