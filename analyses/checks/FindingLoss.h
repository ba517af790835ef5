// What one launch finding costs, for the report's ranking ("Where to start",
// docs/report.md; tool/report/ReportRanking.h): each launch check declares
// how it estimates its own loss (CheckDeclaration::launchLoss), from the
// record of the launch the tool keeps (facts/FactsRecords.h), with the same
// formulas its message prints (gpu/FindingShares.h).
#pragma once

#include "facts/FactsRecords.h"

#include <optional>
#include <string>

namespace clang::tidy::occlint {

struct FindingLoss {
  enum class Kind {
    CannotStart,   // cuda-launch-invalid-config: the whole launch
    Estimated,     // lanes, SMs or the tail wave wasted: `loss`
    OccupancyOnly, // the launch's occupancy is below what it could be: `occupancy`
    NotEstimated,  // no estimate for this check
  };
  Kind kind = Kind::NotEstimated;
  double loss = 0;                 // [0, 1], Estimated
  std::optional<double> occupancy; // the launch's, OccupancyOnly
  std::string what;                // "lanes masked off", "SMs idle", "tail wave", "cannot start", "occupancy"
};

/// A check's estimate of its finding's loss on a launch (on the record's GPU).
using LaunchLossEstimate = FindingLoss (*)(const LaunchRecord &);

/// The loss of an occupancy-only finding (register cliff, block cap): the
/// launch's occupancy, when it can start.
FindingLoss occupancyOnlyLoss(const LaunchRecord &L);

} // namespace clang::tidy::occlint
