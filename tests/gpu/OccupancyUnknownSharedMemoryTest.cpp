// Unit tests of occupancyForAnyDynamicSharedMemory: the occupancy of a launch
// whose dynamic shared memory is a runtime value, known when no amount the
// launch accepts changes the blocks per SM (HandBuiltArchs.h's sm_90: 228 KB
// per SM, 48 KB per block by default, 227 KB with the opt-in, 1 KB reserved
// per block, 64 K registers).
#include "gpu/OccupancyUnknownSharedMemory.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

TargetGpu h100() {
  ArchLimits a = occlint::testing::handBuiltSm90();
  return {a, "H100", 132};
}

using occlint::testing::kernel;

LaunchShape block(int threads, std::optional<int64_t> optin = std::nullopt) {
  LaunchShape l;
  l.blockX = threads;
  l.optinDynamicSharedMem = optin;
  return l;
}

bool hasStep(const OccupancyResult &r, const std::string &resource) {
  return std::any_of(r.nextSteps.begin(), r.nextSteps.end(), [&](const NextStep &s) { return s.resource == resource; });
}

} // namespace

TEST(OccupancyUnknownSharedMemory, RegistersAllowNoMoreBlocksThanTheLargestAmount) {
  // 256 threads x 64 registers: 16 K registers a block, 4 blocks. The most
  // the launch accepts without the opt-in is 48 KB: 49 KB with the reserve,
  // 4 blocks in 228 KB. Any amount gives 4 blocks: 32 of 64 warps.
  const auto r = occupancyForAnyDynamicSharedMemory(h100(), kernel(64), block(256));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->largestDynamicSharedMemory, 49152);
  EXPECT_EQ(r->result.failure, LaunchFailure::None);
  EXPECT_EQ(r->result.blocksPerSM, 4);
  EXPECT_EQ(r->result.activeWarpsPerSM, 32);
  EXPECT_DOUBLE_EQ(r->result.occupancy, 0.5);
  // At 48 KB shared memory binds too, but not at every amount: registers do.
  EXPECT_EQ(r->result.limitSharedMem, 4);
  EXPECT_EQ(r->result.bindingLimiters, unsigned(Limiter::Registers));
  EXPECT_FALSE(hasStep(r->result, "shared memory"));
}

TEST(OccupancyUnknownSharedMemory, UnknownWhenTheAmountDecidesTheBlocks) {
  // 128 threads x 32 registers: 16 blocks by warps at 0 bytes, 4 at 48 KB.
  EXPECT_FALSE(occupancyForAnyDynamicSharedMemory(h100(), kernel(32), block(128)));
}

TEST(OccupancyUnknownSharedMemory, TheStaticSharedMemoryLowersTheLargestAmount) {
  // 40000 B static: 9152 B of dynamic shared memory fill the 48 KB default.
  // 4 blocks by registers; 5 fit at 0 bytes, 4 at 9152.
  const auto r = occupancyForAnyDynamicSharedMemory(h100(), kernel(64, 40000), block(256));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->largestDynamicSharedMemory, 49152 - 40000);
  EXPECT_EQ(r->result.blocksPerSM, 4);
}

TEST(OccupancyUnknownSharedMemory, TheOptInAttributeRaisesTheLargestAmount) {
  // 1024 threads x 64 registers: one block by registers; with the attribute
  // at 100000 B, one block of 101024 B still fits twice: 1 block whatever
  // the amount.
  const auto r = occupancyForAnyDynamicSharedMemory(h100(), kernel(64), block(1024, 100000));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->largestDynamicSharedMemory, 100000);
  EXPECT_EQ(r->result.blocksPerSM, 1);
  EXPECT_DOUBLE_EQ(r->result.occupancy, 0.5);
  // An attribute of a runtime value (recorded as the most there is) allows
  // up to the per-block opt-in limit less the reserve: still one block.
  const auto any = occupancyForAnyDynamicSharedMemory(h100(), kernel(64), block(1024, INT64_MAX));
  ASSERT_TRUE(any);
  EXPECT_EQ(any->largestDynamicSharedMemory, 232448);
  // The same kernel at 512 threads: 2 blocks by registers, 2 at 100000 B
  // but 1 at the opt-in limit.
  EXPECT_TRUE(occupancyForAnyDynamicSharedMemory(h100(), kernel(64), block(512, 100000)));
  EXPECT_FALSE(occupancyForAnyDynamicSharedMemory(h100(), kernel(64), block(512, INT64_MAX)));
}

TEST(OccupancyUnknownSharedMemory, RegisterStepsAreTheOnesAtTheLargestAmount) {
  // 256 threads x 72 registers: 3 blocks (18 K registers a block). At 64
  // registers 4 blocks fit whatever the amount (4 by shared memory at 48 KB):
  // the step is reported. A fifth block (48 registers) fits only at small
  // amounts: no step promises it.
  const auto r = occupancyForAnyDynamicSharedMemory(h100(), kernel(72), block(256));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->result.blocksPerSM, 3);
  ASSERT_TRUE(hasStep(r->result, "registers"));
  for (const NextStep &s : r->result.nextSteps)
    EXPECT_LE(s.blocksPerSM, 4) << s.text;
  EXPECT_FALSE(hasStep(r->result, "shared memory"));
}

TEST(OccupancyUnknownSharedMemory, ALaunchThatFailsAtEveryAmountIsNotAnswered) {
  EXPECT_FALSE(occupancyForAnyDynamicSharedMemory(h100(), kernel(32), block(2048)));
  EXPECT_FALSE(occupancyForAnyDynamicSharedMemory(h100(), kernel(32, 60000), block(256)));
}
