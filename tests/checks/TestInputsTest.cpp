// Runs occlint, and the same checks loaded into clang-tidy-22, on every
// test-inputs/checks/*.cu file and compares what they print with the
// expectations written inline in the file (both ways: every expected
// diagnostic appears, nothing unexpected appears).
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include "gpu/GpuDatabase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

std::vector<std::string> checkInputs() {
  std::vector<std::string> Out;
  for (const auto &Entry : fs::directory_iterator(fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks"))
    if (Entry.path().extension() == ".cu")
      Out.push_back(Entry.path().filename().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string testName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = fs::path(Info.param).stem().string();
  std::replace_if(Name.begin(), Name.end(), [](char C) { return !std::isalnum(C); }, '_');
  return Name;
}

class TestInput : public ::testing::TestWithParam<std::string> {
protected:
  fs::path path() const { return fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks" / GetParam(); }
};

void expectMatches(const std::string &Tool, const fs::path &File, const CommandResult &R) {
  const std::string Source = readFile(File);
  std::vector<std::string> Problems =
      compareDiagnostics(parseExpectations(Source), parseClangOutput(R.output, File.string()));
  std::string All;
  for (const std::string &P : Problems)
    All += "  " + P + "\n";
  EXPECT_TRUE(Problems.empty()) << Tool << " on " << File.filename() << ":\n" << All << "output was:\n" << R.output;
}

// The RUN-ARGS line, as occlint arguments, and what clang-tidy needs for the
// same run: %S is the input's directory; --gpu=NAME becomes the Targets option
// and the parse arch, --ptxas-log=FILE the PtxasLog option, --checks=GLOBS
// the same globs. Without --ptxas-log (or --compile) occlint gets --no-compile:
// every run then uses the same resources (the log's, or estimates), with or
// without a toolkit, and with clang-tidy.
struct RunArgs {
  std::string occlint;
  std::string clangTidy;
};

RunArgs runArgsFor(const fs::path &Input) {
  std::istringstream Words(parseRunArgs(readFile(Input)));
  const std::string Dir = Input.parent_path().string();
  std::string Word, Occlint, Gpus, Logs, Checks = "-*,cuda-*,-cuda-occupancy-report,-cuda-divergence-data-branch",
                                         Arch = "sm_90";
  bool Compile = false;
  while (Words >> Word) {
    for (size_t Pos; (Pos = Word.find("%S")) != std::string::npos;)
      Word.replace(Pos, 2, Dir);
    if (Word == "--compile") {
      Compile = true;
      continue;
    }
    Occlint += " " + shellQuote(Word);
    if (Word.rfind("--gpu=", 0) == 0) {
      const std::string Name = Word.substr(6);
      Gpus += (Gpus.empty() ? "" : ",") + Name;
      std::string Error;
      if (auto Gpu = occlint::GpuDatabase::builtin().resolve(Name, Error))
        Arch = Gpu->arch.name;
    } else if (Word.rfind("--ptxas-log=", 0) == 0) {
      Logs += (Logs.empty() ? "" : ",") + Word.substr(12);
      Compile = true;
    } else if (Word.rfind("--checks=", 0) == 0) {
      Checks = Word.substr(9);
    }
  }
  if (!Compile)
    Occlint += " --no-compile";
  // ReadCache off: what occlint's cache holds from other runs must not change the result.
  const std::string Config = "{CheckOptions: {Targets: '" + Gpus + "', PtxasLog: '" + Logs + "', ReadCache: false}}";
  RunArgs Out;
  Out.occlint = Occlint;
  Out.clangTidy = " --checks=" + shellQuote(Checks) + " --config=" + shellQuote(Config) + " " +
                  shellQuote(Input.string()) +
                  " -- --cuda-path=" OCCLINT_CUDA_PATH " -isystem " OCCLINT_CUDA_PATH
                  "/include/cccl" // as occlint adds it (CUDA 13's libcu++)
                  " -Wno-unknown-cuda-version --cuda-device-only --cuda-gpu-arch=" +
                  Arch;
  return Out;
}

TEST_P(TestInput, OcclintPrintsExactlyTheExpectedDiagnostics) {
  CommandResult R = runCommand(shellQuote(OCCLINT_BINARY) + " --quiet" + runArgsFor(path()).occlint + " " +
                               shellQuote(path().string()) + " --");
  EXPECT_LT(R.exitCode, 2) << R.output;
  expectMatches("occlint", path(), R);
}

TEST_P(TestInput, SourceOnlyModeGivesTheSameDiagnostics) {
  // No toolkit: occlint parses with its built-in CUDA declarations and says so once.
  CommandResult R = runCommand("CUDA_PATH=/nonexistent " + shellQuote(OCCLINT_BINARY) + runArgsFor(path()).occlint +
                               " " + shellQuote(path().string()) + " --");
  EXPECT_LT(R.exitCode, 2) << R.output;
  const std::string Note = "running in source-only mode";
  ASSERT_NE(R.output.find(Note), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find(Note), R.output.rfind(Note)) << "said more than once:\n" << R.output;
  expectMatches("occlint (source-only)", path(), R);
}

TEST_P(TestInput, ClangTidyPluginPrintsTheSameDiagnostics) {
  // The plugin sees the same AST: a device-side parse for the --gpu's arch.
  CommandResult R = runCommand(shellQuote(OCCLINT_CLANG_TIDY) + " --quiet --load=" + shellQuote(OCCLINT_PLUGIN) +
                               runArgsFor(path()).clangTidy);
  expectMatches("clang-tidy --load", path(), R);
}

INSTANTIATE_TEST_SUITE_P(Checks, TestInput, ::testing::ValuesIn(checkInputs()), testName);

// The runner itself must be able to fail: a missing and an extra diagnostic.
TEST(InlineExpectations, ReportsMissingAndUnexpectedDiagnostics) {
  const std::string Source = "a;\nb; // expect-warning {{too small}} [cuda-x]\n";
  std::vector<Diagnostic> Expected = parseExpectations(Source);
  ASSERT_EQ(Expected.size(), 1u);
  EXPECT_EQ(Expected[0].line, 2);
  const std::string Output = "f.cu:2:1: warning: block too small here [cuda-x]\n"
                             "f.cu:1:1: warning: surprise [cuda-y]\n"
                             "other.cu:2:1: warning: block too small here [cuda-x]\n";
  std::vector<std::string> Problems = compareDiagnostics(Expected, parseClangOutput(Output, "f.cu"));
  ASSERT_EQ(Problems.size(), 1u);
  EXPECT_NE(Problems[0].find("seen but not expected: line 1"), std::string::npos);
  EXPECT_EQ(compareDiagnostics(Expected, {}).size(), 1u);
}

TEST(InlineExpectations, OffsetsAndCheckNames) {
  std::vector<Diagnostic> E = parseExpectations("// expect-error@+2 {{cannot}}\n\nx;\n");
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].line, 3);
  EXPECT_EQ(E[0].level, "error");
  Diagnostic WrongCheck{3, "error", "cannot launch", "cuda-other"};
  Diagnostic Expected{3, "error", "cannot", "cuda-launch-invalid-config"};
  EXPECT_EQ(compareDiagnostics({Expected}, {WrongCheck}).size(), 2u);
}

} // namespace
