// The runtime's block size search. Where each rule comes from (CUDA 13
// headers in /usr/local/cuda/include; written from what they do, not copied):
//
//  - The start of the walk (cuda_runtime.h,
//    cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags, which every
//    cudaOccupancyMaxPotentialBlockSize* overload calls): a blockSizeLimit of 0
//    means the device's maxThreadsPerBlock; the limit is then lowered to the
//    device's maxThreadsPerBlock and to the function's (cudaFuncAttributes::
//    maxThreadsPerBlock, which __launch_bounds__ lowers). cuda_occupancy.h's
//    cudaOccMaxPotentialOccupancyBlockSize has no blockSizeLimit argument and
//    starts from min(device, cudaOccFuncAttributes::maxThreadsPerBlock): the
//    same walk when that attribute holds min(launch bounds, blockSizeLimit).
//  - The granularity (both): the walk starts at the limit rounded up to a
//    multiple of the warp size and steps down by the warp size while above 0;
//    each size tried is min(limit, that multiple), so a limit that is not a
//    warp multiple is itself tried first, then the warp multiples below it.
//  - The dynamic shared memory (both): the constant dynamicSMemSize, or, when
//    a blockSizeToDynamicSMemSize function is given, its value for each size
//    tried (the constant is then ignored).
//  - The score and the tie-break (both): blocks per SM from
//    cudaOccMaxActiveBlocksPerMultiprocessor (our computeOccupancyLimits, 0 for
//    a launch that fails) times the block size, in threads, not warps. A size
//    replaces the best only when its score is strictly greater, so among equal
//    scores the largest block size, tried first, wins.
//  - The early exit (both): the walk stops as soon as the best score equals
//    maxThreadsPerMultiprocessor.
//  - The answer (both): blockSize = the best size (0 when every size scored
//    0), minGridSize = its blocks per SM x the SM count (numSms /
//    cudaDevAttrMultiProcessorCount).
//  - Invalid inputs (cuda_occupancy.h's cudaOccInputCheck): numSms <= 0,
//    numRegs < 0 and a function maxThreadsPerBlock <= 0 are
//    CUDA_OCC_ERROR_INVALID_INPUT. An error of one step ends the walk with
//    it; of our inputs only a negative size from the size function can cause
//    one (the header's other step error, a block needing more shared memory
//    than the largest carveout while within its per-block limit, needs an
//    arch whose opt-in maximum plus reserve exceeds its largest carveout,
//    and data/gpus.json has none). A negative blockSizeLimit makes the
//    runtime's walk try nothing: block size 0, min grid 0, no error.
#include "gpu/OccupancyBlockSizeSearch.h"

#include <algorithm>
#include <cstdio>

