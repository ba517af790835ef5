// The CUDA runtime's block size search, cudaOccupancyMaxPotentialBlockSize
// (and ...VariableSMem, ...WithFlags): which block size the runtime suggests
// for a kernel, and the smallest grid that fills the GPU with it. It walks the
// block sizes down in steps of the warp size and asks the occupancy engine
// (gpu/Occupancy.h) at each; the rules, and which function of
// cuda_occupancy.h / cuda_runtime.h each comes from, are in the .cpp and in
// docs/occupancy-model.md. tests/gpu/OccupancyBlockSizeSearchDifferentialTest.cpp
// compares it with cuda_occupancy.h's cudaOccMaxPotentialOccupancyBlockSize.
#pragma once

#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

/// cudaOccupancyDefault and cudaOccupancyDisableCachingOverride (driver_types.h).
inline constexpr unsigned kOccupancyDefault = 0x00;
inline constexpr unsigned kOccupancyDisableCachingOverride = 0x01;

/// What the program passes to the runtime besides the kernel.
struct BlockSizeSearchInputs {
  /// Dynamic shared memory per block, whatever the block size
  /// (cudaOccupancyMaxPotentialBlockSize's dynamicSMemSize).
  int64_t dynamicSharedMem = 0;
  /// Dynamic shared memory as a function of the block size
  /// (...VariableSMem's blockSizeToDynamicSMemSize). When set,
  /// dynamicSharedMem is ignored, as the runtime ignores it.
  std::function<int64_t(int blockSize)> dynamicSharedMemFor;
  /// The largest block size the kernel is written for; 0 = no limit (the
  /// device's maximum). The kernel's __launch_bounds__ clamps it further.
  int blockSizeLimit = 0;
  /// kOccupancyDefault or kOccupancyDisableCachingOverride. The two differ only
  /// with partitioned global caching (a kernel compiled with -dlcm=ca on 5.2,
  /// 5.3, 6.1, 6.2), which the engine assumes off, as for every other kernel:
  /// with it off the header computes the same for both. Any other bit is an
  /// error.
  unsigned flags = kOccupancyDefault;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize set for the kernel (opt-in).
  std::optional<int64_t> optinDynamicSharedMem;
};

/// One block size the search asked the engine about.
struct BlockSizeCandidate {
  int blockSize = 0;
  int64_t dynamicSharedMem = 0;
  int blocksPerSM = 0;  // 0 when the engine says the block cannot launch
  int threadsPerSM = 0; // blockSize x blocksPerSM: what the search maximises
};

struct BlockSizeSearchResult {
  /// Non-empty when the inputs are invalid (one line; where cuda_occupancy.h
  /// returns CUDA_OCC_ERROR_INVALID_INPUT, or occlint cannot model them).
  /// Nothing else is meaningful then.
  std::string error;

  int blockSize = 0;                           // the suggestion; 0 when no block size can launch
  int minGridSize = 0;                         // blocksPerSM x gpu.smCount (0 with blockSize 0)
  int blocksPerSM = 0;                         // resident blocks per SM at blockSize
  int threadsPerSM = 0;                        // blockSize x blocksPerSM
  double occupancy = 0;                        // at blockSize, as computeOccupancy reports it (in warps)
  int64_t dynamicSharedMem = 0;                // at blockSize
  LaunchFailure failure = LaunchFailure::None; // why the largest size failed, when blockSize is 0

  /// The limit the walk started from: min(device maxThreadsPerBlock,
  /// blockSizeLimit if > 0, __launch_bounds__). 0 or below: nothing was tried.
  int blockSizeLimit = 0;
  /// The walk stopped because threadsPerSM reached the SM's thread maximum.
  bool stoppedAtFullOccupancy = false;
  /// Every block size asked, in order (largest first).
  std::vector<BlockSizeCandidate> tried;
};

/// cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, kernel,
/// dynamicSMemSize, blockSizeLimit) (or ...VariableSMemWithFlags) for Kernel on
/// Gpu, with the engine's device state (cacheConfig PREFER_NONE, carveout
/// DEFAULT, partitioned global caching off).
BlockSizeSearchResult maxPotentialBlockSize(const TargetGpu &gpu, const KernelResources &kernel,
                                            const BlockSizeSearchInputs &inputs = {});

/// One line: "block size 1024, min grid 264 (2 blocks/SM x 132 SMs, 100.0%
/// occupancy); tried 1024, stopped at full occupancy", or why there is none.
std::string describeBlockSizeSearch(const BlockSizeSearchResult &r, const TargetGpu &gpu);

} // namespace occlint
