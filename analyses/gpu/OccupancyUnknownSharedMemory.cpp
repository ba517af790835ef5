#include "gpu/OccupancyUnknownSharedMemory.h"

#include <algorithm>

namespace occlint {

namespace {

OccupancyResult limitsWith(const TargetGpu &gpu, const KernelResources &kernel, LaunchShape launch, int64_t bytes) {
  launch.dynamicSharedMem = bytes;
  return computeOccupancyLimits(gpu, kernel, launch);
}

} // namespace

std::optional<OccupancyForAnyDynamicSharedMemory>
occupancyForAnyDynamicSharedMemory(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &shape) {
  // An attribute above the GPU's per-block limit (an unknown value is
  // INT64_MAX) allows what the GPU allows.
  LaunchShape launch = shape;
  if (launch.optinDynamicSharedMem)
    launch.optinDynamicSharedMem =
        std::clamp<int64_t>(*launch.optinDynamicSharedMem, 0, gpu.arch.sharedMemPerBlockOptin);
  const OccupancyResult none = limitsWith(gpu, kernel, launch, 0);
  if (none.failure != LaunchFailure::None)
    return std::nullopt; // fails whatever the amount: not this file's question
  // The largest amount that launches. Failing is monotone in the amount (each
  // failure compares it, or the total with it, against a fixed limit), so a
  // bisection between 0 (launches) and one byte past the attribute or the
  // default per-block limit (fails, or is never given) finds it.
  const int64_t ceiling = launch.optinDynamicSharedMem ? *launch.optinDynamicSharedMem : gpu.arch.sharedMemPerBlock;
  int64_t launches = 0, fails = ceiling + 1;
  while (fails - launches > 1) {
    const int64_t middle = launches + (fails - launches) / 2;
    if (limitsWith(gpu, kernel, launch, middle).failure == LaunchFailure::None)
      launches = middle;
    else
      fails = middle;
  }
  const OccupancyResult largest = limitsWith(gpu, kernel, launch, launches);
  if (largest.blocksPerSM != none.blocksPerSM)
    return std::nullopt;
  LaunchShape atLargest = launch;
  atLargest.dynamicSharedMem = launches;
  OccupancyForAnyDynamicSharedMemory out;
  out.largestDynamicSharedMemory = launches;
  out.result = computeOccupancy(gpu, kernel, atLargest);
  const unsigned sharedMemory = unsigned(Limiter::SharedMemory);
  if (!(none.bindingLimiters & sharedMemory))
    out.result.bindingLimiters &= ~sharedMemory;
  if (!(none.limitingFactors & sharedMemory))
    out.result.limitingFactors &= ~sharedMemory;
  std::erase_if(out.result.nextSteps, [](const NextStep &s) { return s.resource == "shared memory"; });
  return out;
}

} // namespace occlint
