// The worked examples of /work/shared/seeds/*.txt (occupancy-and-latency-hiding,
// streaming-multiprocessors) and two Nsight Compute facts, on the real devices.
//
// The seeds count with a simplified model (registers per thread x 32 per warp,
// 164 KB per SM, no reserved shared memory, no allocation units). The engine
// uses the real device numbers (cuda_occupancy.h's rules); every expectation
// below is the real-device answer, with a comment where it differs from the
// seed's arithmetic.
//
// The ArchLimits are built by hand here, with the values
// cudaGetDeviceProperties reports on an A100 / H100-H200 and the constants
// cuda_occupancy.h derives from the compute capability, so these tests do not
// depend on data/gpus.json (tests/OccupancyDifferentialTest.cpp checks the
// database against the header).
#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include <gtest/gtest.h>

#include <cmath>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

ArchLimits sm80() { return occlint::testing::handBuiltSm80(); }

ArchLimits sm90() {
  ArchLimits a = sm80();
  a.name = "sm_90";
  a.major = 9;
  a.family = "Hopper";
  a.sharedMemPerSM = 233472;         // 228 KB
  a.sharedMemPerBlockOptin = 232448; // 227 KB
  a.carveoutBytes = {0, 8192, 16384, 32768, 65536, 102400, 135168, 167936, 200704, 233472};
  a.barrierLimitEnforced = true;
  return a;
}

TargetGpu a100(int sms = 108) { return {sm80(), "A100", sms}; }
TargetGpu h200() { return {sm90(), "H200", 132}; }

using occlint::testing::kernel;

LaunchShape block(int threads, std::optional<int64_t> grid = std::nullopt) {
  LaunchShape l;
  l.blockX = threads;
  l.gridBlocks = grid;
  return l;
}

// occupancy-and-latency-hiding, Example 1: 64 regs x 256 threads -> 50 %.
TEST(OccupancySeedExamples, A100RegistersBind64Regs) {
  OccupancyResult r = computeOccupancy(a100(), kernel(64), block(256));
  EXPECT_EQ(r.failure, LaunchFailure::None);
  EXPECT_EQ(r.blocksPerSM, 4);
  EXPECT_EQ(r.activeWarpsPerSM, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limitRegisters, 4);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Registers));
  EXPECT_EQ(r.allocatedRegistersPerBlock, 64 * 256);
}

// Example 2: 32 regs, 48 KB static shared memory, 256 threads -> 37.5 %.
// The seed divides 164 KB by 48 KB. The device has 167936 B (164 KB) per SM
// and reserves 1 KB per block, so a block takes 49152 + 1024 = 50176 B and
// 167936 / 50176 = 3.35 -> 3 blocks as well.
TEST(OccupancySeedExamples, A100SharedMemoryBinds48KB) {
  OccupancyResult r = computeOccupancy(a100(), kernel(32, 48 * 1024), block(256));
  EXPECT_EQ(r.failure, LaunchFailure::None);
  EXPECT_EQ(r.allocatedSharedMemPerBlock, 50176);
  EXPECT_EQ(r.sharedMemConfigPerSM, 167936);
  EXPECT_EQ(r.limitSharedMem, 3);
  EXPECT_EQ(r.blocksPerSM, 3);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.375);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::SharedMemory));
}

// Example 3: 32-thread blocks, 16 regs -> 50 %, the block cap binds.
TEST(OccupancySeedExamples, A100BlockCapBindsTinyBlocks) {
  OccupancyResult r = computeOccupancy(a100(), kernel(16), block(32));
  EXPECT_EQ(r.blocksPerSM, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Blocks));
  // The seed's fix: >= 64 threads per block.
  ASSERT_FALSE(r.nextSteps.empty());
  EXPECT_EQ(r.nextSteps.front().resource, "block size");
  EXPECT_EQ(r.nextSteps.front().newValue, 64);
  EXPECT_DOUBLE_EQ(r.nextSteps.front().occupancy, 1.0);
}

// Example 4: 16 regs x 128 threads, no shared memory -> 100 %.
TEST(OccupancySeedExamples, A100NothingBinds) {
  OccupancyResult r = computeOccupancy(a100(), kernel(16), block(128));
  EXPECT_EQ(r.blocksPerSM, 16);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Warps));
  // Even with no shared memory the 1 KB reserve is allocated per block.
  EXPECT_EQ(r.allocatedSharedMemPerBlock, 1024);
  EXPECT_EQ(r.limitSharedMem, 164);
}

// Example 5: 1-thread blocks -> 50 % (block cap), each block a whole warp.
TEST(OccupancySeedExamples, A100OneThreadBlocks) {
  OccupancyResult r = computeOccupancy(a100(), kernel(16), block(1));
  EXPECT_EQ(r.warpsPerBlock, 1);
  EXPECT_EQ(r.blocksPerSM, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Blocks));
}

