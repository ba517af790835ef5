// The occupancy staircase of an async-copy ring over its depth
// (gpu/PipelineStaircase.h), on a hand-built A100 (sm_80: 167936 B of shared
// memory per SM, 1024 B reserved per block, 48 KB default and 163 KB opt-in
// per block, 64 warps and 32 blocks per SM).
#include "gpu/PipelineStaircase.h"

#include <gtest/gtest.h>

#include "HandBuiltArchs.h"

using namespace occlint;

namespace {

TargetGpu a100() {
  TargetGpu Gpu;
  Gpu.arch = occlint::testing::handBuiltSm80();
  Gpu.productName = "A100";
  Gpu.smCount = 108;
  return Gpu;
}

std::vector<int> blocksPerSM(const std::vector<PipelineDepthPoint> &Points) {
  std::vector<int> Out;
  for (const PipelineDepthPoint &P : Points)
    Out.push_back(P.fits ? P.blocksPerSM : -1);
  return Out;
}

// 256 threads, 32 registers: 8 blocks by warps and by registers. Each 16 KB
// stage plus the 1 KB reserve: 9 blocks' worth of shared memory at S = 1
// (167936 / 17408), then 4, 3, 2, 2, 1 ... until 10 stages (164864 B with
// the reserve) still fit the 163 KB (+1 KB) opt-in limit and 11 do not.
TEST(PipelineStaircase, SixteenKilobyteStagesOnAnA100) {
  KernelResources Kernel;
  Kernel.registersPerThread = 32;
  LaunchShape Launch;
  Launch.blockX = 256;
  const std::vector<PipelineDepthPoint> Points = pipelineStaircase(a100(), Kernel, Launch, 16384);
  EXPECT_EQ(blocksPerSM(Points), (std::vector<int>{8, 4, 3, 2, 2, 1, 1, 1, 1, 1, -1}));
  EXPECT_EQ(Points[1].sharedBytes, 32768);
  EXPECT_EQ(describeStaircase(Points), "1:8 2:4 3:3 4:2 5:2 6:1 7:1 8:1 9:1 10:1 11:-");
  EXPECT_EQ(Points[0].bindingLimiters, unsigned(Limiter::Warps) | unsigned(Limiter::Registers));
  EXPECT_EQ(Points[1].bindingLimiters, unsigned(Limiter::SharedMemory));
}

// The shared memory outside the ring counts at every depth.
TEST(PipelineStaircase, OtherSharedMemoryComesOnTop) {
  KernelResources Kernel;
  Kernel.registersPerThread = 32;
  Kernel.staticSharedMem = 8192;
  LaunchShape Launch;
  Launch.blockX = 128;
  // 8 KB + S x 32 KB + 1 KB: 41 KB -> 4 blocks, 73 KB -> 2, 105 KB -> 1, 137 KB -> 1, 169 KB: over.
  const std::vector<PipelineDepthPoint> Points = pipelineStaircase(a100(), Kernel, Launch, 32768);
  EXPECT_EQ(blocksPerSM(Points), (std::vector<int>{4, 2, 1, 1, -1}));
}

// Every depth fits: the staircase stops at the cap.
TEST(PipelineStaircase, StopsAtTheCap) {
  KernelResources Kernel;
  LaunchShape Launch;
  Launch.blockX = 1024;
  const std::vector<PipelineDepthPoint> Points = pipelineStaircase(a100(), Kernel, Launch, 256, 6);
  EXPECT_EQ(blocksPerSM(Points), (std::vector<int>{2, 2, 2, 2, 2, 2}));
}

TEST(PipelineStaircase, NoStageBytesNoStaircase) {
  EXPECT_TRUE(pipelineStaircase(a100(), KernelResources{}, LaunchShape{}, 0).empty());
}

} // namespace
