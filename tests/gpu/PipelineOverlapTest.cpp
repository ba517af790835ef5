// The overlap estimate of an async-copy ring (gpu/PipelineOverlap.h): one
// tile's load and compute times per SM from datasheet rates, and whether S
// stages cover the load. The figures are worked by hand in each test's
// comment so that a change of the formula shows.
#include "gpu/PipelineOverlap.h"

#include <gtest/gtest.h>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

// A hand-built A100 80GB: 108 SMs, 2,039 GB/s, 19.5 TFLOPS FP32, 312 TFLOPS
// FP16 tensor, 1410 MHz.
TargetGpu a100(bool WithRates = true) {
  TargetGpu Gpu;
  Gpu.arch = occlint::testing::handBuiltSm80();
  Gpu.productName = "A100 80GB";
  Gpu.smCount = 108;
  if (WithRates)
    Gpu.throughput = ProductThroughput{2039, 1410, 19.5, 312, "test"};
  return Gpu;
}

// 8 KB per tile and block at 6 blocks per SM: 6 * 8192 B / (2039 / 108 B/ns)
// = 2603.4 ns to load; 1024 FP operations x 128 threads per block: 6 * 131072
// / (19500 / 108 FLOP/ns) = 4355.6 ns to compute; 600 cycles at 1.41 GHz =
// 425.5 ns of latency.
TEST(PipelineOverlap, TileTimesFromTheDatasheetRates) {
  const std::optional<TileTimes> T = tileTimes(a100(), 8192, {1024.0 * 128, 0}, 6);
  ASSERT_TRUE(T);
  EXPECT_NEAR(T->loadNs, 2603.4, 0.1);
  EXPECT_NEAR(T->computeNs, 4355.6, 0.1);
  EXPECT_NEAR(T->latencyNs, 425.5, 0.1);
  EXPECT_TRUE(T->computeBound());
  EXPECT_DOUBLE_EQ(T->tileNs(), T->computeNs);
}

// Tensor FLOPs go at the tensor rate: 64 MMAs of m16n8k16 (4096 FLOPs) per
// warp, 4 warps: 1,048,576 FLOPs per block; at 2 blocks per SM, 2 * 1048576 /
// (312000 / 108) = 725.9 ns.
TEST(PipelineOverlap, TensorFlopsAtTheTensorRate) {
  const std::optional<TileTimes> T = tileTimes(a100(), 16384, {0, 64.0 * 4096 * 4}, 2);
  ASSERT_TRUE(T);
  EXPECT_NEAR(T->computeNs, 725.9, 0.1);
}

// (S - 1) * max(load, compute) >= margin * (latency + load).
TEST(PipelineOverlap, ARingCoversTheLoadWhenItsStagesInFlightOutlastLatencyAndTransfer) {
  const TileTimes ComputeBound{2603.4, 4355.6, 425.5};
  EXPECT_FALSE(ringCoversLoad(ComputeBound, 1, 1.0)) << "one stage: nothing in flight";
  EXPECT_TRUE(ringCoversLoad(ComputeBound, 2, 1.0));  // 4355.6 >= 3028.9
  EXPECT_FALSE(ringCoversLoad(ComputeBound, 2, 2.0)); // 4355.6 < 6057.8
  EXPECT_TRUE(ringCoversLoad(ComputeBound, 3, 2.0));  // 8711.2 >= 6057.8
  const TileTimes LoadBound{2603.4, 68.1, 425.5};
  EXPECT_FALSE(ringCoversLoad(LoadBound, 3, 2.0)); // 5206.8 < 6057.8
  EXPECT_TRUE(ringCoversLoad(LoadBound, 3, 1.0));  // 5206.8 >= 3028.9
}

TEST(PipelineOverlap, NoEstimateWithoutRatesOrWork) {
  EXPECT_FALSE(tileTimes(a100(false), 8192, {1024, 0}, 6));
  EXPECT_FALSE(tileTimes(a100(), 0, {1024, 0}, 6));
  EXPECT_FALSE(tileTimes(a100(), 8192, {1024, 0}, 0));
}

// Each fitting depth gets its estimate at its own blocks per SM; the first
// covering depth is the shallowest that covers at margin 1.
TEST(PipelineOverlap, TheStaircaseCarriesTheEstimateAtEachDepth) {
  KernelResources Kernel;
  Kernel.registersPerThread = 32;
  LaunchShape Launch;
  Launch.blockX = 128;
  std::vector<PipelineDepthPoint> Points = pipelineStaircase(a100(), Kernel, Launch, 8192, 6);
  estimateOverlap(Points, a100(), 8192, {1024.0 * 128, 0});
  ASSERT_GE(Points.size(), 4u);
  EXPECT_EQ(Points[2].blocksPerSM, 6);
  EXPECT_EQ(Points[3].blocksPerSM, 4);
  ASSERT_TRUE(Points[2].loadNs && Points[2].coversLoad);
  EXPECT_NEAR(*Points[2].loadNs, 2603.4, 0.1);
  EXPECT_FALSE(*Points[0].coversLoad);
  EXPECT_EQ(firstCoveringDepth(Points), 2);
  std::vector<PipelineDepthPoint> NoRates = pipelineStaircase(a100(false), Kernel, Launch, 8192, 6);
  estimateOverlap(NoRates, a100(false), 8192, {1024.0 * 128, 0});
  EXPECT_FALSE(NoRates[0].loadNs);
  EXPECT_EQ(firstCoveringDepth(NoRates), 0);
}

} // namespace
