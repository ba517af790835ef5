// Unit tests of the occupancy engine: launch failures, next steps, waves,
// limiter names, multi-dimensional blocks. The exactness of the numbers
// against cuda_occupancy.h is OccupancyDifferentialTest.cpp's job; the
// ArchLimits here are built by hand (HandBuiltArchs.h: A100 = sm_80, H100/H200
// = sm_90, RTX 4090 = sm_89; GP100 = sm_60 below) so the tests do not depend
// on data/gpus.json.
#include "gpu/Occupancy.h"

#include <gtest/gtest.h>

#include <climits>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

ArchLimits sm80() { return occlint::testing::handBuiltSm80(); }

ArchLimits sm90() { return occlint::testing::handBuiltSm90(); }
ArchLimits sm89() { return occlint::testing::handBuiltSm89(); }

ArchLimits sm60() {
  ArchLimits a = sm80();
  a.name = "sm_60";
  a.major = 6;
  a.minor = 0;
  a.maxRegsPerThread = 255;
  a.sharedMemPerSM = 65536;
  a.sharedMemPerBlockOptin = 49152;
  a.smemAllocUnit = 256;
  a.reservedSharedMemPerBlock = 0;
  a.carveoutBytes = {};
  a.subPartitionsPerSM = 2;
  return a;
}

TargetGpu gpu(ArchLimits a, int sms = 108) { return {a, a.name, sms}; }

using occlint::testing::kernel;

LaunchShape shape(int x, int y = 1, int z = 1) {
  LaunchShape l;
  l.blockX = x;
  l.blockY = y;
  l.blockZ = z;
  return l;
}

const NextStep *findStep(const OccupancyResult &r, const std::string &resource) {
  for (const NextStep &s : r.nextSteps)
    if (s.resource == resource)
      return &s;
  return nullptr;
}

// ------------------------------------------------------------------ failures

TEST(OccupancyFailures, ZeroThreads) {
  for (LaunchShape l : {shape(0), shape(32, 0), shape(32, 1, 0), shape(-1)}) {
    OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), l);
    EXPECT_EQ(r.failure, LaunchFailure::InvalidBlockSize);
    EXPECT_EQ(r.blocksPerSM, 0);
    EXPECT_FALSE(r.failureReason.empty());
  }
}

TEST(OccupancyFailures, PerDimensionLimits) {
  // 1x1x65 = 65 threads, but blockDim.z is at most 64.
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), shape(1, 1, 65));
  EXPECT_EQ(r.failure, LaunchFailure::InvalidBlockSize);
  EXPECT_NE(r.failureReason.find("64"), std::string::npos) << r.failureReason;
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32), shape(1, 1, 64)).failure, LaunchFailure::None);
}

TEST(OccupancyFailures, TooManyThreads) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), shape(1025));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyThreads);
  EXPECT_EQ(r.blocksPerSM, 0);
  EXPECT_EQ(r.limitWarps, 0); // as the header's warps limit
  EXPECT_NE(r.failureReason.find("1025"), std::string::npos) << r.failureReason;
  // The next steps still offer block sizes that launch.
  const NextStep *s = findStep(r, "block size");
  ASSERT_NE(s, nullptr);
  EXPECT_LE(s->newValue, 1024);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32), shape(1024)).failure, LaunchFailure::None);
}

TEST(OccupancyFailures, LaunchBounds) {
  KernelResources k = kernel(32);
  k.launchBoundsMaxThreads = 256;
  OccupancyResult over = computeOccupancy(gpu(sm80()), k, shape(512));
  EXPECT_EQ(over.failure, LaunchFailure::TooManyThreads);
  EXPECT_NE(over.failureReason.find("__launch_bounds__(256)"), std::string::npos) << over.failureReason;
  EXPECT_EQ(over.blocksPerSM, 0);
  // The limits are still computed (the header ignores __launch_bounds__).
  EXPECT_EQ(over.limitWarps, 4);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), k, shape(256)).failure, LaunchFailure::None);
  for (const NextStep &s : over.nextSteps)
    if (s.resource == "block size")
      EXPECT_LE(s.newValue, 256) << s.text;
}

TEST(OccupancyFailures, RegistersPerThread) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(256), shape(32));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyRegistersPerThread);
  EXPECT_EQ(r.blocksPerSM, 0);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(255), shape(32)).failure, LaunchFailure::None);
  // The register step says how many fewer let it launch.
  const NextStep *s = findStep(r, "registers");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->newValue, 255);
  EXPECT_EQ(s->reduceBy, 1);
}

