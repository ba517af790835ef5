// Unit tests of the block size search (cudaOccupancyMaxPotentialBlockSize),
// with the expected values written out. Each was first computed with
// cuda_occupancy.h's cudaOccMaxPotentialOccupancyBlockSize on the same
// hand-built arch (tests/gpu/HandBuiltArchs.h) and SM count, and is derived
// by hand in its comment; the exhaustive comparison with the header is
// tests/gpu/OccupancyBlockSizeSearchDifferentialTest.cpp.
#include "gpu/OccupancyBlockSizeSearch.h"

#include <gtest/gtest.h>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

TargetGpu h100() { return {occlint::testing::handBuiltSm90(), "H100 SXM", 132}; }
TargetGpu a100() { return {occlint::testing::handBuiltSm80(), "A100", 108}; }
TargetGpu l40s() { return {occlint::testing::handBuiltSm89(), "L40S", 142}; }

using occlint::testing::kernel;

BlockSizeSearchInputs limited(int blockSizeLimit) {
  BlockSizeSearchInputs in;
  in.blockSizeLimit = blockSizeLimit;
  return in;
}

// 32 registers x 1024 threads = 32 warps x 1024 registers = 32K of the 64K
// register file: 2 blocks = 2048 threads, the SM's maximum, on the first size
// tried. minGridSize = 2 x 132.
TEST(OccupancyBlockSizeSearch, ThirtyTwoRegistersOnH100) {
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(32));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.blockSize, 1024);
  EXPECT_EQ(r.minGridSize, 264);
  EXPECT_EQ(r.blocksPerSM, 2);
  EXPECT_EQ(r.threadsPerSM, 2048);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.blockSizeLimit, 1024);
  EXPECT_TRUE(r.stoppedAtFullOccupancy);
  ASSERT_EQ(r.tried.size(), 1u);
  EXPECT_EQ(describeBlockSizeSearch(r, h100()),
            "block size 1024, min grid 264 (2 blocks/SM x 132 SMs, 100.0% occupancy); tried "
            "1024 down to 1024 (1 size), stopped at full occupancy");
}

// Ties go to the larger block, tried first: 64 registers leave 32 warps per
// SM, 1024 threads x 1 block = 512 x 2 = 1024 threads. minGridSize = 1 x 108.
TEST(OccupancyBlockSizeSearch, TieKeepsTheLargerBlock) {
  const BlockSizeSearchResult r = maxPotentialBlockSize(a100(), kernel(64));
  EXPECT_EQ(r.blockSize, 1024);
  EXPECT_EQ(r.minGridSize, 108);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_FALSE(r.stoppedAtFullOccupancy); // 1024 of 2048 threads: every size is tried
  ASSERT_EQ(r.tried.size(), 32u);
  EXPECT_EQ(r.tried[16].blockSize, 512);
  EXPECT_EQ(r.tried[16].threadsPerSM, 1024);
  // 255 registers: 256 threads x 1 block = 128 x 2 (whole warps per
  // sub-partition); 288 threads and more do not fit the register file.
  const BlockSizeSearchResult r255 = maxPotentialBlockSize(a100(), kernel(255));
  EXPECT_EQ(r255.blockSize, 256);
  EXPECT_EQ(r255.minGridSize, 108);
  // 128 registers on H100: 512 x 1 = 256 x 2.
  const BlockSizeSearchResult r128 = maxPotentialBlockSize(h100(), kernel(128));
  EXPECT_EQ(r128.blockSize, 512);
  EXPECT_EQ(r128.minGridSize, 132);
}

// 1536 threads per SM: 1024 fits once (1024 threads), 768 twice (1536, full).
// minGridSize = 2 x 142.
TEST(OccupancyBlockSizeSearch, LargestBlockIsNotTheAnswerOn1536ThreadSMs) {
  const BlockSizeSearchResult r = maxPotentialBlockSize(l40s(), kernel(0));
  EXPECT_EQ(r.blockSize, 768);
  EXPECT_EQ(r.minGridSize, 284);
  EXPECT_TRUE(r.stoppedAtFullOccupancy);
  EXPECT_EQ(r.tried.size(), 9u); // 1024, 992, ..., 768
  EXPECT_EQ(maxPotentialBlockSize(l40s(), kernel(40)).blockSize, 768);
}

