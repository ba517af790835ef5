// Where to start: each launch finding's estimated loss for its launch, in
// Nsight Compute's "Est. Speedup" sense (the share of lanes, SMs or the
// tail wave that is wasted: an upper bound on what fixing it gains), so that
// the report can list the findings that cost most first (docs/report.md,
// "Where to start"). Occupancy-only findings (a register cliff, the block
// cap) have no such estimate: occupancy is not the goal by itself, so they
// rank below every finding with one, the lowest occupancy first.
#pragma once

#include "facts/FactsRecords.h"

#include <optional>
#include <string>

namespace occlint {

struct FindingLoss {
  enum class Kind {
    CannotStart,   // cuda-launch-invalid-config: the whole launch
    Estimated,     // lanes, SMs or the tail wave wasted: `loss`
    OccupancyOnly, // the launch's occupancy is below what it could be: `occupancy`
    NotEstimated,  // no estimate for this check
  };
  Kind kind = Kind::NotEstimated;
  double loss = 0;                  // [0, 1], Estimated
  std::optional<double> occupancy;  // the launch's, OccupancyOnly
  std::string what;                 // "lanes masked off", "SMs idle", "tail wave", "cannot start", "occupancy"
};

/// The loss a finding of `Check` stands for on launch `L` (on L's GPU).
FindingLoss estimateFindingLoss(const std::string &Check, const clang::tidy::occlint::LaunchRecord &L);

/// Whether A ranks before B: the launches that cannot start, then the
/// estimated losses (largest first), then the occupancy-only findings
/// (lowest occupancy first), then the rest.
bool ranksBefore(const FindingLoss &A, const FindingLoss &B);

/// "96.9% of lanes masked off", "up to 20.0% (tail wave)", "cannot start",
/// "occupancy 50.0%", "not estimated".
std::string describeLoss(const FindingLoss &Loss);

} // namespace occlint
