// The `occlint occupancy` command line: outputs, JSON, and the one-line errors
// with their documented exit codes.
#include "CommandRunner.h"

#include <gtest/gtest.h>

#include <cctype>
#include <nlohmann/json.hpp>

using namespace occlint::testing;

namespace {

CommandResult occupancy(const std::string &Args, bool MergeStderr = true) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " occupancy " + Args, MergeStderr);
}

size_t countLines(const std::string &S) { return std::count(S.begin(), S.end(), '\n'); }

TEST(OccupancyCommand, PrintsLimitsOccupancyAndNextStep) {
  CommandResult R = occupancy("--gpu A100 --block 256 --regs 130 --grid 1000");
  ASSERT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("Block Limit Registers      1   <- binding"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("Occupancy      12.5%"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("2 fewer registers per thread"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("Waves"), std::string::npos) << R.output;
}

TEST(OccupancyCommand, JsonCarriesTheSameNumbers) {
  CommandResult R = occupancy("--gpu H200 --block 32 --regs 16 --grid 40 --format=json", false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  nlohmann::json J = nlohmann::json::parse(R.output);
  EXPECT_EQ(J["version"], 1);
  EXPECT_EQ(J["gpu"]["sms"], 132);
  EXPECT_EQ(J["blocksPerSM"], 32);
  EXPECT_DOUBLE_EQ(J["occupancy"].get<double>(), 0.5);
  EXPECT_EQ(J["limitedBy"], nlohmann::json::array({"blocks"}));
  EXPECT_EQ(J["blockLimits"]["blocks"], 32);
  EXPECT_TRUE(J["canLaunch"].get<bool>());
}

TEST(OccupancyCommand, SeedRegisterExampleOnA100) {
  CommandResult R = occupancy("--gpu sm_80:108 --block 256 --regs 64 --format json", false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  nlohmann::json J = nlohmann::json::parse(R.output);
  EXPECT_DOUBLE_EQ(J["occupancy"].get<double>(), 0.5);
  EXPECT_EQ(J["limitedBy"], nlohmann::json::array({"registers"}));
}

TEST(OccupancyCommand, CannotLaunchIsAFindingWithExitCode1) {
  CommandResult R = occupancy("--gpu A100 --block 512 --regs 255");
  EXPECT_EQ(R.exitCode, 1) << R.output;
  EXPECT_NE(R.output.find("Cannot launch"), std::string::npos) << R.output;
}

// The staircase of an async-copy ring over its depth (gpu/PipelineStaircase.h;
// the numbers are those of tests/gpu/PipelineStaircaseTest.cpp, plus 8 KB
// outside the ring): 8 KB + S x 16 KB + 1 KB reserved on an A100.
TEST(OccupancyCommand, StagesPrintTheStaircase) {
  CommandResult R = occupancy("--gpu A100 --block 256 --regs 32 --smem 8K --stages 1-4 --smem-per-stage 16K");
  ASSERT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("stages of 16384 B, 8192 B of shared memory outside it"), std::string::npos) << R.output;
  // With the reserve: 25600 B -> 6 blocks of 8 warps, 41984 -> 4, 58368 -> 2, 74752 -> 2.
  EXPECT_NE(R.output.find("1       24576          6          75.0%      shared memory"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("2       40960          4          50.0%"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("4       73728          2          25.0%"), std::string::npos) << R.output;

  CommandResult J =
      occupancy("--gpu A100 --block 256 --regs 32 --smem 8K --stages 3-4 --smem-per-stage 16K --format json", false);
  ASSERT_EQ(J.exitCode, 0) << J.output;
  nlohmann::json Out = nlohmann::json::parse(J.output);
  ASSERT_EQ(Out["pipelineDepths"].size(), 2u) << J.output;
  EXPECT_EQ(Out["pipelineDepths"][0]["stages"], 3);
  EXPECT_EQ(Out["pipelineDepths"][0]["blocksPerSM"], 2);
  EXPECT_EQ(Out["bytesPerStage"], 16384);
}

// No depth of the range fits in one block: a finding (exit 1), as a launch
// that cannot start.
TEST(OccupancyCommand, StagesThatNeverFitAreAFinding) {
  CommandResult R = occupancy("--gpu A100 --block 256 --regs 32 --stages 1 --smem-per-stage 200K");
  EXPECT_EQ(R.exitCode, 1) << R.output;
  EXPECT_NE(R.output.find("does not fit in one block"), std::string::npos) << R.output;
}

TEST(OccupancyCommand, StagesWithTheTilesWorkGetTheOverlapEstimate) {
  // H100 SXM: 3.35 TB/s over 132 SMs. Two blocks per SM (128 registers)
  // load 2 x 32 KB per tile: 2582 ns; 2 M tensor FLOPs per block and tile
  // take 560 ns: load-bound. Two stages give 2582 ns to hide 303 ns of
  // latency plus the 2582 ns load: not enough; three give twice that.
  CommandResult R = occupancy("--gpu H100 --block 256 --regs 128 --smem 8K --stages 1-4 --smem-per-stage 32K "
                              "--tile-tensor-flops 2097152");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("Load    Compute  Covered"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("2       73728          2          25.0%      2582    560      no"), std::string::npos)
      << R.output;
  EXPECT_NE(R.output.find("3       106496         2          25.0%      2582    560      yes"), std::string::npos)
      << R.output;
  CommandResult J = occupancy("--gpu H100 --block 256 --regs 128 --stages 2-3 --smem-per-stage 32K "
                              "--tile-tensor-flops 2097152 --format json",
                              false);
  const nlohmann::json Out = nlohmann::json::parse(J.output);
  EXPECT_EQ(Out["pipelineDepths"][0]["estimate"]["bound"], "load") << J.output;
  EXPECT_EQ(Out["pipelineDepths"][0]["estimate"]["coversLoad"], false) << J.output;
  EXPECT_EQ(Out["pipelineDepths"][1]["estimate"]["coversLoad"], true) << J.output;
  // Without the tile's work, the staircase alone, as before.
  EXPECT_EQ(occupancy("--gpu H100 --block 256 --regs 128 --stages 1-2 --smem-per-stage 32K").output.find("Covered"),
            std::string::npos);
}

struct BadInput {
  const char *args;
  const char *expectedText;
};

class OccupancyBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(OccupancyBadInput, OneClearLineAndExitCode2) {
  CommandResult R = occupancy(GetParam().args);
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_EQ(countLines(R.output), 1u) << R.output;
  EXPECT_NE(R.output.find(GetParam().expectedText), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("terminate"), std::string::npos) << R.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OccupancyBadInput,
    ::testing::Values(
        BadInput{"--gpu H1000 --block 256 --regs 32", "unknown GPU 'H1000'; did you mean: H100"},
        BadInput{"--gpu H100 --block 256 --regs 256", "--regs: 256 is over the maximum of 255"},
        BadInput{"--gpu H100 --block 256 --regs -1", "--regs: -1 is below the minimum of 0"},
        BadInput{"--gpu H100 --block 256 --regs twelve", "--regs: 'twelve' is not an integer"},
        BadInput{"--gpu H100 --block 0 --regs 32", "--block: '0' has a dimension below 1"},
        BadInput{"--gpu H100 --block 1025 --regs 32", "1025 threads is over the maximum of 1024"},
        BadInput{"--gpu H100 --block 64x32 --regs 32", "2048 threads is over the maximum"},
        BadInput{"--gpu H100 --block 16xx --regs 32", "is not a block shape"},
        BadInput{"--gpu H100 --block 256 --regs 32 --smem -4", "--smem: -4 is below the minimum"},
        BadInput{"--gpu H100 --block 256 --regs 32 --smem lots", "is not a size"},
        BadInput{"--gpu H100 --block 256", "--regs is required"},
        BadInput{"--gpu H100 --block 256 --regs 32 --format xml", "--format: 'xml' is not one of"},
        BadInput{"--gpu H100 --block 256 --regs 32 --bogus 1", "unknown option '--bogus'"},
        BadInput{"--gpu sm_90:0 --block 256 --regs 32", "invalid SM count '0'"},
        BadInput{"--gpu H100 --block 256 --regs", "--regs needs a value"},
        BadInput{"--gpu A100 --block 256 --regs 32 --stages 1-4", "--stages and --smem-per-stage go together"},
        BadInput{"--gpu A100 --block 256 --regs 32 --tile-flops 1000", "need --stages and --smem-per-stage"},
        BadInput{"--gpu A100 --block 256 --regs 32 --stages 4-2 --smem-per-stage 16K",
                 "the first depth not above the last"},
        BadInput{"--gpu A100 --block 256 --regs 32 --stages two --smem-per-stage 16K", "is not a depth or a range"}),
    // Named after the arguments (gtest's default printed the struct's bytes,
    // pointers included: names that changed with every build).
    [](const ::testing::TestParamInfo<BadInput> &Info) {
      std::string Name;
      for (const char *C = Info.param.args; *C; ++C)
        Name += std::isalnum(static_cast<unsigned char>(*C)) ? *C : '_';
      return Name;
    });

} // namespace