// blockSizeLimit: 0 is the device's 1024. 96: 96 threads give 21 blocks (64 /
// 3 warps) = 2016 threads, 64 give 32 = 2048, full: 64 wins, below the limit.
// 128: 16 blocks = 2048. 1000 (not a warp multiple, tried itself first): 32
// warps, 2 blocks = 2000 threads; nothing reaches more until 512 x 4 = 2048.
TEST(OccupancyBlockSizeSearch, BlockSizeLimit) {
  EXPECT_EQ(maxPotentialBlockSize(h100(), kernel(32), limited(0)).blockSize, 1024);
  const BlockSizeSearchResult r96 = maxPotentialBlockSize(h100(), kernel(32), limited(96));
  EXPECT_EQ(r96.blockSize, 64);
  EXPECT_EQ(r96.minGridSize, 32 * 132);
  const BlockSizeSearchResult r128 = maxPotentialBlockSize(h100(), kernel(32), limited(128));
  EXPECT_EQ(r128.blockSize, 128);
  EXPECT_EQ(r128.minGridSize, 16 * 132);
  const BlockSizeSearchResult r1000 = maxPotentialBlockSize(h100(), kernel(32), limited(1000));
  EXPECT_EQ(r1000.blockSize, 512);
  EXPECT_EQ(r1000.minGridSize, 4 * 132);
  ASSERT_FALSE(r1000.tried.empty());
  EXPECT_EQ(r1000.tried[0].blockSize, 1000);
  EXPECT_EQ(r1000.tried[0].threadsPerSM, 2000);
  EXPECT_EQ(r1000.tried[1].blockSize, 992);
  // Above the device's maximum: the device's.
  EXPECT_EQ(maxPotentialBlockSize(h100(), kernel(32), limited(2048)).blockSizeLimit, 1024);
  // A limit of 100 threads with no registers on A100: 100 x 16 (25 % of the
  // warp lanes idle) = 1600, 96 x 21 = 2016, 64 x 32 = 2048. 32 x 108.
  const BlockSizeSearchResult r100 = maxPotentialBlockSize(a100(), kernel(0), limited(100));
  EXPECT_EQ(r100.blockSize, 64);
  EXPECT_EQ(r100.minGridSize, 3456);
}

// __launch_bounds__(256) lowers the limit like blockSizeLimit: 256 x 8 blocks.
TEST(OccupancyBlockSizeSearch, LaunchBoundsClampTheLimit) {
  KernelResources k = kernel(32);
  k.launchBoundsMaxThreads = 256;
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), k, limited(1000));
  EXPECT_EQ(r.blockSizeLimit, 256);
  EXPECT_EQ(r.blockSize, 256);
  EXPECT_EQ(r.minGridSize, 1056);
}

// 120 KB of dynamic shared memory (opted in) + 1 KB reserved: one block per
// SM (228 KB) whatever the size, so the largest wins. 1 x 132.
TEST(OccupancyBlockSizeSearch, SharedMemoryBoundKernelKeepsTheLargestBlock) {
  BlockSizeSearchInputs in;
  in.dynamicSharedMem = 120 * 1024;
  in.optinDynamicSharedMem = 120 * 1024;
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(32), in);
  EXPECT_EQ(r.blockSize, 1024);
  EXPECT_EQ(r.minGridSize, 132);
  EXPECT_EQ(r.dynamicSharedMem, 120 * 1024);
}