TEST(OccupancyFailures, RegistersPerBlock) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(255), shape(512));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyRegistersPerBlock);
  EXPECT_EQ(r.limitRegisters, 0);
  EXPECT_EQ(r.allocatedRegistersPerBlock, 8192 * 16);
  const NextStep *s = findStep(r, "registers");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->newValue, 128); // 128 x 32 = 4096 per warp x 16 warps = 65536
  EXPECT_EQ(s->blocksPerSM, 1);
}

TEST(OccupancyFailures, RegistersPerBlockSubPartitionRounding) {
  // 168 regs x 320 threads: 10 warps x 5376 = 53760 registers fit a block,
  // but the hardware check rounds 10 warps up to 12 (4 sub-partitions):
  // 12 x 5376 = 64512 still fits; at 176 regs 12 x 5632 = 67584 does not,
  // although 10 x 5632 = 56320 would.
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(168), shape(320)).failure, LaunchFailure::None);
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(176), shape(320));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyRegistersPerBlock);
  EXPECT_EQ(r.allocatedRegistersPerBlock, 56320);
}

TEST(OccupancyFailures, GP100NeedsTheGP10xRegisterCheck) {
  // GP100 has 2 sub-partitions; the header only lets a block run on 6.0 if
  // it would also pass GP10x's check with 4. 200 regs (6400 per warp) x 288
  // threads (9 warps): with 2 sub-partitions 10 x 6400 = 64000 <= 65536 fits,
  // with 4 sub-partitions 12 x 6400 = 76800 does not.
  OccupancyResult r = computeOccupancy(gpu(sm60()), kernel(200), shape(288));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyRegistersPerBlock);
  EXPECT_EQ(r.limitRegisters, 0);
}

TEST(OccupancyFailures, DynamicSharedMemoryNeedsOptin) {
  LaunchShape l = shape(256);
  l.dynamicSharedMem = 49153;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_EQ(r.failure, LaunchFailure::DynamicSharedMemoryNeedsOptin);
  EXPECT_EQ(r.limitSharedMem, 0);
  EXPECT_NE(r.failureReason.find("cudaFuncAttributeMaxDynamicSharedMemorySize"), std::string::npos);
  // Next steps: opt in, or 1 byte less.
  bool optinStep = false, reduceStep = false;
  for (const NextStep &s : r.nextSteps) {
    if (s.resource != "shared memory")
      continue;
    if (s.reduceBy == 0) {
      optinStep = true;
      EXPECT_EQ(s.blocksPerSM, 3) << s.text; // 167936 / (49153+1024 -> 50304)
    } else {
      reduceStep = true;
      EXPECT_EQ(s.reduceBy, 1) << s.text;
    }
  }
  EXPECT_TRUE(optinStep);
  EXPECT_TRUE(reduceStep);

  // Exactly 48 KB launches without an opt-in.
  l.dynamicSharedMem = 49152;
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32), l).failure, LaunchFailure::None);
}

TEST(OccupancyFailures, StaticPlusDynamicOverTheDefault) {
  LaunchShape l = shape(256);
  l.dynamicSharedMem = 10000;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32, 40000), l);
  EXPECT_EQ(r.failure, LaunchFailure::TooMuchSharedMemory);
  EXPECT_EQ(r.sharedMemLimitPerBlock, 49152 + 1024);
  const NextStep *s = findStep(r, "shared memory");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->reduceBy, 40000 + 10000 - 49152);
}

TEST(OccupancyFailures, OptIn) {
  LaunchShape l = shape(256);
  l.dynamicSharedMem = 166912; // the A100 opt-in maximum
  l.optinDynamicSharedMem = 166912;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_EQ(r.failure, LaunchFailure::None);
  EXPECT_EQ(r.blocksPerSM, 1);
  EXPECT_EQ(r.allocatedSharedMemPerBlock, 167936);
  EXPECT_EQ(r.sharedMemLimitPerBlock, 166912 + 1024);

  l.dynamicSharedMem = 166913; // one byte over
  l.optinDynamicSharedMem = 166913;
  r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_EQ(r.failure, LaunchFailure::TooMuchSharedMemory);

  l.dynamicSharedMem = 100000; // over what the attribute allows
  l.optinDynamicSharedMem = 90000;
  r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_EQ(r.failure, LaunchFailure::TooMuchSharedMemory);
  EXPECT_NE(r.failureReason.find("90000"), std::string::npos) << r.failureReason;
}

