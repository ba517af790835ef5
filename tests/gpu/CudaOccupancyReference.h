// The inputs of cuda_occupancy.h (the reference of the differential tests),
// built from our ArchLimits and a kernel configuration, one way for every
// differential test. Include only where OCCLINT_HAVE_CUDA_OCCUPANCY_H is
// defined, after <cuda_occupancy.h>.
#pragma once

#include "gpu/GpuDatabase.h"

#include <cstdint>
#include <optional>

namespace occlint::occref {

/// cudaOccDeviceProp of Arch with NumSms SMs.
inline cudaOccDeviceProp referenceDeviceProp(const ArchLimits &arch, int numSms) {
  cudaOccDeviceProp prop;
  prop.computeMajor = arch.major;
  prop.computeMinor = arch.minor;
  prop.maxThreadsPerBlock = arch.maxThreadsPerBlock;
  prop.maxThreadsPerMultiprocessor = arch.maxThreadsPerSM;
  prop.regsPerBlock = arch.regsPerBlock;
  prop.regsPerMultiprocessor = arch.regsPerSM;
  prop.warpSize = arch.warpSize;
  prop.sharedMemPerBlock = static_cast<size_t>(arch.sharedMemPerBlock);
  prop.sharedMemPerMultiprocessor = static_cast<size_t>(arch.sharedMemPerSM);
  prop.numSms = numSms;
  prop.sharedMemPerBlockOptin = static_cast<size_t>(arch.sharedMemPerBlockOptin);
  prop.reservedSharedMemPerBlock = static_cast<size_t>(arch.reservedSharedMemPerBlock);
  return prop;
}

/// cudaOccFuncAttributes of a kernel: maxThreadsPerBlock is MaxThreads (the
/// __launch_bounds__ maximum) or the device's; partitioned global caching off,
/// no virtual resources, as the runtime has it.
inline cudaOccFuncAttributes referenceFuncAttributes(const ArchLimits &arch, int regs, int64_t staticSmem,
                                                     std::optional<int64_t> optin, int barriers,
                                                     std::optional<int> maxThreads) {
  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = maxThreads ? *maxThreads : arch.maxThreadsPerBlock;
  attr.numRegs = regs;
  attr.sharedSizeBytes = static_cast<size_t>(staticSmem);
  attr.partitionedGCConfig = PARTITIONED_GC_OFF;
  attr.shmemLimitConfig = optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
  attr.maxDynamicSharedSizeBytes = optin ? static_cast<size_t>(*optin) : 0;
  attr.numBlockBarriers = barriers;
  attr.virtualResourceCount = 0;
  return attr;
}

} // namespace occlint::occref