// 200 B per thread, no opt-in: the default 48 KB per block admits 245
// threads; 224 x 200 B + 1 KB reserved = 45,824 B, 5 blocks in 228 KB = 1120
// threads, more than any smaller size. 5 x 132.
TEST(OccupancyBlockSizeSearch, DynamicSharedMemoryPerBlockSize) {
  BlockSizeSearchInputs in;
  in.dynamicSharedMem = 1; // ignored when a function is given, as the runtime ignores it
  in.dynamicSharedMemFor = [](int blockSize) { return int64_t(200) * blockSize; };
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(32), in);
  EXPECT_EQ(r.blockSize, 224);
  EXPECT_EQ(r.minGridSize, 660);
  EXPECT_EQ(r.blocksPerSM, 5);
  EXPECT_EQ(r.dynamicSharedMem, 44800);
  EXPECT_EQ(r.tried[0].blocksPerSM, 0); // 1024 x 200 B needs an opt-in
}

// 50 KB of static shared memory exceed the 48 KB per block: no size launches.
TEST(OccupancyBlockSizeSearch, NoBlockSizeCanLaunch) {
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(32, 50 * 1024));
  ASSERT_TRUE(r.error.empty());
  EXPECT_EQ(r.blockSize, 0);
  EXPECT_EQ(r.minGridSize, 0);
  EXPECT_EQ(r.failure, LaunchFailure::TooMuchSharedMemory);
  EXPECT_EQ(r.tried.size(), 32u);
  EXPECT_EQ(describeBlockSizeSearch(r, h100()),
            "no block size: none of the 32 sizes tried (1024 down to 32) can launch (1024 "
            "threads: too much shared memory)");
}

// cuda_runtime.h: a negative blockSizeLimit stays below the device's and the
// function's maximum, and the walk starts at or below 0: nothing is tried.
TEST(OccupancyBlockSizeSearch, NegativeLimitTriesNothing) {
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(32), limited(-5));
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.blockSize, 0);
  EXPECT_EQ(r.minGridSize, 0);
  EXPECT_TRUE(r.tried.empty());
  EXPECT_EQ(describeBlockSizeSearch(r, h100()), "no block size: the block size limit is -5, nothing to try");
}

TEST(OccupancyBlockSizeSearch, InvalidInputs) {
  EXPECT_FALSE(maxPotentialBlockSize(h100(), kernel(-1)).error.empty());
  TargetGpu noSms = h100();
  noSms.smCount = 0;
  EXPECT_FALSE(maxPotentialBlockSize(noSms, kernel(32)).error.empty());
  KernelResources zeroBounds = kernel(32);
  zeroBounds.launchBoundsMaxThreads = 0;
  EXPECT_FALSE(maxPotentialBlockSize(h100(), zeroBounds).error.empty());
  BlockSizeSearchInputs negative;
  negative.dynamicSharedMem = -1;
  EXPECT_FALSE(maxPotentialBlockSize(h100(), kernel(32), negative).error.empty());
  BlockSizeSearchInputs negativeFor;
  negativeFor.dynamicSharedMemFor = [](int blockSize) { return blockSize < 512 ? -1 : 0; };
  const BlockSizeSearchResult r = maxPotentialBlockSize(h100(), kernel(128), negativeFor);
  EXPECT_EQ(r.error, "the dynamic shared memory for 480 threads is negative (-1 B)");
  BlockSizeSearchInputs flags;
  flags.flags = 0x2;
  EXPECT_EQ(maxPotentialBlockSize(h100(), kernel(32), flags).error, "unknown occupancy flags 0x2");
}

// Without partitioned global caching (the engine's assumption) the flag
// changes nothing, in the header as here.
TEST(OccupancyBlockSizeSearch, DisableCachingOverrideIsTheSameWithoutPartitionedCaching) {
  BlockSizeSearchInputs in;
  in.flags = kOccupancyDisableCachingOverride;
  const BlockSizeSearchResult r = maxPotentialBlockSize(a100(), kernel(64), in);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.blockSize, 1024);
  EXPECT_EQ(r.minGridSize, 108);
}

} // namespace
