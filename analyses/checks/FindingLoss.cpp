#include "checks/FindingLoss.h"

namespace clang::tidy::occlint {

FindingLoss occupancyOnlyLoss(const LaunchRecord &L) {
  FindingLoss Out;
  if (L.occupancy && L.occupancy->failure == ::occlint::LaunchFailure::None) {
    Out.kind = FindingLoss::Kind::OccupancyOnly;
    Out.occupancy = L.occupancy->occupancy;
    Out.what = "occupancy";
  }
  return Out;
}

} // namespace clang::tidy::occlint
