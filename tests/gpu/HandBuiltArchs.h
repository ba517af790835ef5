// The A100's sm_80 limits written out by hand (CUDA C Programming Guide and
// cuda_occupancy.h), so the engine's tests do not depend on data/gpus.json;
// sm_90 (H100/H200) and sm_89 (RTX 4090, L40S) as their differences from it.
// Also the kernel resources the engine's tests launch with.
#pragma once

#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include <cstdint>

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
  a.maxRegsPerThread = 256;          // cudaOccRegAllocationMaxPerThread
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

/// sm_90: 228 KB per SM, 227 KB opt-in per block, the barrier limit enforced.
inline ArchLimits handBuiltSm90() {
  ArchLimits a = handBuiltSm80();
  a.name = "sm_90";
  a.major = 9;
  a.family = "Hopper";
  a.sharedMemPerSM = 233472;
  a.sharedMemPerBlockOptin = 232448;
  a.carveoutBytes = {0, 8192, 16384, 32768, 65536, 102400, 135168, 167936, 200704, 233472};
  a.barrierLimitEnforced = true;
  return a;
}

/// sm_89: 1536 threads (48 warps) and 24 blocks per SM, 100 KB per SM.
inline ArchLimits handBuiltSm89() {
  ArchLimits a = handBuiltSm80();
  a.name = "sm_89";
  a.minor = 9;
  a.family = "Ada Lovelace";
  a.maxThreadsPerSM = 1536;
  a.maxWarpsPerSM = 48;
  a.maxBlocksPerSM = 24;
  a.sharedMemPerSM = 102400;
  a.sharedMemPerBlockOptin = 101376;
  a.maxBarriersPerSM = 24;
  a.carveoutBytes = {0, 8192, 16384, 32768, 65536, 102400};
  return a;
}

/// A kernel of `regs` registers per thread, `staticSmem` bytes of static
/// shared memory and `barriers` named barriers.
inline KernelResources kernel(int regs, int64_t staticSmem = 0, int barriers = 1) {
  KernelResources k;
  k.registersPerThread = regs;
  k.staticSharedMem = staticSmem;
  k.barriers = barriers;
  return k;
}

} // namespace occlint::testing
