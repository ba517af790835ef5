// The `occlint resources` command line, on committed real nvcc 13 logs and
// (where a toolkit exists) on a source file it compiles itself.
#include "CommandRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace occlint::testing;

namespace {

const std::string PtxasDir = std::string(OCCLINT_SOURCE_DIR) + "/test-inputs/ptxas/";

CommandResult resources(const std::string &Args, bool MergeStderr = true) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " resources " + Args, MergeStderr);
}

const nlohmann::json *findFunction(const nlohmann::json &J, const std::string &Name, const std::string &Arch) {
  for (const nlohmann::json &F : J["functions"])
    if (F["name"] == Name && F["arch"] == Arch)
      return &F;
  return nullptr;
}

TEST(ResourcesCommand, ReadsARealMultiArchLogAsJson) {
  CommandResult R = resources("--ptxas-log " + shellQuote(PtxasDir + "nvcc_sm90.log") + " --format json", false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  nlohmann::json J = nlohmann::json::parse(R.output);
  const nlohmann::json *Big = findFunction(J, "_Z9bigSharedPKfPf", "sm_90");
  ASSERT_NE(Big, nullptr) << R.output;
  EXPECT_EQ((*Big)["registers"], 18);
  EXPECT_EQ((*Big)["sharedMemory"], 40960);
  EXPECT_EQ((*Big)["barriers"], 1);
  EXPECT_TRUE((*Big)["kernel"].get<bool>());
  const nlohmann::json *Spill = findFunction(J, "_Z12hungryBoundsPKfPfi", "sm_90");
  ASSERT_NE(Spill, nullptr) << R.output;
  EXPECT_EQ((*Spill)["registers"], 64);
  EXPECT_EQ((*Spill)["spillStores"], 1476);
  EXPECT_EQ((*Spill)["spillLoads"], 1800);
}

TEST(ResourcesCommand, TableShowsDemangledNames) {
  CommandResult R = resources("--ptxas-log " + shellQuote(PtxasDir + "nvcc_sm80.log"));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("void scale<float>(float*, float, int)"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("(device)"), std::string::npos) << R.output;
}

TEST(ResourcesCommand, ALogWithNothingInItIsAnInputError) {
  CommandResult R = resources("--ptxas-log " + shellQuote(std::string(OCCLINT_SOURCE_DIR) + "/README.md"));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("README.md: no ptxas resource report in it"), std::string::npos) << R.output;
}

TEST(ResourcesCommand, MissingFilesAreInputErrors) {
  CommandResult Log = resources("--ptxas-log /nonexistent/build.log");
  EXPECT_EQ(Log.exitCode, 2);
  EXPECT_NE(Log.output.find("/nonexistent/build.log: no such file"), std::string::npos) << Log.output;
  CommandResult Source = resources("/nonexistent/k.cu");
  EXPECT_EQ(Source.exitCode, 2);
  EXPECT_NE(Source.output.find("/nonexistent/k.cu: no such file"), std::string::npos) << Source.output;
  CommandResult Nothing = resources("");
  EXPECT_EQ(Nothing.exitCode, 2);
}

TEST(ResourcesCommand, CompilesASourceFileWithTheToolkit) {
  if (!std::filesystem::exists(std::string(OCCLINT_CUDA_PATH) + "/bin/ptxas"))
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH " (this test runs nvcc)";
  const std::string Cache = ::testing::TempDir() + "occlint-resources-cache";
  std::filesystem::remove_all(Cache);
  CommandResult R = runCommand("OCCLINT_CACHE_DIR=" + shellQuote(Cache) + " " + shellQuote(OCCLINT_BINARY) +
                                   " resources " + shellQuote(PtxasDir + "kernels.cu") + " --gpu sm_80 --format json",
                               false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  nlohmann::json J = nlohmann::json::parse(R.output);
  const nlohmann::json *Big = findFunction(J, "_Z9bigSharedPKfPf", "sm_80");
  ASSERT_NE(Big, nullptr) << R.output;
  EXPECT_EQ((*Big)["registers"], 10); // as in the committed nvcc_sm80.log
  EXPECT_EQ((*Big)["sharedMemory"], 40960);
}

} // namespace
