// The occupancy staircase of an async-copy pipeline over its depth.
//
// A pipelined kernel keeps S buffers ("stages") of one tile each in shared
// memory: while it computes on one stage, the copies into the next ones are
// in flight (../shared/seeds/async-tile-pipelines.txt). Each stage costs the
// same bytes, so the block's shared memory is
//
//     shared(S) = other + S * bytesPerStage
//
// and, with the registers and block fixed, the blocks per SM fall in steps as
// S grows, until the block no longer fits. The staircase is that function for
// S = 1 .. the first depth that does not fit (or a cap), each point from the
// exact occupancy engine (gpu/Occupancy.h): where one stage more, or one
// fewer, crosses a step. Nothing here is an estimate. A depth whose ring
// exceeds the 48 KB default per block is counted as opted in
// (cudaFuncAttributeMaxDynamicSharedMemorySize up to the arch's maximum):
// that is how a ring that deep is declared, in dynamic shared memory.
#pragma once

#include "gpu/Occupancy.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace occlint {

struct PipelineDepthPoint {
  int stages = 0;
  int64_t sharedBytes = 0; // the block's shared memory at this depth (static part: other + stages)
  bool fits = false;       // the block can start at all at this depth
  int blocksPerSM = 0;
  double occupancy = 0;
  unsigned bindingLimiters = 0; // Limiter bits
  /// The overlap estimate at this depth's blocks per SM (gpu/PipelineOverlap.h):
  /// one tile, per SM, where the tile's work and the GPU's rates are known.
  std::optional<double> loadNs, computeNs, latencyNs;
  std::optional<bool> coversLoad; // (stages - 1) * max(load, compute) >= latency + load
};

/// The most stages the staircase goes to when every depth fits.
inline constexpr int kMaxPipelineStages = 16;

/// The staircase for S = 1 .. maxStages, stopping after the first depth that
/// does not fit. Kernel.staticSharedMem is the shared memory that is not the
/// ring's (`other`); the launch's dynamic shared memory is added as usual.
std::vector<PipelineDepthPoint> pipelineStaircase(const TargetGpu &Gpu, const KernelResources &Kernel,
                                                  const LaunchShape &Launch, int64_t BytesPerStage,
                                                  int MaxStages = kMaxPipelineStages);

/// "1:8 2:6 3:4 4:3 5:-": blocks per SM at each depth ('-' where the block
/// does not fit).
std::string describeStaircase(const std::vector<PipelineDepthPoint> &Points);

} // namespace occlint
