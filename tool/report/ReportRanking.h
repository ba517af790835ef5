// Where to start: each launch finding's estimated loss for its launch, in
// Nsight Compute's "Est. Speedup" sense (the share of lanes, SMs or the
// tail wave that is wasted: an upper bound on what fixing it gains), so that
// the report can list the findings that cost most first (docs/report.md,
// "Where to start"). Occupancy-only findings (a register cliff, the block
// cap) have no such estimate: occupancy is not the goal by itself, so they
// rank below every finding with one, the lowest occupancy first.
#pragma once

#include "checks/FindingLoss.h"
#include "facts/FactsRecords.h"

#include <optional>
#include <string>

namespace occlint {

// Each launch check's own estimate (checks/FindingLoss.h, declared with the
// check: CheckDeclaration::launchLoss).
using clang::tidy::occlint::FindingLoss;

/// The loss a finding of `Check` stands for on launch `L` (on L's GPU): the
/// check's declared estimate; NotEstimated for a check without one.
FindingLoss estimateFindingLoss(const std::string &Check, const clang::tidy::occlint::LaunchRecord &L);

/// What a launch weighs in the program, from its size alone: the blocks it
/// launches over the blocks the GPU holds at once at the launch's occupancy,
/// a number of waves (fractional: a 2-block grid on 132 SMs at one block
/// per SM is 2/132 of one). What each thread does is not known, so it is
/// taken equal across launches: the estimate orders findings, it does not
/// time them. Without --weights the report ranks by loss times this.
struct LaunchWeight {
  enum class Basis {
    Exact,     // the grid is known
    Bound,     // the grid is known only by its upper bound: `waves` at that bound
    Unbounded, // nothing bounds the grid (sized from the data): taken as one full wave
  };
  Basis basis = Basis::Unbounded;
  double waves = 1;
  int64_t gridBlocks = 0; // Exact, Bound: the (most) blocks
};

LaunchWeight estimateLaunchWeight(const clang::tidy::occlint::LaunchRecord &L);

/// "0.8% of a wave (2 blocks)", "under 0.1% of a wave (1 block)", "12.4 waves",
/// "at most 3.1 waves", "1 wave or more (grid not known)".
std::string describeLaunchWeight(const LaunchWeight &W);

/// Whether A ranks before B by what they cost the program: the launches
/// that cannot start, then the estimated losses (the launch's loss times
/// its weight, largest first), then the occupancy-only findings (heaviest
/// launch first, then the lowest occupancy), then the rest.
bool ranksBefore(const FindingLoss &A, const LaunchWeight &WeightA, const FindingLoss &B, const LaunchWeight &WeightB);

/// "96.9% of lanes masked off", "up to 20.0% (tail wave)", "cannot start",
/// "occupancy 50.0%", "not estimated".
std::string describeLoss(const FindingLoss &Loss);

} // namespace occlint
