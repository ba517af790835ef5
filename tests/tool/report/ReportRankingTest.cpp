// The order of "Where to start" (tool/report/ReportRanking.h): a finding's
// loss for its launch times the launch's size in waves, so that a demo's
// 2-block grid or a `<<<1, 1>>>` final step does not open the page.
#include "report/ReportRanking.h"

#include "gpu/GpuDatabase.h"

#include <gtest/gtest.h>

using clang::tidy::occlint::LaunchRecord;
using occlint::estimateFindingLoss;
using occlint::estimateLaunchWeight;
using occlint::FindingLoss;
using occlint::LaunchWeight;
using occlint::ranksBefore;

namespace {

// A launch on an H100 (132 SMs): Grid blocks of Threads threads, BlocksPerSM
// resident per SM when the occupancy is known (0: not known).
LaunchRecord launch(std::optional<int64_t> Grid, int Threads, int BlocksPerSM,
                    std::optional<int64_t> GridAtMost = std::nullopt) {
  LaunchRecord L;
  std::string Error;
  L.gpu = *occlint::GpuDatabase::builtin().resolve("H100", Error);
  occlint::LaunchShape Shape;
  Shape.blockX = Threads;
  Shape.gridBlocks = Grid;
  L.shape = Shape;
  L.gridBlocksAtMost = Grid ? Grid : GridAtMost;
  if (BlocksPerSM > 0) {
    occlint::OccupancyResult R;
    R.blocksPerSM = BlocksPerSM;
    L.occupancy = R;
  }
  return L;
}

TEST(ReportRanking, ALaunchWeighsItsBlocksOverTheBlocksResidentAtOnce) {
  EXPECT_DOUBLE_EQ(estimateLaunchWeight(launch(264, 256, 8)).waves, 0.25);
  EXPECT_DOUBLE_EQ(estimateLaunchWeight(launch(2112, 256, 8)).waves, 2.0);
  EXPECT_DOUBLE_EQ(estimateLaunchWeight(launch(1, 1, 32)).waves, 1.0 / (32 * 132));
  // The occupancy not known: as many blocks as the threads and the block cap
  // allow (64 warps, 32 blocks per SM on sm_90): the least the launch weighs.
  EXPECT_DOUBLE_EQ(estimateLaunchWeight(launch(132 * 8, 256, 0)).waves, 1.0);
  EXPECT_DOUBLE_EQ(estimateLaunchWeight(launch(132 * 32, 32, 0)).waves, 1.0);
  // A grid known by its bound counts at the bound; one not known at all as one wave.
  const LaunchWeight Bound = estimateLaunchWeight(launch(std::nullopt, 256, 8, 132 * 8 * 3));
  EXPECT_EQ(Bound.basis, LaunchWeight::Basis::Bound);
  EXPECT_DOUBLE_EQ(Bound.waves, 3.0);
  const LaunchWeight Unknown = estimateLaunchWeight(launch(std::nullopt, 256, 8));
  EXPECT_EQ(Unknown.basis, LaunchWeight::Basis::Unbounded);
  EXPECT_DOUBLE_EQ(Unknown.waves, 1.0);
  EXPECT_EQ(occlint::describeLaunchWeight(estimateLaunchWeight(launch(2, 64, 16))), "0.1% of a wave (2 blocks)");
  EXPECT_EQ(occlint::describeLaunchWeight(estimateLaunchWeight(launch(1, 1, 32))), "under 0.1% of a wave (1 block)");
  EXPECT_EQ(occlint::describeLaunchWeight(Bound), "at most 3.0 waves (3168 blocks)");
  EXPECT_EQ(occlint::describeLaunchWeight(Unknown), "1 wave or more (grid not known)");
}

TEST(ReportRanking, ADemosTinyGridRanksBelowABigLaunchsSmallerLoss) {
  // 2 blocks on 132 SMs: 98.5% of the SMs idle, for 2/264 of a wave.
  const LaunchRecord Demo = launch(2, 256, 2);
  const FindingLoss TinyGrid = estimateFindingLoss("cuda-launch-tiny-grid", Demo);
  ASSERT_EQ(TinyGrid.kind, FindingLoss::Kind::Estimated);
  // 100 threads: 21.9% of the lanes masked off, on 100,000 blocks.
  const LaunchRecord Big = launch(100000, 100, 16);
  const FindingLoss Lanes = estimateFindingLoss("cuda-launch-block-not-warp-multiple", Big);
  ASSERT_EQ(Lanes.kind, FindingLoss::Kind::Estimated);
  ASSERT_GT(TinyGrid.loss, Lanes.loss) << "the demo's own launch loses more";
  EXPECT_TRUE(ranksBefore(Lanes, estimateLaunchWeight(Big), TinyGrid, estimateLaunchWeight(Demo)));
  EXPECT_FALSE(ranksBefore(TinyGrid, estimateLaunchWeight(Demo), Lanes, estimateLaunchWeight(Big)));
  // The same two launches, equal in size: the larger loss first.
  const LaunchWeight Same = estimateLaunchWeight(Big);
  EXPECT_TRUE(ranksBefore(TinyGrid, Same, Lanes, Same));
}

TEST(ReportRanking, KindsKeepTheirOrderAndOccupancyOnlyFindingsGoByLaunchSize) {
  FindingLoss CannotStart, Estimated, Occupancy, Low;
  CannotStart.kind = FindingLoss::Kind::CannotStart;
  Estimated.kind = FindingLoss::Kind::Estimated;
  Estimated.loss = 0.01;
  Occupancy.kind = Low.kind = FindingLoss::Kind::OccupancyOnly;
  Occupancy.occupancy = 0.5;
  Low.occupancy = 0.25;
  LaunchWeight Small, Large;
  Small.waves = 0.01;
  Large.waves = 40;
  EXPECT_TRUE(ranksBefore(CannotStart, Small, Estimated, Large));
  EXPECT_TRUE(ranksBefore(Estimated, Small, Occupancy, Large)) << "an estimate before occupancy alone";
  EXPECT_TRUE(ranksBefore(Occupancy, Large, Low, Small)) << "the larger launch first";
  EXPECT_TRUE(ranksBefore(Low, Large, Occupancy, Large)) << "then the lower occupancy";
}

} // namespace
