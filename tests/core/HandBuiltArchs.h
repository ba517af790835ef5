// The A100's sm_80 limits written out by hand (CUDA C Programming Guide and
// cuda_occupancy.h), so the engine's tests do not depend on data/gpus.json.
#pragma once

#include "core/GpuDatabase.h"

namespace occlint::testing {

inline ArchLimits handBuiltSm80() {
  ArchLimits a;
  a.name = "sm_80";
  a.major = 8;
  a.minor = 0;
  a.family = "Ampere";
  a.warpSize = 32;
  a.maxThreadsPerBlock = 1024;
  a.maxThreadsPerSM = 2048;
  a.maxWarpsPerSM = 64;
  a.maxBlocksPerSM = 32;
  a.regsPerSM = 65536;
  a.regsPerBlock = 65536;
  a.regAllocUnit = 256;
  a.maxRegsPerThread = 256; // cudaOccRegAllocationMaxPerThread
  a.sharedMemPerSM = 167936;         // 164 KB
  a.sharedMemPerBlock = 49152;       // 48 KB
  a.sharedMemPerBlockOptin = 166912; // 163 KB
  a.smemAllocUnit = 128;
  a.reservedSharedMemPerBlock = 1024;
  a.maxBarriersPerSM = 64;
  a.carveoutBytes = {0, 8192, 16384, 32768, 65536, 102400, 135168, 167936};
  a.subPartitionsPerSM = 4;
  a.barrierLimitEnforced = false;
  return a;
}

} // namespace occlint::testing
