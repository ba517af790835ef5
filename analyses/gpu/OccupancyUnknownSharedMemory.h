// The occupancy of a launch whose dynamic shared memory is a runtime value.
//
// A launch can be given any amount of dynamic shared memory from 0 up to the
// most its kernel accepts: the per-block default (48 KB) without the opt-in
// attribute (cudaFuncAttributeMaxDynamicSharedMemorySize), the attribute's
// value with it, and never more than fits the per-block limit beside the
// kernel's static shared memory; a larger amount does not launch. Blocks per
// SM never grow with the amount: the shared-memory limit is the SM's shared
// memory (one carveout, the default preference, for every amount that
// launches) over what one block allocates, and the other limits do not read
// the amount. So when the two ends of that range give the same blocks per SM,
// every amount between gives them too, and the occupancy is known without the
// value (a kernel whose warps or registers allow no more blocks than the
// largest amount leaves room for).
#pragma once

#include "gpu/Occupancy.h"

#include <cstdint>
#include <optional>

namespace occlint {

struct OccupancyForAnyDynamicSharedMemory {
  /// The occupancy at the largest amount, the launch's own whatever its
  /// amount. Its next steps are the ones at the largest amount (a step's gain
  /// there is at most its gain at the real amount), none about shared memory
  /// (there is no amount to reduce from); shared memory is in the limiter
  /// bits only when it binds at 0 bytes of dynamic shared memory as well
  /// (the static shared memory alone limits the blocks).
  OccupancyResult result;
  /// The most dynamic shared memory the launch can be given, in bytes.
  int64_t largestDynamicSharedMemory = 0;
};

/// `launch.dynamicSharedMem` is ignored (it is the unknown); its
/// `optinDynamicSharedMem` is the kernel's opt-in attribute, when set.
/// nullopt when the amount would change the blocks per SM, or when the
/// launch cannot start even with no dynamic shared memory.
std::optional<OccupancyForAnyDynamicSharedMemory>
occupancyForAnyDynamicSharedMemory(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch);

} // namespace occlint