TEST(OccupancyFailures, NegativeResources) {
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(-1), shape(32)).failure, LaunchFailure::InvalidKernelResources);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32, -5), shape(32)).failure, LaunchFailure::InvalidKernelResources);
}

TEST(OccupancyFailures, TooManyBarriers) {
  // sm_90: 64 barriers per SM in the header's count.
  OccupancyResult r = computeOccupancy(gpu(sm90()), kernel(32, 0, 65), shape(32));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyBarriers);
  EXPECT_EQ(r.limitBarriers, 0);
}

// ------------------------------------------------------------------- limits

TEST(OccupancyLimits, BarriersLimitFromHopperWithTheHeadersFactorBits) {
  // 128 threads, 16 barriers on sm_90: warps allow 16 blocks, barriers 64/16=4.
  OccupancyResult r = computeOccupancy(gpu(sm90()), kernel(16, 0, 16), shape(128));
  EXPECT_EQ(r.blocksPerSM, 4);
  EXPECT_EQ(r.limitBarriers, 4);
  EXPECT_EQ(r.limitWarps, 16);
  // cuda_occupancy.h sets the factor bits before it applies the barrier
  // limit: warps (16, the minimum of the others) stays set.
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Warps) | unsigned(Limiter::Barriers));
  EXPECT_EQ(r.bindingLimiters, unsigned(Limiter::Barriers));
  // Before Hopper the header does not apply the barrier limit.
  OccupancyResult a = computeOccupancy(gpu(sm80()), kernel(16, 0, 16), shape(128));
  EXPECT_EQ(a.blocksPerSM, 16);
  EXPECT_EQ(a.limitBarriers, INT_MAX);
}

TEST(OccupancyLimits, UnlimitedIsIntMax) {
  OccupancyResult r = computeOccupancy(gpu(sm60()), kernel(0), shape(64));
  EXPECT_EQ(r.limitRegisters, INT_MAX); // no registers
  EXPECT_EQ(r.limitSharedMem, INT_MAX); // no shared memory, no reserve before 8.0
  EXPECT_EQ(r.limitBarriers, INT_MAX);  // not enforced before 9.0
  EXPECT_EQ(r.blocksPerSM, 32);
}

TEST(OccupancyLimits, MaxRegistersCaps) {
  KernelResources k = kernel(130);
  k.maxRegisters = 128;
  OccupancyResult r = computeOccupancy(gpu(sm80()), k, shape(256));
  EXPECT_EQ(r.blocksPerSM, 2);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.25);
}

TEST(OccupancyLimits, Sm89WarpSlots) {
  // 1536 threads per SM: 48 warps; 1024-thread blocks -> 1 block, 66.7 %.
  OccupancyResult r = computeOccupancy(gpu(sm89(), 128), kernel(32), shape(1024));
  EXPECT_EQ(r.maxWarpsPerSM, 48);
  EXPECT_EQ(r.blocksPerSM, 1);
  EXPECT_NEAR(r.occupancy, 32.0 / 48.0, 1e-12);
}

// --------------------------------------------------------- multi-dim blocks

TEST(OccupancyMultiDim, SameAsTheFlatBlock) {
  OccupancyResult flat = computeOccupancy(gpu(sm80()), kernel(64), shape(256));
  for (LaunchShape l : {shape(16, 16), shape(8, 8, 4), shape(2, 2, 64), shape(1, 256)}) {
    OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(64), l);
    EXPECT_EQ(r.failure, LaunchFailure::None);
    EXPECT_EQ(r.blocksPerSM, flat.blocksPerSM);
    EXPECT_EQ(r.warpsPerBlock, 8);
    EXPECT_DOUBLE_EQ(r.occupancy, flat.occupancy);
  }
  // 10 x 10 = 100 threads = 4 warps (the last one partial).
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), shape(10, 10));
  EXPECT_EQ(r.warpsPerBlock, 4);
  EXPECT_EQ(r.blocksPerSM, 16);
}