// Example 6 (and Example 8's "before"): 128 regs x 128 threads -> 25 %.
TEST(OccupancySeedExamples, A100RegistersBind128Regs) {
  OccupancyResult r = computeOccupancy(a100(), kernel(128), block(128));
  EXPECT_EQ(r.blocksPerSM, 4);
  EXPECT_EQ(r.activeWarpsPerSM, 16);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.25);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Registers));
}

// streaming-multiprocessors, Example 2: 128 regs x 256 -> 25 %, 130 -> 12.5 %.
TEST(OccupancySeedExamples, A100RegisterRoundingTrap) {
  OccupancyResult at128 = computeOccupancy(a100(), kernel(128), block(256));
  EXPECT_EQ(at128.blocksPerSM, 2);
  EXPECT_DOUBLE_EQ(at128.occupancy, 0.25);

  OccupancyResult at130 = computeOccupancy(a100(), kernel(130), block(256));
  EXPECT_EQ(at130.blocksPerSM, 1);
  EXPECT_DOUBLE_EQ(at130.occupancy, 0.125);
  EXPECT_EQ(at130.limitingFactors, unsigned(Limiter::Registers));
  // 130 regs round up to 136 per thread (4352 per warp): 3 warps per
  // sub-partition, 12 per SM, one 8-warp block.
  EXPECT_EQ(at130.allocatedRegistersPerBlock, 4352 * 8);
  ASSERT_FALSE(at130.nextSteps.empty());
  const NextStep &s = at130.nextSteps.front();
  EXPECT_EQ(s.resource, "registers");
  EXPECT_EQ(s.reduceBy, 2);
  EXPECT_EQ(s.newValue, 128);
  EXPECT_EQ(s.blocksPerSM, 2);
  EXPECT_DOUBLE_EQ(s.occupancy, 0.25);
  EXPECT_NE(s.text.find("2 fewer registers per thread"), std::string::npos) << s.text;
}

// streaming-multiprocessors, Example 5: 256 regs x 512 threads -> cannot launch.
TEST(OccupancySeedExamples, A100CannotLaunch256RegsX512) {
  OccupancyResult r = computeOccupancy(a100(), kernel(256), block(512));
  EXPECT_EQ(r.failure, LaunchFailure::TooManyRegistersPerThread);
  EXPECT_FALSE(r.failureReason.empty());
  EXPECT_EQ(r.blocksPerSM, 0);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.0);
  // With the 255 registers ptxas can really allocate the block still needs
  // 16 warps x 8192 = 131072 registers: more than the 65536 a block can have.
  OccupancyResult r255 = computeOccupancy(a100(), kernel(255), block(512));
  EXPECT_EQ(r255.failure, LaunchFailure::TooManyRegistersPerBlock);
  EXPECT_EQ(r255.blocksPerSM, 0);
  // The seed's boundary: at 256 registers (255 here) 256 threads still fit.
  EXPECT_EQ(computeOccupancy(a100(), kernel(255), block(256)).blocksPerSM, 1);
}

// streaming-multiprocessors, Example 1 and Example 4 (64-thread blocks).
TEST(OccupancySeedExamples, A100FullOccupancy) {
  OccupancyResult r = computeOccupancy(a100(), kernel(32), block(256));
  EXPECT_EQ(r.blocksPerSM, 8);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Warps) | unsigned(Limiter::Registers));
  OccupancyResult small = computeOccupancy(a100(), kernel(16), block(64));
  EXPECT_EQ(small.blocksPerSM, 32);
  EXPECT_DOUBLE_EQ(small.occupancy, 1.0);
}

// streaming-multiprocessors, Example 7: 8 blocks/SM x 80 SMs = 640 per wave.
TEST(OccupancySeedExamples, WavesOnEightySMs) {
  OccupancyResult big = computeOccupancy(a100(80), kernel(32), block(256, 2000));
  ASSERT_EQ(big.blocksPerSM, 8);
  ASSERT_TRUE(big.waves && big.fullWaves && big.tailBlocks);
  EXPECT_EQ(*big.fullWaves, 3);
  EXPECT_EQ(*big.tailBlocks, 80); // the 4th wave: 80 blocks on 10 SMs
  EXPECT_DOUBLE_EQ(*big.waves, 3.125);
  EXPECT_EQ(std::ceil(*big.waves), 4); // "4 waves"

  OccupancyResult tiny = computeOccupancy(a100(80), kernel(32), block(256, 40));
  EXPECT_EQ(*tiny.fullWaves, 0);
  EXPECT_EQ(*tiny.tailBlocks, 40);
  EXPECT_DOUBLE_EQ(*tiny.waves, 0.0625);
  EXPECT_EQ(std::ceil(*tiny.waves), 1);
}

// Nsight Compute on an H200: 32-thread blocks are limited by the block cap.
TEST(OccupancySeedExamples, H200TinyBlocksLimitedByBlocks) {
  OccupancyResult r = computeOccupancy(h200(), kernel(32), block(32));
  EXPECT_EQ(r.blocksPerSM, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limitingFactors, unsigned(Limiter::Blocks));
}

