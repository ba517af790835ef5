// The lint command's arch passes: one parse per target arch (--gpu, the
// `Targets` check option, the compile command's archs), diagnostics that are
// the same in two passes printed once, --verbose, and the options for the
// checks' resource reports (--ptxas-log, --no-compile).
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path SourceDir = OCCLINT_SOURCE_DIR;
const fs::path LaunchInput = SourceDir / "test-inputs" / "checks" / "launch-block-not-warp-multiple.cu";

// Only the check whose message is the same for every arch (other checks name the GPU).
const std::string OneCheck = "--checks=-*,cuda-launch-block-not-warp-multiple ";

CommandResult occlint(const std::string &Args) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " " + OneCheck + Args);
}

size_t count(const std::string &Text, const std::string &Part) {
  size_t N = 0;
  for (size_t At = Text.find(Part); At != std::string::npos; At = Text.find(Part, At + 1))
    ++N;
  return N;
}

void expectExactlyTheInlineExpectations(const fs::path &File, const CommandResult &R) {
  std::vector<std::string> Problems =
      compareDiagnostics(parseExpectations(readFile(File)), parseClangOutput(R.output, File.string()));
  std::string All;
  for (const std::string &P : Problems)
    All += "  " + P + "\n";
  EXPECT_TRUE(Problems.empty()) << All << "output was:\n" << R.output;
}

class LintPasses : public ::testing::Test {
protected:
  void SetUp() override {
    File = Dir / "k.cu";
    writeFile(File, "#include <cuda_runtime.h>\n"
                    "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n"
                    "void run(float *p) { k<<<8, 100>>>(p); }\n");
  }
  ScratchDir Scratch;
  const fs::path Dir = Scratch.path();
  fs::path File;
};