TEST(OccupancyMultiDim, TooManyThreadsInTotal) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), shape(32, 32, 2));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyThreads);
  EXPECT_NE(r.failureReason.find("2048"), std::string::npos) << r.failureReason;
  // No int overflow on absurd shapes.
  OccupancyResult huge = computeOccupancy(gpu(sm80()), kernel(32), shape(1 << 20, 1 << 20, 64));
  EXPECT_NE(huge.failure, LaunchFailure::None);
}

// -------------------------------------------------------------- next steps

TEST(OccupancyNextSteps, RegistersText) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(130), shape(256));
  const NextStep *s = findStep(r, "registers");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->text, "2 fewer registers per thread (128) admit 2 blocks/SM (25.0%)");
}

TEST(OccupancyNextSteps, SharedMemory) {
  // 48 KB static (50176 B with the reserve) -> 3 blocks. Four need <= 41984
  // B allocated, i.e. 40960 B of the kernel's own: 8192 B fewer.
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32, 49152), shape(256));
  const NextStep *s = findStep(r, "shared memory");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->reduceBy, 8192);
  EXPECT_EQ(s->newValue, 40960);
  EXPECT_EQ(s->blocksPerSM, 4);
  EXPECT_DOUBLE_EQ(s->occupancy, 0.5);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32, 40960), shape(256)).blocksPerSM, 4);
  EXPECT_EQ(computeOccupancy(gpu(sm80()), kernel(32, 40961), shape(256)).blocksPerSM, 3);
}

TEST(OccupancyNextSteps, SharedMemoryReducesDynamicFirst) {
  LaunchShape l = shape(256);
  l.dynamicSharedMem = 30000;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32, 19152), l);
  ASSERT_EQ(r.blocksPerSM, 3);
  const NextStep *s = findStep(r, "shared memory");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->reduceBy, 8192);
  EXPECT_EQ(s->blocksPerSM, 4);
}

TEST(OccupancyNextSteps, TieReportsTheOtherLimiter) {
  // 64 regs x 256 threads -> registers allow 4; 40000 B static -> smem also 4.
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(64, 40000), shape(256));
  ASSERT_EQ(r.blocksPerSM, 4);
  ASSERT_EQ(r.bindingLimiters, unsigned(Limiter::Registers) | unsigned(Limiter::SharedMemory));
  const NextStep *regs = findStep(r, "registers");
  ASSERT_NE(regs, nullptr);
  EXPECT_EQ(regs->blocksPerSM, 4);
  EXPECT_NE(regs->text.find("shared memory"), std::string::npos) << regs->text;
}

TEST(OccupancyNextSteps, BlockCapSmallestLiftingSize) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(16), shape(1));
  ASSERT_FALSE(r.nextSteps.empty());
  const NextStep &s = r.nextSteps.front();
  EXPECT_EQ(s.resource, "block size");
  EXPECT_EQ(s.newValue, 64);
  EXPECT_EQ(s.blocksPerSM, 32);
  EXPECT_DOUBLE_EQ(s.occupancy, 1.0);
  EXPECT_NE(s.text.find("block cap"), std::string::npos) << s.text;
  // The other block sizes reaching 100 % follow, smallest first, no duplicate.
  std::vector<int64_t> sizes;
  for (const NextStep &x : r.nextSteps)
    if (x.resource == "block size")
      sizes.push_back(x.newValue);
  EXPECT_EQ(sizes, (std::vector<int64_t>{64, 128, 256}));
}

TEST(OccupancyNextSteps, BetterBlockSizes) {
  // 64 regs: registers allow 32 warps whatever the block size, but 96-thread
  // blocks (3 warps) waste a warp per sub-partition... the search only
  // reports sizes strictly better than now.
  OccupancyResult full = computeOccupancy(gpu(sm80()), kernel(32), shape(256));
  EXPECT_EQ(findStep(full, "block size"), nullptr); // already 100 %
  // 1024-thread blocks at 40 regs: 40 x 32 = 1280 per warp, 12 warps per
  // sub-partition, 48 per SM -> 1 block (50 %); 768-thread blocks -> 2 (75 %).
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(40), shape(1024));
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  const NextStep *s = findStep(r, "block size");
  ASSERT_NE(s, nullptr);
  EXPECT_DOUBLE_EQ(s->occupancy, 0.75);
  EXPECT_EQ(s->newValue % 32, 0);
  EXPECT_LT(s->newValue, 1024);
  for (const NextStep &x : r.nextSteps)
    EXPECT_FALSE(x.text.empty());
}

