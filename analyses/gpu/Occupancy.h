// The occupancy engine: how many blocks of a kernel fit on one SM, what limits
// them, and what would change the answer. Written from the documented rules;
// tests/OccupancyDifferentialTest.cpp checks it against cuda_occupancy.h.
#pragma once

#include "gpu/GpuDatabase.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct KernelResources {
  int registersPerThread = 0;
  int64_t staticSharedMem = 0;               // bytes, from ptxas ("smem") or an estimate
  int barriers = 1;                          // named barriers used (ptxas "bar"); the runtime defaults to 1
  std::optional<int> launchBoundsMaxThreads; // __launch_bounds__(max, ...)
  std::optional<int> launchBoundsMinBlocks;  // __launch_bounds__(max, min)
  std::optional<int> maxRegisters;           // __maxnreg__ / -maxrregcount
};

struct LaunchShape {
  int blockX = 1, blockY = 1, blockZ = 1;
  int64_t dynamicSharedMem = 0;
  /// cudaFuncAttributeMaxDynamicSharedMemorySize set for this kernel (opt-in).
  std::optional<int64_t> optinDynamicSharedMem;
  std::optional<int64_t> gridBlocks; // total blocks (x*y*z), for waves
  /// The engine ignores it. Set by who computed the occupancy of a launch
  /// whose amount is a runtime value: dynamicSharedMem is then the most the
  /// launch can be given, and the occupancy the same at every amount up to it
  /// (gpu/OccupancyUnknownSharedMemory.h).
  bool dynamicSharedMemIsUpperBound = false;
  int threadsPerBlock() const { return blockX * blockY * blockZ; }
};

enum class Limiter : unsigned {
  None = 0,
  Warps = 1u << 0,
  Registers = 1u << 1,
  SharedMemory = 1u << 2,
  Blocks = 1u << 3,
  Barriers = 1u << 4,
};

/// Why a launch cannot start at all (nothing fits).
enum class LaunchFailure {
  None,
  TooManyThreads,                // > maxThreadsPerBlock, or > __launch_bounds__ max
  InvalidBlockSize,              // 0 threads
  TooManyRegistersPerThread,     // > maxRegsPerThread
  TooManyRegistersPerBlock,      // regs * threads > regsPerBlock / register file
  TooMuchSharedMemory,           // static + dynamic > per-block limit (opt-in aware)
  DynamicSharedMemoryNeedsOptin, // dynamic > 48 KB default without opt-in
  // Added:
  TooManyBarriers,        // numBlockBarriers leaves no block (barrier limit 0)
  InvalidKernelResources, // negative registers, shared memory or barriers
  InvalidGridSize,        // a grid of no blocks (a dimension is 0 or negative)
};

/// The most registers per thread any launch can use: ptxas never allocates
/// more than 255 (R0..R254), whatever cuda_occupancy.h's
/// cudaOccRegAllocationMaxPerThread says (256 from 7.0 on).
inline constexpr int kMaxRegistersPerThread = 255;
/// CUDA's per-dimension block limits (every compute capability >= 2.0).
inline constexpr int kMaxBlockDimX = 1024, kMaxBlockDimY = 1024, kMaxBlockDimZ = 64;

struct NextStep {
  std::string resource; // "registers", "shared memory", "block size"
  int64_t reduceBy = 0; // registers per thread / bytes fewer
  int blocksPerSM = 0;  // blocks after the step
  double occupancy = 0; // occupancy after the step
  std::string text;     // "2 fewer registers per thread admits 2 blocks (25.0%)"
  // Added: the value after the step (registers per thread, shared memory
  // bytes per block (static + dynamic), or threads per block).
  int64_t newValue = 0;
};

struct OccupancyResult {
  LaunchFailure failure = LaunchFailure::None;
  std::string failureReason; // one line, empty when the launch can start

  int blocksPerSM = 0; // resident blocks per SM
  int warpsPerBlock = 0;
  int activeWarpsPerSM = 0;
  int maxWarpsPerSM = 0;
  double occupancy = 0; // activeWarps / maxWarps, in [0,1]

  // Block limit per resource (as cuda_occupancy.h's cudaOccResult).
  // INT_MAX means "no limit" (no registers, no shared memory, barrier limit
  // not enforced on this arch or no barriers), exactly as the header reports.
  // They are filled even when the launch fails (as far as they could be computed).
  int limitWarps = 0, limitRegisters = 0, limitSharedMem = 0, limitBlocks = 0, limitBarriers = 0;
  unsigned limitingFactors = 0; // Limiter bits, exactly as cudaOccResult::limitingFactors: every
                                // resource whose limit equals the minimum; note the header sets
                                // them before applying the barrier limit, so when barriers lower
                                // the result the earlier bits stay (see docs/occupancy-model.md)
  unsigned bindingLimiters = 0; // Added: Limiter bits of every resource whose limit equals the
                                // final block count (0 when the launch fails for another reason)

  int allocatedRegistersPerBlock = 0;
  int64_t allocatedSharedMemPerBlock = 0;
  int64_t sharedMemConfigPerSM = 0;   // the carveout chosen
  int64_t sharedMemLimitPerBlock = 0; // Added: per-block limit used (incl. reserved from 8.0 on)

  // Waves, when a grid is given.
  std::optional<int64_t> fullWaves;
  std::optional<int64_t> tailBlocks; // blocks in the partial last wave, 0 when none
  std::optional<double> waves;       // grid / (blocksPerSM * SMs)

  std::vector<NextStep> nextSteps;
};

OccupancyResult computeOccupancy(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch);

/// Added: computeOccupancy without nextSteps (the cheap part; waves are
/// filled). The differential test sweeps millions of configurations with it.
OccupancyResult computeOccupancyLimits(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch);

std::string limiterName(Limiter l); // "warps", "registers", "shared memory", "blocks", "barriers"
/// Added: the names of every Limiter bit set, ", "-separated ("none" for 0).
std::string limiterNames(unsigned limiterBits);
/// Added: "too many threads", ... ("none" for LaunchFailure::None).
std::string launchFailureName(LaunchFailure f);

} // namespace occlint