namespace occlint {
namespace {

std::string formatted(const char *fmt, long long a, long long b = 0) {
  char buf[256];
  snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

/// cudaOccInputCheck's rules for what our inputs can express, plus what
/// occlint cannot model. Empty when the search can run.
std::string invalidInput(const TargetGpu &gpu, const KernelResources &kernel, const BlockSizeSearchInputs &in) {
  if (gpu.smCount <= 0)
    return formatted("the SM count (%lld) is not positive", gpu.smCount);
  if (gpu.arch.warpSize <= 0 || gpu.arch.maxThreadsPerBlock <= 0 || gpu.arch.maxThreadsPerSM <= 0)
    return "the arch's warp size, threads per block or threads per SM are not positive";
  if (kernel.registersPerThread < 0)
    return formatted("negative registers per thread (%lld)", kernel.registersPerThread);
  if (kernel.launchBoundsMaxThreads && *kernel.launchBoundsMaxThreads <= 0)
    return formatted("__launch_bounds__ maximum %lld is not positive", *kernel.launchBoundsMaxThreads);
  if (kernel.staticSharedMem < 0 || kernel.barriers < 0)
    return "negative static shared memory or barriers";
  if (!in.dynamicSharedMemFor && in.dynamicSharedMem < 0)
    return formatted("negative dynamic shared memory (%lld B)", in.dynamicSharedMem);
  if (in.optinDynamicSharedMem && *in.optinDynamicSharedMem < 0)
    return "negative cudaFuncAttributeMaxDynamicSharedMemorySize";
  if (in.flags & ~(kOccupancyDefault | kOccupancyDisableCachingOverride))
    return formatted("unknown occupancy flags 0x%llx", in.flags);
  return {};
}

} // namespace

BlockSizeSearchResult maxPotentialBlockSize(const TargetGpu &gpu, const KernelResources &kernel,
                                            const BlockSizeSearchInputs &in) {
  BlockSizeSearchResult r;
  r.error = invalidInput(gpu, kernel, in);
  if (!r.error.empty())
    return r;
  const ArchLimits &arch = gpu.arch;

  // The start: 0 = the device's maximum, then the device's and the function's.
  int limit = in.blockSizeLimit == 0 ? arch.maxThreadsPerBlock : in.blockSizeLimit;
  limit = std::min(limit, arch.maxThreadsPerBlock);
  if (kernel.launchBoundsMaxThreads)
    limit = std::min(limit, *kernel.launchBoundsMaxThreads);
  r.blockSizeLimit = limit;

  const int warp = arch.warpSize;
  const int start = limit > 0 ? (limit + warp - 1) / warp * warp : 0;
  for (int aligned = start; aligned > 0; aligned -= warp) {
    BlockSizeCandidate c;
    c.blockSize = std::min(limit, aligned);
    c.dynamicSharedMem = in.dynamicSharedMemFor ? in.dynamicSharedMemFor(c.blockSize) : in.dynamicSharedMem;
    LaunchShape shape;
    shape.blockX = c.blockSize;
    shape.dynamicSharedMem = c.dynamicSharedMem;
    shape.optinDynamicSharedMem = in.optinDynamicSharedMem;
    const OccupancyResult occ = computeOccupancyLimits(gpu, kernel, shape);
    if (occ.failure == LaunchFailure::InvalidKernelResources) {
      // Only the size function can get here (negative bytes): the header
      // would stop the walk with CUDA_OCC_ERROR_INVALID_INPUT.
      r = BlockSizeSearchResult{};
      r.error =
          formatted("the dynamic shared memory for %lld threads is negative (%lld B)", c.blockSize, c.dynamicSharedMem);
      return r;
    }
    if (r.tried.empty())
      r.failure = occ.failure;
    c.blocksPerSM = occ.failure == LaunchFailure::None ? occ.blocksPerSM : 0;
    c.threadsPerSM = c.blockSize * c.blocksPerSM;
    r.tried.push_back(c);
    if (c.threadsPerSM > r.threadsPerSM) { // strictly: the larger size keeps a tie
      r.blockSize = c.blockSize;
      r.blocksPerSM = c.blocksPerSM;
      r.threadsPerSM = c.threadsPerSM;
      r.dynamicSharedMem = c.dynamicSharedMem;
      r.occupancy = occ.occupancy;
      r.failure = LaunchFailure::None;
    }
    if (r.threadsPerSM == arch.maxThreadsPerSM) {
      r.stoppedAtFullOccupancy = true;
      break;
    }
  }
  r.minGridSize = r.blocksPerSM * gpu.smCount;
  return r;
}

std::string describeBlockSizeSearch(const BlockSizeSearchResult &r, const TargetGpu &gpu) {
  if (!r.error.empty())
    return "invalid input: " + r.error;
  char buf[512];
  if (r.blockSize == 0) {
    if (r.tried.empty())
      snprintf(buf, sizeof buf, "no block size: the block size limit is %d, nothing to try", r.blockSizeLimit);
    else
      snprintf(buf, sizeof buf,
               "no block size: none of the %zu sizes tried (%d down to %d) can launch (%d "
               "threads: %s)",
               r.tried.size(), r.tried.front().blockSize, r.tried.back().blockSize, r.tried.front().blockSize,
               launchFailureName(r.failure).c_str());
    return buf;
  }
  snprintf(buf, sizeof buf,
           "block size %d, min grid %d (%d block%s/SM x %d SMs, %.1f%% occupancy); tried %d "
           "down to %d (%zu size%s)%s",
           r.blockSize, r.minGridSize, r.blocksPerSM, r.blocksPerSM == 1 ? "" : "s", gpu.smCount, r.occupancy * 100.0,
           r.tried.front().blockSize, r.tried.back().blockSize, r.tried.size(), r.tried.size() == 1 ? "" : "s",
           r.stoppedAtFullOccupancy ? ", stopped at full occupancy" : "");
  return buf;
}

} // namespace occlint
