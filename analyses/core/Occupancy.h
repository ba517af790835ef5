// The occupancy engine: how many blocks of a kernel fit on one SM, what limits
// them, and what would change the answer. Written from the documented rules;
// tests/OccupancyDifferentialTest.cpp checks it against cuda_occupancy.h.
#pragma once

#include "GpuDatabase.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct KernelResources {
  int registersPerThread = 0;
  int64_t staticSharedMem = 0;   // bytes, from ptxas ("smem") or an estimate
  int barriers = 1;              // named barriers used (ptxas "bar"); the runtime defaults to 1
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
  TooManyThreads,         // > maxThreadsPerBlock, or > __launch_bounds__ max
  InvalidBlockSize,       // 0 threads
  TooManyRegistersPerThread, // > maxRegsPerThread
  TooManyRegistersPerBlock,  // regs * threads > regsPerBlock / register file
  TooMuchSharedMemory,       // static + dynamic > per-block limit (opt-in aware)
  DynamicSharedMemoryNeedsOptin, // dynamic > 48 KB default without opt-in
};

struct NextStep {
  std::string resource;     // "registers", "shared memory", "block size"
  int64_t reduceBy = 0;     // registers per thread / bytes fewer
  int blocksPerSM = 0;      // blocks after the step
  double occupancy = 0;     // occupancy after the step
  std::string text;         // "2 fewer registers per thread admits 2 blocks (25.0%)"
};

struct OccupancyResult {
  LaunchFailure failure = LaunchFailure::None;
  std::string failureReason;  // one line, empty when the launch can start

  int blocksPerSM = 0;        // resident blocks per SM
  int warpsPerBlock = 0;
  int activeWarpsPerSM = 0;
  int maxWarpsPerSM = 0;
  double occupancy = 0;       // activeWarps / maxWarps, in [0,1]

  // Block limit per resource (as cuda_occupancy.h's cudaOccResult).
  int limitWarps = 0, limitRegisters = 0, limitSharedMem = 0, limitBlocks = 0, limitBarriers = 0;
  unsigned limitingFactors = 0; // Limiter bits: every resource whose limit equals blocksPerSM

  int allocatedRegistersPerBlock = 0;
  int64_t allocatedSharedMemPerBlock = 0;
  int64_t sharedMemConfigPerSM = 0; // the carveout chosen

  // Waves, when a grid is given.
  std::optional<int64_t> fullWaves;
  std::optional<int64_t> tailBlocks;   // blocks in the partial last wave, 0 when none
  std::optional<double> waves;         // grid / (blocksPerSM * SMs)

  std::vector<NextStep> nextSteps;
};

OccupancyResult computeOccupancy(const TargetGpu &gpu, const KernelResources &kernel,
                                 const LaunchShape &launch);

std::string limiterName(Limiter l); // "warps", "registers", "shared memory", "blocks", "barriers"

} // namespace occlint