TEST(ArchPasses, TheSameDiagnosticInTwoArchPassesPrintsOnce) {
  CommandResult R = occlint("--verbose --gpu sm_80 --gpu sm_90 " + shellQuote(LaunchInput.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  // Both archs are analysed (one parse stands for both: OneParseForArchsTest)...
  EXPECT_EQ(count(R.output, "[sm_80]: clang command: "), 1u) << R.output;
  EXPECT_EQ(count(R.output, "[sm_90]: clang command: "), 1u) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_80, sm_90 (from --gpu)"), std::string::npos) << R.output;
  // ...and each warning (the same message for both archs) is printed once.
  expectExactlyTheInlineExpectations(LaunchInput, R);
  EXPECT_NE(R.output.find("6 diagnostics in 1 file"), std::string::npos) << R.output;
}

TEST(ArchPasses, ManyGpusOfOneArchAreOneParse) {
  CommandResult R =
      occlint("--verbose --gpu H100 --gpu sm_90:132 --gpu h200 " + shellQuote(LaunchInput.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(count(R.output, "clang command: "), 1u) << R.output;
  EXPECT_NE(R.output.find("[sm_90]: clang command: "), std::string::npos) << R.output;
  expectExactlyTheInlineExpectations(LaunchInput, R);
}

TEST_F(LintPasses, CommandLineArchsAreTheParsesWithoutGpu) {
  CommandResult R = occlint("--verbose " + shellQuote(File.string()) +
                            " -- --cuda-gpu-arch=sm_75 --offload-arch=sm_86 --cuda-host-only");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_75, sm_86 (from the compile command)"), std::string::npos) << R.output;
  for (const char *Arch : {"sm_75", "sm_86"}) {
    const std::string Line = "[" + std::string(Arch) + "]: clang command: ";
    ASSERT_NE(R.output.find(Line), std::string::npos) << R.output;
    const std::string Command =
        R.output.substr(R.output.find(Line), R.output.find('\n', R.output.find(Line)) - R.output.find(Line));
    EXPECT_EQ(count(Command, "--cuda-gpu-arch="), 1u) << Command;
    EXPECT_EQ(count(Command, "--cuda-gpu-arch=" + std::string(Arch)), 1u) << Command;
    EXPECT_EQ(count(Command, "--offload-arch"), 0u) << Command;
    EXPECT_EQ(count(Command, "--cuda-host-only"), 0u) << Command;
    EXPECT_EQ(count(Command, "--cuda-device-only"), 1u) << Command;
  }
  EXPECT_EQ(count(R.output, "k.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
}

TEST_F(LintPasses, TargetsFromAClangTidyFilePickTheArchs) {
  writeFile(Dir / ".clang-tidy", "CheckOptions:\n  Targets: 'A100, H100'\n");
  CommandResult R = occlint("--verbose " + shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_80, sm_90 (from Targets in " + (Dir / ".clang-tidy").string() + ")"),
            std::string::npos)
      << R.output;
  EXPECT_EQ(count(R.output, "k.cu:3:29: warning: block of 100 threads"), 1u) << R.output;

  // --gpu wins over the file.
  R = occlint("--verbose --gpu RTX4090 " + shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_89 (from --gpu)"), std::string::npos) << R.output;
}

TEST_F(LintPasses, TargetsFromConfigOption) {
  CommandResult R =
      occlint("--verbose --config='{CheckOptions: {Targets: \"sm_75\"}}' " + shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_75 (from Targets in --config)"), std::string::npos) << R.output;
}

TEST_F(LintPasses, AnUnknownGpuInTheConfigurationIsAUsageError) {
  writeFile(Dir / ".clang-tidy", "CheckOptions:\n  Targets: 'H100, NoSuchGpu'\n");
  CommandResult R = occlint(shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("occlint: error: CheckOptions Targets in " + (Dir / ".clang-tidy").string() +
                          ": unknown GPU 'NoSuchGpu'"),
            std::string::npos)
      << R.output;
  const fs::path Config = Dir / "occlint.yaml";
  writeFile(Config, "CheckOptions:\n  Targets: 'sm_12'\n");
  R = occlint("--config-file=" + shellQuote(Config.string()) + " " + shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("CheckOptions Targets in --config-file " + Config.string() + ": "), std::string::npos)
      << R.output;
}

TEST_F(LintPasses, PtxasLogProblemsAreInputErrors) {
  CommandResult Missing = occlint("--ptxas-log /nonexistent/build.log " + shellQuote(File.string()) + " --");
  EXPECT_EQ(Missing.exitCode, 2) << Missing.output;
  EXPECT_NE(Missing.output.find("occlint: error: --ptxas-log: /nonexistent/build.log: no such file"), std::string::npos)
      << Missing.output;
  const std::string Readme = (SourceDir / "README.md").string();
  CommandResult Empty = occlint("--ptxas-log " + shellQuote(Readme) + " " + shellQuote(File.string()) + " --");
  EXPECT_EQ(Empty.exitCode, 2) << Empty.output;
  EXPECT_NE(Empty.output.find(Readme + ": no ptxas resource report in it"), std::string::npos) << Empty.output;
}

TEST_F(LintPasses, ResourceOptionsAreAccepted) {
  const std::string Log = (SourceDir / "test-inputs" / "ptxas" / "nvcc_sm90.log").string();
  CommandResult R = occlint("--ptxas-log " + shellQuote(Log) + " --ptxas-log=" + shellQuote(Log) + " " +
                            shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(count(R.output, "k.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
  R = occlint("--no-compile " + shellQuote(File.string()) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(count(R.output, "k.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
}

TEST_F(LintPasses, VerboseSaysWhereEachArchsResourcesCameFrom) {
  // All checks: the occupancy ones ask for the kernels' resource reports.
  const std::string Lint = shellQuote(OCCLINT_BINARY) + " --checks=-*,cuda-* --verbose --gpu A100 --gpu H100 ";
  const std::string Log = (SourceDir / "test-inputs" / "ptxas" / "nvcc_sm90.log").string();
  CommandResult R = runCommand(Lint + "--ptxas-log " + shellQuote(Log) + " " + shellQuote(File.string()) + " --");
  EXPECT_LT(R.exitCode, 2) << R.output;
  for (const char *Arch : {"sm_80", "sm_90"})
    EXPECT_EQ(count(R.output, "k.cu [" + std::string(Arch) + "]: resources: ptxas log " + Log + "\n"), 1u)
        << Arch << "\n"
        << R.output;
  R = runCommand(Lint + "--no-compile " + shellQuote(File.string()) + " --");
  EXPECT_LT(R.exitCode, 2) << R.output;
  EXPECT_EQ(count(R.output, "k.cu [sm_90]: resources: --no-compile: resources estimated from the source\n"), 1u)
      << R.output;
}

TEST(LintHelp, NewOptionsAreDocumented) {
  CommandResult R = runCommand(shellQuote(OCCLINT_BINARY) + " --help");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  for (const char *Option : {"--ptxas-log", "--no-compile", "--verbose", "--gpu"})
    EXPECT_NE(R.output.find(Option), std::string::npos) << Option << "\n" << R.output;
}

} // namespace