TEST(OccupancyNextSteps, NoneWhenNothingHelps) {
  // 100 % occupancy: nothing to suggest.
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(16), shape(128));
  EXPECT_TRUE(r.nextSteps.empty());
}

// ------------------------------------------------------------------- waves

TEST(OccupancyWaves, NoGridNoWaves) {
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), shape(256));
  EXPECT_FALSE(r.waves.has_value());
  EXPECT_FALSE(r.fullWaves.has_value());
  EXPECT_FALSE(r.tailBlocks.has_value());
}

TEST(OccupancyWaves, ExactWavesHaveNoTail) {
  LaunchShape l = shape(256);
  l.gridBlocks = 8 * 108 * 5;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_EQ(*r.fullWaves, 5);
  EXPECT_EQ(*r.tailBlocks, 0);
  EXPECT_DOUBLE_EQ(*r.waves, 5.0);
}

TEST(OccupancyWaves, NoWavesWhenTheLaunchFails) {
  LaunchShape l = shape(2048);
  l.gridBlocks = 1000;
  OccupancyResult r = computeOccupancy(gpu(sm80()), kernel(32), l);
  EXPECT_NE(r.failure, LaunchFailure::None);
  EXPECT_FALSE(r.waves.has_value());
}

TEST(OccupancyWaves, AGridOfNoBlocksCannotStart) {
  // <<<0, 256>>>: cudaErrorInvalidConfiguration. Not "100 % occupancy, 0 waves".
  for (int64_t Blocks : {int64_t(0), int64_t(-4)}) {
    LaunchShape l = shape(256);
    l.gridBlocks = Blocks;
    OccupancyResult r = computeOccupancy(gpu(sm90(), 132), kernel(32), l);
    EXPECT_EQ(r.failure, LaunchFailure::InvalidGridSize);
    EXPECT_EQ(r.failureReason, "a grid of " + std::to_string(Blocks) + " blocks cannot start");
    EXPECT_EQ(r.occupancy, 0.0);
    EXPECT_EQ(r.blocksPerSM, 0);
    EXPECT_FALSE(r.waves.has_value());
  }
  // A block that cannot start is named first, as the runtime checks it first.
  LaunchShape l = shape(2048);
  l.gridBlocks = 0;
  EXPECT_EQ(computeOccupancy(gpu(sm90(), 132), kernel(32), l).failure, LaunchFailure::TooManyThreads);
}

TEST(OccupancyWaves, SmallGrid) {
  LaunchShape l = shape(128);
  l.gridBlocks = 1;
  OccupancyResult r = computeOccupancy(gpu(sm90(), 132), kernel(32), l);
  EXPECT_EQ(*r.fullWaves, 0);
  EXPECT_EQ(*r.tailBlocks, 1);
  EXPECT_DOUBLE_EQ(*r.waves, 1.0 / (16 * 132));
}

// ------------------------------------------------------------------- names

TEST(OccupancyNames, Limiters) {
  EXPECT_EQ(limiterName(Limiter::None), "none");
  EXPECT_EQ(limiterName(Limiter::Warps), "warps");
  EXPECT_EQ(limiterName(Limiter::Registers), "registers");
  EXPECT_EQ(limiterName(Limiter::SharedMemory), "shared memory");
  EXPECT_EQ(limiterName(Limiter::Blocks), "blocks");
  EXPECT_EQ(limiterName(Limiter::Barriers), "barriers");
  EXPECT_EQ(limiterNames(0), "none");
  EXPECT_EQ(limiterNames(unsigned(Limiter::Registers) | unsigned(Limiter::SharedMemory)), "registers, shared memory");
  EXPECT_EQ(limiterNames(0x1f), "warps, registers, shared memory, blocks, barriers");
}

TEST(OccupancyNames, Failures) {
  EXPECT_EQ(launchFailureName(LaunchFailure::None), "none");
  EXPECT_EQ(launchFailureName(LaunchFailure::DynamicSharedMemoryNeedsOptin), "dynamic shared memory needs opt-in");
  EXPECT_EQ(launchFailureName(LaunchFailure::TooManyRegistersPerBlock), "too many registers per block");
  EXPECT_EQ(launchFailureName(LaunchFailure::InvalidGridSize), "invalid grid size");
}

} // namespace
