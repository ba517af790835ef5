// The shares of a GPU that a launch finding says are wasted, in Nsight
// Compute's "Est. Speedup" sense: the checks' messages print them, and the
// report ranks findings by them (checks/FindingLoss.h). One formula each, so
// that the message and the ranking cannot disagree.
#pragma once

#include <cstdint>

namespace occlint {

/// The share of a block's issued lanes that are masked off: a block of 100
/// threads runs 4 warps, 128 lanes, 28 of them idle: 28 / 128. 0 for an
/// empty block.
double maskedLaneShare(int64_t ThreadsPerBlock, int64_t WarpSize = 32);

/// The share of the SMs a grid of fewer blocks than SMs leaves idle: 100
/// blocks on 132 SMs leave 32 / 132. 0 when the grid fills every SM.
double idleSmShare(int64_t GridBlocks, int64_t SmCount);

/// What a partial last wave can cost at most, if it takes as long as a full
/// wave: one of F + 1 waves, 1 / (F + 1).
double tailWaveShareUpTo(int64_t FullWaves);

} // namespace occlint