// Nsight Compute on an H200: 1057 blocks x 1024 threads. A 1024-thread block
// is 32 warps, so 2 fit in the 64 warp slots (registers: 32 per thread leaves
// 16 warps per sub-partition, 64 per SM, also 2 blocks): 2 x 132 = 264 blocks
// per wave, and 1057 = 4 x 264 + 1: 4 full waves and a tail of ONE block. The
// Nsight message quoted to us said "a partial wave of 2 thread blocks"; the
// arithmetic does not give that for 132 SMs (it would for 1058 blocks, or for
// a grid of 1057 on a wave of 263.75 blocks), so we assert what the numbers
// give and treat the quote as misremembered or from another launch.
TEST(OccupancySeedExamples, H200WavesOf1024ThreadBlocks) {
  OccupancyResult r = computeOccupancy(h200(), kernel(32), block(1024, 1057));
  ASSERT_EQ(r.blocksPerSM, 2);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  ASSERT_TRUE(r.waves && r.fullWaves && r.tailBlocks);
  EXPECT_EQ(*r.fullWaves, 4);
  EXPECT_EQ(*r.tailBlocks, 1);
  EXPECT_DOUBLE_EQ(*r.waves, 1057.0 / 264.0);
}

} // namespace

// The hand-built archs above are the database's (data/gpus.json), and the
// database's A100 and H200 give the same answers.

namespace {

void expectSameLimits(const ArchLimits &hand, const ArchLimits &db) {
  EXPECT_EQ(hand.major, db.major);
  EXPECT_EQ(hand.minor, db.minor);
  EXPECT_EQ(hand.warpSize, db.warpSize);
  EXPECT_EQ(hand.maxThreadsPerBlock, db.maxThreadsPerBlock);
  EXPECT_EQ(hand.maxThreadsPerSM, db.maxThreadsPerSM);
  EXPECT_EQ(hand.maxBlocksPerSM, db.maxBlocksPerSM);
  EXPECT_EQ(hand.regsPerSM, db.regsPerSM);
  EXPECT_EQ(hand.regsPerBlock, db.regsPerBlock);
  EXPECT_EQ(hand.regAllocUnit, db.regAllocUnit);
  EXPECT_EQ(hand.maxRegsPerThread, db.maxRegsPerThread);
  EXPECT_EQ(hand.sharedMemPerSM, db.sharedMemPerSM);
  EXPECT_EQ(hand.sharedMemPerBlock, db.sharedMemPerBlock);
  EXPECT_EQ(hand.sharedMemPerBlockOptin, db.sharedMemPerBlockOptin);
  EXPECT_EQ(hand.smemAllocUnit, db.smemAllocUnit);
  EXPECT_EQ(hand.reservedSharedMemPerBlock, db.reservedSharedMemPerBlock);
  EXPECT_EQ(hand.maxBarriersPerSM, db.maxBarriersPerSM);
  EXPECT_EQ(hand.carveoutBytes, db.carveoutBytes);
  EXPECT_EQ(hand.subPartitionsPerSM, db.subPartitionsPerSM);
  EXPECT_EQ(hand.barrierLimitEnforced, db.barrierLimitEnforced);
}

TEST(OccupancySeedExamples, HandBuiltArchsMatchTheDatabase) {
  const GpuDatabase &db = GpuDatabase::builtin();
  const ArchLimits *a = db.findArch("sm_80");
  const ArchLimits *h = db.findArch("sm_90");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(h, nullptr);
  expectSameLimits(sm80(), *a);
  expectSameLimits(sm90(), *h);

  std::string error;
  std::optional<TargetGpu> dbA100 = db.resolve("A100", error);
  ASSERT_TRUE(dbA100) << error;
  EXPECT_EQ(dbA100->smCount, 108);
  std::optional<TargetGpu> dbH200 = db.resolve("H200", error);
  ASSERT_TRUE(dbH200) << error;
  EXPECT_EQ(dbH200->smCount, 132);
  std::optional<TargetGpu> eighty = db.resolve("sm_80:80", error);
  ASSERT_TRUE(eighty) << error;
  EXPECT_EQ(eighty->smCount, 80);

  EXPECT_DOUBLE_EQ(computeOccupancy(*dbA100, kernel(64), block(256)).occupancy, 0.5);
  EXPECT_DOUBLE_EQ(computeOccupancy(*dbA100, kernel(32, 48 * 1024), block(256)).occupancy, 0.375);
  EXPECT_DOUBLE_EQ(computeOccupancy(*dbA100, kernel(130), block(256)).occupancy, 0.125);
  OccupancyResult waves = computeOccupancy(*eighty, kernel(32), block(256, 2000));
  EXPECT_EQ(waves.tailBlocks, 80);
  OccupancyResult nsight = computeOccupancy(*dbH200, kernel(32), block(1024, 1057));
  EXPECT_EQ(nsight.fullWaves, 4);
  EXPECT_EQ(nsight.tailBlocks, 1);
}

} // namespace
