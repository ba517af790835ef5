#include "gpu/FindingShares.h"

namespace occlint {

double maskedLaneShare(int64_t ThreadsPerBlock, int64_t WarpSize) {
  if (ThreadsPerBlock <= 0 || WarpSize <= 0)
    return 0;
  const int64_t Lanes = (ThreadsPerBlock + WarpSize - 1) / WarpSize * WarpSize;
  return double(Lanes - ThreadsPerBlock) / double(Lanes);
}

double idleSmShare(int64_t GridBlocks, int64_t SmCount) {
  if (GridBlocks <= 0 || SmCount <= 0 || GridBlocks >= SmCount)
    return 0;
  return double(SmCount - GridBlocks) / double(SmCount);
}

double tailWaveShareUpTo(int64_t FullWaves) { return 1.0 / double(FullWaves + 1); }

} // namespace occlint
