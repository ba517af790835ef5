// The occupancy engine. Every step mirrors a function of cuda_occupancy.h
// (CUDA 13), written from its documented rules, not by including it; the
// header is the reference of tests/OccupancyDifferentialTest.cpp, which
// compares the two on millions of configurations per arch. The model, step by
// step, with the header function each step mirrors: docs/occupancy-model.md.
#include "gpu/Occupancy.h"

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdio>

namespace occlint {
namespace {

int64_t divideRoundUp(int64_t x, int64_t y) { return (x + y - 1) / y; }
int64_t roundUp(int64_t x, int64_t y) { return y * divideRoundUp(x, y); }
int clampToInt(int64_t v) { return v > INT_MAX ? INT_MAX : static_cast<int>(v); }

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

std::string percent(double occupancy) { return format("%.1f%%", occupancy * 100.0); }

std::string bytes(int64_t n) {
  if (n >= 1024 && n % 1024 == 0)
    return format("%lld KB", static_cast<long long>(n / 1024));
  return format("%lld B", static_cast<long long>(n));
}

/// cudaOccAlignUpShmemSizeVoltaPlus: the smallest carveout >= Size. Returns
/// false when Size is above the largest carveout (the header's INVALID_INPUT).
bool alignUpToCarveout(const ArchLimits &arch, int64_t &size) {
  for (int64_t c : arch.carveoutBytes)
    if (c >= size) {
      size = c;
      return true;
    }
  return false;
}

/// cudaOccMaxBlocksPerSMRegsLimit with partitioned global caching off.
int registerLimit(const ArchLimits &arch, int64_t regs, int64_t warpsPerBlock, int subPartitions,
                  int64_t &allocatedPerBlock) {
  const int64_t unit = std::max(1, arch.regAllocUnit);
  const int64_t regsPerWarp = roundUp(regs * arch.warpSize, unit);
  allocatedPerBlock = regsPerWarp * warpsPerBlock;
  // The hardware checks the per-block limit as if every sub-partition got
  // the same number of warps: round the warps up to the sub-partitions.
  const int64_t regsAssumed = regsPerWarp * roundUp(warpsPerBlock, subPartitions);
  if (arch.regsPerBlock < regsAssumed || arch.regsPerBlock < allocatedPerBlock || regs > arch.maxRegsPerThread)
    return 0;
  if (regsPerWarp == 0)
    return INT_MAX;
  // Registers live in the sub-partitions: whole warps per sub-partition.
  const int64_t warpsPerSubPartition = (arch.regsPerSM / subPartitions) / regsPerWarp;
  return clampToInt(warpsPerSubPartition * subPartitions / warpsPerBlock);
}

struct SmemOutcome {
  int limit = 0;
  int64_t allocated = 0;     // static + reserved + dynamic, rounded to the unit
  int64_t total = 0;         // the same before rounding
  int64_t configPerSM = 0;   // the carveout used
  int64_t limitPerBlock = 0; // the per-block limit used (with the reserved part from 8.0)
  bool dynamicOverAttribute = false;
  bool totalOverLimit = false;
};

/// cudaOccMaxBlocksPerSMSmemLimit with the default device state
/// (cacheConfig PREFER_NONE, carveout DEFAULT).
SmemOutcome sharedMemLimit(const ArchLimits &arch, int64_t staticSmem, int64_t dynamicSmem,
                           const std::optional<int64_t> &optin) {
  SmemOutcome out;
  const int64_t unit = std::max(1, arch.smemAllocUnit);
  const int64_t staticWithReserved = staticSmem + arch.reservedSharedMemPerBlock;
  out.total = staticWithReserved + dynamicSmem;
  out.allocated = roundUp(out.total, unit);

  // cudaOccSMemPerBlock: the opt-in limit applies when the function opted in
  // (FUNC_SHMEM_LIMIT_OPTIN) and could use more than the default per block.
  const int64_t maxUsage = staticWithReserved + (optin ? *optin : 0);
  out.limitPerBlock = arch.sharedMemPerBlock;
  if (arch.major >= 7 && optin && maxUsage > arch.sharedMemPerBlock)
    out.limitPerBlock = arch.sharedMemPerBlockOptin;
  if (arch.major >= 8) // from Ampere on the driver's reserve comes on top
    out.limitPerBlock += arch.reservedSharedMemPerBlock;

  out.dynamicOverAttribute = optin && dynamicSmem > *optin;
  out.totalOverLimit = out.allocated > out.limitPerBlock;

  // cudaOccSMemPerMultiprocessor: with the default carveout, the preference
  // is sharedMemPerMultiprocessor (aligned up to a carveout from 7.0 on).
  int64_t preference = arch.sharedMemPerSM;
  if (arch.major >= 7)
    alignUpToCarveout(arch, preference);
  out.configPerSM = preference;
  if (out.dynamicOverAttribute || out.totalOverLimit) {
    out.limit = 0;
    return out;
  }
  if (preference < out.allocated) {
    // The preference is ignored when not even one block fits it.
    if (arch.major >= 7) {
      out.configPerSM = out.allocated;
      alignUpToCarveout(arch, out.configPerSM);
    } else {
      out.configPerSM = arch.sharedMemPerSM;
    }
  }
  out.limit = out.allocated > 0 ? clampToInt(out.configPerSM / out.allocated) : INT_MAX;
  return out;
}

struct Inputs {
  int64_t threads = 0;
  int64_t regs = 0;
  int64_t staticSmem = 0, dynamicSmem = 0;
  std::optional<int64_t> optin;
  int barriers = 0;
};

void fillWaves(const TargetGpu &gpu, const LaunchShape &launch, OccupancyResult &r) {
  if (!launch.gridBlocks || r.blocksPerSM <= 0 || gpu.smCount <= 0)
    return;
  const int64_t grid = std::max<int64_t>(0, *launch.gridBlocks);
  const int64_t perWave = static_cast<int64_t>(r.blocksPerSM) * gpu.smCount;
  r.fullWaves = grid / perWave;
  r.tailBlocks = grid % perWave;
  r.waves = static_cast<double>(grid) / static_cast<double>(perWave);
}

OccupancyResult compute(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch) {
  const ArchLimits &arch = gpu.arch;
  OccupancyResult r;
  const int warpSize = std::max(1, arch.warpSize);
  r.maxWarpsPerSM = arch.maxThreadsPerSM / warpSize;

  auto fail = [&](LaunchFailure f, std::string why) {
    if (r.failure == LaunchFailure::None) {
      r.failure = f;
      r.failureReason = std::move(why);
    }
  };

  // Block shape. cudaOccMaxActiveBlocksPerMultiprocessor: blockSize <= 0 is
  // CUDA_OCC_ERROR_INVALID_INPUT; the per-dimension limits are the runtime's.
  if (launch.blockX <= 0 || launch.blockY <= 0 || launch.blockZ <= 0) {
    fail(LaunchFailure::InvalidBlockSize,
         format("block size %dx%dx%d has no threads", launch.blockX, launch.blockY, launch.blockZ));
    return r;
  }
  Inputs in;
  in.threads = static_cast<int64_t>(launch.blockX) * launch.blockY * launch.blockZ;

  in.regs = kernel.registersPerThread;
  if (kernel.maxRegisters && *kernel.maxRegisters > 0 && in.regs > *kernel.maxRegisters)
    in.regs = *kernel.maxRegisters; // __maxnreg__ / -maxrregcount caps what ptxas allocates
  in.staticSmem = kernel.staticSharedMem;
  in.dynamicSmem = launch.dynamicSharedMem;
  in.optin = launch.optinDynamicSharedMem;
  in.barriers = kernel.barriers;
  if (in.regs < 0 || in.staticSmem < 0 || in.dynamicSmem < 0 || in.barriers < 0 || (in.optin && *in.optin < 0)) {
    fail(LaunchFailure::InvalidKernelResources,
         format("negative resources: %lld registers, %lld B static + %lld B dynamic shared "
                "memory, %d barriers",
                static_cast<long long>(in.regs), static_cast<long long>(in.staticSmem),
                static_cast<long long>(in.dynamicSmem), in.barriers));
    return r;
  }

  const int64_t warpsPerBlock = divideRoundUp(in.threads, warpSize);
  r.warpsPerBlock = clampToInt(warpsPerBlock);

  // Threads: cudaOccMaxBlocksPerSMWarpsLimit gives 0 blocks above the device
  // maximum; __launch_bounds__ is not in the header (the runtime refuses it).
  if (in.threads > arch.maxThreadsPerBlock)
    fail(LaunchFailure::TooManyThreads,
         format("%lld threads per block exceed the maximum of %d on %s", static_cast<long long>(in.threads),
                arch.maxThreadsPerBlock, arch.name.c_str()));
  if (kernel.launchBoundsMaxThreads && in.threads > *kernel.launchBoundsMaxThreads)
    fail(LaunchFailure::TooManyThreads, format("%lld threads per block exceed __launch_bounds__(%d)",
                                               static_cast<long long>(in.threads), *kernel.launchBoundsMaxThreads));

  // The runtime's per-dimension limits (after the total, the likelier mistake).
  if (launch.blockX > kMaxBlockDimX || launch.blockY > kMaxBlockDimY || launch.blockZ > kMaxBlockDimZ)
    fail(LaunchFailure::InvalidBlockSize,
         format("block size %dx%dx%d exceeds the per-dimension maximum %dx%dx%d", launch.blockX, launch.blockY,
                launch.blockZ, kMaxBlockDimX, kMaxBlockDimY, kMaxBlockDimZ));

  // 1. Warps limit (cudaOccMaxBlocksPerSMWarpsLimit, partitioned GC off).
  r.limitWarps =
      in.threads > arch.maxThreadsPerBlock ? 0 : clampToInt((arch.maxThreadsPerSM / warpSize) / warpsPerBlock);

  // 2. Registers limit (cudaOccMaxBlocksPerSMRegsLimit).
  int64_t allocatedRegs = 0;
  const int subPartitions = std::max(1, arch.subPartitionsPerSM);
  r.limitRegisters = registerLimit(arch, in.regs, warpsPerBlock, subPartitions, allocatedRegs);
  // GP100 (6.0) has 2 sub-partitions, the rest of Pascal 4; the header only
  // lets a block run on 6.0 if it would also run with 4 sub-partitions.
  if (arch.major == 6 && arch.minor == 0 && r.limitRegisters != 0) {
    int64_t ignored = 0;
    if (registerLimit(arch, in.regs, warpsPerBlock, 4, ignored) == 0)
      r.limitRegisters = 0;
  }
  r.allocatedRegistersPerBlock = clampToInt(allocatedRegs);
  if (in.regs > kMaxRegistersPerThread || in.regs > arch.maxRegsPerThread)
    fail(LaunchFailure::TooManyRegistersPerThread,
         format("%lld registers per thread exceed the maximum of %d", static_cast<long long>(in.regs),
                std::min(kMaxRegistersPerThread, arch.maxRegsPerThread)));
  else if (r.limitRegisters == 0 && in.threads <= arch.maxThreadsPerBlock)
    fail(LaunchFailure::TooManyRegistersPerBlock,
         format("%lld registers x %lld threads need %lld registers per block (allocated per "
                "warp in units of %d), more than the %d a block can have on %s",
                static_cast<long long>(in.regs), static_cast<long long>(in.threads),
                static_cast<long long>(
                    std::max(allocatedRegs, roundUp(in.regs * warpSize, std::max(1, arch.regAllocUnit)) *
                                                roundUp(warpsPerBlock, subPartitions))),
                arch.regAllocUnit, std::min(arch.regsPerBlock, arch.regsPerSM), arch.name.c_str()));

  // 3. Block cap (cudaOccMaxBlocksPerMultiprocessor).
  r.limitBlocks = arch.maxBlocksPerSM;

  // 4. Shared memory limit (cudaOccMaxBlocksPerSMSmemLimit).
  const SmemOutcome smem = sharedMemLimit(arch, in.staticSmem, in.dynamicSmem, in.optin);
  r.limitSharedMem = smem.limit;
  r.allocatedSharedMemPerBlock = smem.allocated;
  r.sharedMemConfigPerSM = smem.configPerSM;
  r.sharedMemLimitPerBlock = smem.limitPerBlock;
  if (!in.optin && in.dynamicSmem > arch.sharedMemPerBlock)
    fail(LaunchFailure::DynamicSharedMemoryNeedsOptin,
         format("%lld B of dynamic shared memory exceed the %s default per block; opt in with "
                "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) (up to %s "
                "on %s)",
                static_cast<long long>(in.dynamicSmem), bytes(arch.sharedMemPerBlock).c_str(),
                bytes(arch.sharedMemPerBlockOptin).c_str(), arch.name.c_str()));
  else if (smem.dynamicOverAttribute)
    fail(LaunchFailure::TooMuchSharedMemory,
         format("%lld B of dynamic shared memory exceed the %lld B set with "
                "cudaFuncAttributeMaxDynamicSharedMemorySize",
                static_cast<long long>(in.dynamicSmem), static_cast<long long>(*in.optin)));
  else if (smem.totalOverLimit)
    fail(LaunchFailure::TooMuchSharedMemory,
         format("%lld B static + %lld B dynamic + %lld B reserved shared memory (%lld B "
                "allocated) exceed the per-block limit of %lld B on %s",
                static_cast<long long>(in.staticSmem), static_cast<long long>(in.dynamicSmem),
                static_cast<long long>(arch.reservedSharedMemPerBlock), static_cast<long long>(smem.allocated),
                static_cast<long long>(smem.limitPerBlock), arch.name.c_str()));

  // 5. The overall limit and the limiting factors, in the header's order:
  // min of registers, shared memory, warps, blocks (virtual resources are
  // unused: INT_MAX), the factor bits, then the barrier limit on top.
  int limit = std::min({r.limitRegisters, r.limitSharedMem, r.limitWarps, r.limitBlocks});
  unsigned factors = 0;
  if (limit == r.limitWarps)
    factors |= unsigned(Limiter::Warps);
  if (limit == r.limitRegisters)
    factors |= unsigned(Limiter::Registers);
  if (limit == r.limitSharedMem)
    factors |= unsigned(Limiter::SharedMemory);
  if (limit == r.limitBlocks)
    factors |= unsigned(Limiter::Blocks);
  // 6. Barriers (cudaOccMaxBlocksPerSMBlockBarrierLimit), from 9.0 on.
  if (arch.barrierLimitEnforced && in.barriers > 0) {
    r.limitBarriers = arch.maxBarriersPerSM / in.barriers;
    limit = std::min(limit, r.limitBarriers);
    if (limit == r.limitBarriers)
      factors |= unsigned(Limiter::Barriers);
  } else {
    r.limitBarriers = INT_MAX;
  }
  r.limitingFactors = factors;
  if (limit == 0)
    fail(LaunchFailure::TooManyBarriers, format("%d block barriers per block leave no block: %d per SM on %s",
                                                in.barriers, arch.maxBarriersPerSM, arch.name.c_str()));

  // The grid (after the block: cudaLaunchKernel checks the block first). A
  // launch that cannot start has no occupancy and no waves, whatever its
  // block would get.
  if (launch.gridBlocks && *launch.gridBlocks <= 0)
    fail(LaunchFailure::InvalidGridSize,
         format("a grid of %lld blocks cannot start", static_cast<long long>(*launch.gridBlocks)));

  if (r.failure != LaunchFailure::None)
    return r; // blocksPerSM, occupancy stay 0
  r.blocksPerSM = limit;
  const int limits[] = {r.limitWarps, r.limitRegisters, r.limitSharedMem, r.limitBlocks, r.limitBarriers};
  const Limiter bits[] = {Limiter::Warps, Limiter::Registers, Limiter::SharedMemory, Limiter::Blocks,
                          Limiter::Barriers};
  for (int i = 0; i < 5; ++i)
    if (limits[i] == limit)
      r.bindingLimiters |= unsigned(bits[i]);
  r.activeWarpsPerSM = clampToInt(static_cast<int64_t>(limit) * warpsPerBlock);
  r.occupancy = r.maxWarpsPerSM > 0 ? double(r.activeWarpsPerSM) / r.maxWarpsPerSM : 0.0;
  fillWaves(gpu, launch, r);
  return r;
}

// ---------------------------------------------------------------- next steps

/// Warps, the block cap and barriers do not move with registers or shared
/// memory: when one of them binds, fewer registers or bytes cannot add a block.
constexpr unsigned kFixedLimiters = unsigned(Limiter::Warps) | unsigned(Limiter::Blocks) | unsigned(Limiter::Barriers);

bool better(const OccupancyResult &a, const OccupancyResult &b) {
  return a.failure == LaunchFailure::None && a.occupancy > b.occupancy + 1e-12;
}

std::string blocksAndOccupancy(const OccupancyResult &r) {
  return format("%d block%s/SM (%s)", r.blocksPerSM, r.blocksPerSM == 1 ? "" : "s", percent(r.occupancy).c_str());
}

void registerSteps(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch,
                   const OccupancyResult &cur, std::vector<NextStep> &steps) {
  const bool failed =
      cur.failure == LaunchFailure::TooManyRegistersPerThread || cur.failure == LaunchFailure::TooManyRegistersPerBlock;
  const bool binds = cur.failure == LaunchFailure::None && (cur.bindingLimiters & unsigned(Limiter::Registers)) &&
                     !(cur.bindingLimiters & kFixedLimiters);
  if (!failed && !binds)
    return;
  int regs = kernel.registersPerThread;
  if (kernel.maxRegisters && *kernel.maxRegisters > 0)
    regs = std::min(regs, *kernel.maxRegisters);
  KernelResources k = kernel;
  k.maxRegisters.reset();
  for (int r = std::min(regs - 1, kMaxRegistersPerThread); r >= 0; --r) {
    k.registersPerThread = r;
    OccupancyResult next = computeOccupancyLimits(gpu, k, launch);
    if (next.failure != LaunchFailure::None)
      continue;
    if (!failed && next.limitRegisters <= cur.blocksPerSM)
      continue;
    NextStep s;
    s.resource = "registers";
    s.reduceBy = regs - r;
    s.newValue = r;
    s.blocksPerSM = next.blocksPerSM;
    s.occupancy = next.occupancy;
    if (failed)
      s.text = format("%d fewer registers per thread (%d) let the block launch: %s", regs - r, r,
                      blocksAndOccupancy(next).c_str());
    else if (next.blocksPerSM > cur.blocksPerSM)
      s.text = format("%d fewer registers per thread (%d) admit %s", regs - r, r, blocksAndOccupancy(next).c_str());
    else
      s.text = format("%d fewer registers per thread (%d) lift the register limit, but it stays "
                      "at %s, limited by %s",
                      regs - r, r, blocksAndOccupancy(next).c_str(), limiterNames(next.bindingLimiters).c_str());
    steps.push_back(std::move(s));
    return;
  }
}

/// Shared memory reduced by Bytes, dynamic first.
void reduceSharedMem(KernelResources &k, LaunchShape &l, int64_t bytes) {
  const int64_t fromDynamic = std::min(bytes, l.dynamicSharedMem);
  l.dynamicSharedMem -= fromDynamic;
  k.staticSharedMem -= bytes - fromDynamic;
}

void sharedMemSteps(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch,
                    const OccupancyResult &cur, std::vector<NextStep> &steps) {
  const ArchLimits &arch = gpu.arch;
  const int64_t used = kernel.staticSharedMem + launch.dynamicSharedMem;
  const int64_t total = used + arch.reservedSharedMemPerBlock;
  const int64_t unit = std::max(1, arch.smemAllocUnit);

  if (cur.failure == LaunchFailure::DynamicSharedMemoryNeedsOptin) {
    LaunchShape l = launch;
    l.optinDynamicSharedMem = launch.dynamicSharedMem;
    OccupancyResult next = computeOccupancyLimits(gpu, kernel, l);
    if (next.failure == LaunchFailure::None) {
      NextStep s;
      s.resource = "shared memory";
      s.newValue = used;
      s.blocksPerSM = next.blocksPerSM;
      s.occupancy = next.occupancy;
      s.text = format("opting in to %lld B of dynamic shared memory "
                      "(cudaFuncAttributeMaxDynamicSharedMemorySize) lets it launch: %s",
                      static_cast<long long>(launch.dynamicSharedMem), blocksAndOccupancy(next).c_str());
      steps.push_back(std::move(s));
    }
  }
  int64_t target = -1; // the largest static + reserved + dynamic that does the job
  bool launchStep = false;
  if (cur.failure == LaunchFailure::TooMuchSharedMemory ||
      cur.failure == LaunchFailure::DynamicSharedMemoryNeedsOptin) {
    target = cur.sharedMemLimitPerBlock;
    if (!launch.optinDynamicSharedMem)
      target = std::min(target, arch.sharedMemPerBlock + arch.reservedSharedMemPerBlock);
    launchStep = true;
  } else if (cur.failure == LaunchFailure::None && (cur.bindingLimiters & unsigned(Limiter::SharedMemory)) &&
             !(cur.bindingLimiters & kFixedLimiters)) {
    target = cur.sharedMemConfigPerSM / (cur.blocksPerSM + 1) / unit * unit;
  } else {
    return;
  }
  const int64_t reduceBy = total - target;
  if (reduceBy <= 0 || reduceBy > used)
    return;
  KernelResources k = kernel;
  LaunchShape l = launch;
  reduceSharedMem(k, l, reduceBy);
  if (l.optinDynamicSharedMem && l.dynamicSharedMem > *l.optinDynamicSharedMem)
    return;
  OccupancyResult next = computeOccupancyLimits(gpu, k, l);
  if (next.failure != LaunchFailure::None)
    return;
  if (!launchStep && next.limitSharedMem <= cur.blocksPerSM)
    return;
  NextStep s;
  s.resource = "shared memory";
  s.reduceBy = reduceBy;
  s.newValue = used - reduceBy;
  s.blocksPerSM = next.blocksPerSM;
  s.occupancy = next.occupancy;
  if (launchStep)
    s.text = format("%lld fewer bytes of shared memory per block (%lld B) let the block "
                    "launch: %s",
                    static_cast<long long>(reduceBy), static_cast<long long>(used - reduceBy),
                    blocksAndOccupancy(next).c_str());
  else if (next.blocksPerSM > cur.blocksPerSM)
    s.text = format("%lld fewer bytes of shared memory per block (%lld B) admit %s", static_cast<long long>(reduceBy),
                    static_cast<long long>(used - reduceBy), blocksAndOccupancy(next).c_str());
  else
    s.text = format("%lld fewer bytes of shared memory per block lift the shared-memory limit, "
                    "but it stays at %s, limited by %s",
                    static_cast<long long>(reduceBy), blocksAndOccupancy(next).c_str(),
                    limiterNames(next.bindingLimiters).c_str());
  steps.push_back(std::move(s));
}

void blockSizeSteps(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch,
                    const OccupancyResult &cur, std::vector<NextStep> &steps) {
  if (cur.failure != LaunchFailure::None && cur.failure != LaunchFailure::TooManyThreads &&
      cur.failure != LaunchFailure::InvalidBlockSize)
    return;
  const ArchLimits &arch = gpu.arch;
  const int warp = std::max(1, arch.warpSize);
  int maxThreads = arch.maxThreadsPerBlock;
  if (kernel.launchBoundsMaxThreads && *kernel.launchBoundsMaxThreads > 0)
    maxThreads = std::min(maxThreads, *kernel.launchBoundsMaxThreads);
  const int64_t threads = static_cast<int64_t>(launch.blockX) * launch.blockY * launch.blockZ;

  struct Candidate {
    int threads;
    OccupancyResult r;
  };
  std::vector<Candidate> candidates;
  for (int t = warp; t <= maxThreads; t += warp) {
    LaunchShape l = launch;
    l.blockX = t;
    l.blockY = l.blockZ = 1;
    l.gridBlocks.reset();
    candidates.push_back({t, computeOccupancyLimits(gpu, kernel, l)});
  }

  // When the block cap binds: the smallest larger block size that lifts it.
  int capStep = 0;
  if (cur.failure == LaunchFailure::None && (cur.bindingLimiters & unsigned(Limiter::Blocks)))
    for (const Candidate &c : candidates)
      if (c.threads > threads && better(c.r, cur)) {
        NextStep s;
        s.resource = "block size";
        s.reduceBy = threads - c.threads;
        s.newValue = c.threads;
        s.blocksPerSM = c.r.blocksPerSM;
        s.occupancy = c.r.occupancy;
        s.text = format("the block cap (%d blocks/SM) binds: %d threads per block lift it to %s", cur.limitBlocks,
                        c.threads, blocksAndOccupancy(c.r).c_str());
        steps.push_back(std::move(s));
        capStep = c.threads;
        break;
      }

  // The block sizes with the best occupancy, smallest first (at most 3).
  double best = cur.failure == LaunchFailure::None ? cur.occupancy : 0.0;
  bool any = false;
  for (const Candidate &c : candidates)
    if (c.r.failure == LaunchFailure::None && c.r.occupancy > best + 1e-12) {
      best = c.r.occupancy;
      any = true;
    }
  if (!any)
    return;
  int reported = 0;
  for (const Candidate &c : candidates) {
    if (reported == 3)
      break;
    if (c.r.failure != LaunchFailure::None || c.r.occupancy < best - 1e-12)
      continue;
    ++reported;
    if (c.threads == capStep)
      continue;
    NextStep s;
    s.resource = "block size";
    s.reduceBy = threads - c.threads;
    s.newValue = c.threads;
    s.blocksPerSM = c.r.blocksPerSM;
    s.occupancy = c.r.occupancy;
    s.text = format("%d threads per block give %s", c.threads, blocksAndOccupancy(c.r).c_str());
    steps.push_back(std::move(s));
  }
}

} // namespace

OccupancyResult computeOccupancyLimits(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch) {
  return compute(gpu, kernel, launch);
}

OccupancyResult computeOccupancy(const TargetGpu &gpu, const KernelResources &kernel, const LaunchShape &launch) {
  OccupancyResult r = compute(gpu, kernel, launch);
  if (r.failure == LaunchFailure::InvalidKernelResources)
    return r;
  registerSteps(gpu, kernel, launch, r, r.nextSteps);
  sharedMemSteps(gpu, kernel, launch, r, r.nextSteps);
  blockSizeSteps(gpu, kernel, launch, r, r.nextSteps);
  return r;
}

std::string limiterName(Limiter l) {
  switch (l) {
  case Limiter::None:
    return "none";
  case Limiter::Warps:
    return "warps";
  case Limiter::Registers:
    return "registers";
  case Limiter::SharedMemory:
    return "shared memory";
  case Limiter::Blocks:
    return "blocks";
  case Limiter::Barriers:
    return "barriers";
  }
  return "unknown";
}

std::string limiterNames(unsigned bits) {
  std::string out;
  for (Limiter l : {Limiter::Warps, Limiter::Registers, Limiter::SharedMemory, Limiter::Blocks, Limiter::Barriers})
    if (bits & unsigned(l)) {
      if (!out.empty())
        out += ", ";
      out += limiterName(l);
    }
  return out.empty() ? "none" : out;
}

std::string launchFailureName(LaunchFailure f) {
  switch (f) {
  case LaunchFailure::None:
    return "none";
  case LaunchFailure::TooManyThreads:
    return "too many threads";
  case LaunchFailure::InvalidBlockSize:
    return "invalid block size";
  case LaunchFailure::TooManyRegistersPerThread:
    return "too many registers per thread";
  case LaunchFailure::TooManyRegistersPerBlock:
    return "too many registers per block";
  case LaunchFailure::TooMuchSharedMemory:
    return "too much shared memory";
  case LaunchFailure::DynamicSharedMemoryNeedsOptin:
    return "dynamic shared memory needs opt-in";
  case LaunchFailure::TooManyBarriers:
    return "too many barriers";
  case LaunchFailure::InvalidKernelResources:
    return "invalid kernel resources";
  case LaunchFailure::InvalidGridSize:
    return "invalid grid size";
  }
  return "unknown";
}

} // namespace occlint
