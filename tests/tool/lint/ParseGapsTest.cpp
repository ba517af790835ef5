// Graceful degradation (lint/ParseGaps.h, docs/nvcc-parity.md): Clang's errors
// in a file nvcc compiled are one warning, not errors; the findings in the
// functions with errors are dropped; --strict-parse, a failing nvcc and
// --no-compile keep today's errors and exit code 2.
#include "lint/ParseGaps.h"

#include "CommandRunner.h"
#include "FakeToolkit.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <unistd.h>

using clang::tidy::ClangTidyError;
using clang::tidy::occlint::FunctionExtent;
using namespace occlint;
using namespace occlint::testing;

namespace {

ClangTidyError diagnostic(const std::string &Name, unsigned Offset, ClangTidyError::Level Level,
                          const std::string &File = "/src/a.cu") {
  ClangTidyError E(Name, Level, "", false);
  E.Message.FilePath = File;
  E.Message.FileOffset = Offset;
  E.Message.Message = Name + " at " + std::to_string(Offset);
  return E;
}

TEST(DegradeParse, DropsTheErrorsAndTheFindingsInTheInnermostBrokenFunctions) {
  // f [10, 50] holds a lambda [20, 30]; g [60, 100]; h [110, 150] is clean.
  const std::vector<FunctionExtent> Extents = {
      {"/src/a.cu", 10, 50}, {"/src/a.cu", 20, 30}, {"/src/a.cu", 60, 100}, {"/src/a.cu", 110, 150}};
  std::vector<ClangTidyError> Errors = {
      diagnostic("cuda-launch-tiny-grid", 22, ClangTidyError::Warning),             // in the broken lambda: dropped
      diagnostic("clang-diagnostic-error", 25, ClangTidyError::Error),              // breaks the lambda, not f
      diagnostic("cuda-launch-tiny-grid", 40, ClangTidyError::Warning),             // f, outside the lambda: kept
      diagnostic("cuda-launch-tiny-grid", 70, ClangTidyError::Warning),             // g: dropped
      diagnostic("bugprone-something", 75, ClangTidyError::Warning),                // not a cuda-* check: kept
      diagnostic("clang-diagnostic-error", 80, ClangTidyError::Error),              // breaks g
      diagnostic("clang-diagnostic-error", 90, ClangTidyError::Error),              // g again: counted once
      diagnostic("cuda-launch-tiny-grid", 120, ClangTidyError::Warning),            // h: kept
      diagnostic("clang-diagnostic-unused-variable", 130, ClangTidyError::Warning), // a warning: kept
  };
  ParseGap Gap = degradeParse(Errors, Extents);
  EXPECT_EQ(Gap.firstError.Message.FileOffset, 25u);
  ASSERT_TRUE(Gap.functionsNotAnalysed);
  EXPECT_EQ(*Gap.functionsNotAnalysed, 2u);
  EXPECT_EQ(Gap.findingsDropped, 2u);
  std::vector<unsigned> Kept;
  for (const ClangTidyError &E : Errors)
    Kept.push_back(E.Message.FileOffset);
  EXPECT_EQ(Kept, (std::vector<unsigned>{40, 75, 120, 130}));
}

TEST(DegradeParse, AnErrorOutsideEveryFunctionBreaksNone) {
  std::vector<ClangTidyError> Errors = {diagnostic("clang-diagnostic-error", 5, ClangTidyError::Error),
                                        diagnostic("cuda-launch-tiny-grid", 20, ClangTidyError::Warning)};
  ParseGap Gap = degradeParse(Errors, std::vector<FunctionExtent>{{"/src/a.cu", 10, 50}});
  EXPECT_EQ(Gap.functionsNotAnalysed, 0u);
  EXPECT_EQ(Gap.findingsDropped, 0u);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0].DiagnosticName, "cuda-launch-tiny-grid");
}

TEST(DegradeParse, WithoutExtentsTheCountIsUnknownAndOnlyTheErrorsGo) {
  std::vector<ClangTidyError> Errors = {diagnostic("clang-diagnostic-error", 15, ClangTidyError::Error),
                                        diagnostic("cuda-launch-tiny-grid", 20, ClangTidyError::Warning)};
  ParseGap Gap = degradeParse(Errors, std::nullopt);
  EXPECT_FALSE(Gap.functionsNotAnalysed);
  EXPECT_EQ(Errors.size(), 1u);
}

TEST(DegradeParse, TheArchIsTheParseCommandsCudaGpuArch) {
  EXPECT_EQ(parseArchOf({"clang++", "--cuda-gpu-arch=sm_80", "--cuda-device-only", "a.cu"}), "sm_80");
  EXPECT_EQ(parseArchOf({"clang++", "a.cu"}), "");
}

// End to end: a toolkit whose nvcc "compiles" everything (it prints a ptxas
// report), and a file Clang rejects in one function only.
const std::string Source = "__global__ void good(float *p) { p[threadIdx.x] = 1; }\n" // 1
                           "__global__ void bad(float *p) { for (int i = threadIdx.x; i < 4096; i += gridDim.x * "
                           "blockDim.x) p[i] = 2; }\n"                            // 2
                           "void launchGood(float *p) { good<<<2, 100>>>(p); }\n" // 3
                           "void launchBad(float *p) {\n"                         // 4
                           "  bad<<<2, 100>>>(p);\n"                              // 5
                           "  nvcc_only_builtin(p);\n"                            // 6
                           "}\n";

const std::string PtxasReport = "ptxas info    : Compiling entry function '_Z4goodPf' for 'sm_90'\n"
                                "ptxas info    : Function properties for _Z4goodPf\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 8 registers, used 0 barriers, 356 bytes cmem[0]\n"
                                "ptxas info    : Compiling entry function '_Z3badPf' for 'sm_90'\n"
                                "ptxas info    : Function properties for _Z3badPf\n"
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 8 registers, used 0 barriers, 356 bytes cmem[0]\n";

class ParseGapRun : public ::testing::Test {
protected:
  void SetUp() override { File = Dir.write("a.cu", Source); }

  std::string toolkit(bool NvccSucceeds) {
    return writeFakeToolkit(Dir, NvccSucceeds ? "cat >&2 <<'EOF'\n" + PtxasReport + "EOF\nexit 0\n"
                                              : "echo 'a.cu(6): error: identifier is undefined' >&2; exit 1\n");
  }
  CommandResult occlint(const std::string &Cuda, const std::string &Options, const std::string &Env = "") {
    return runCommand(Env + " OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " +
                      shellQuote(OCCLINT_BINARY) + " --gpu H100 --cuda-path " + shellQuote(Cuda) + " " + Options + " " +
                      shellQuote(File) + " --");
  }

  ScratchDir Dir;
  std::string File;
};

TEST_F(ParseGapRun, ClangErrorsInCodeNvccCompiledAreOneWarningAndTheCleanFunctionsFindingsStay) {
  for (const std::string Env : {"", "OCCLINT_IN_PROCESS=1"}) { // isolated and in-process alike
    CommandResult R = occlint(toolkit(true), "--checks=-*,cuda-launch-block-not-warp-multiple", Env);
    EXPECT_EQ(R.exitCode, 0) << Env << "\n" << R.output;
    EXPECT_NE(R.output.find("occlint: warning: " + File +
                            ": Clang cannot parse code that nvcc accepts (sm_90): use of undeclared identifier "
                            "'nvcc_only_builtin' (" +
                            File + ":6); 1 function with errors was not analysed"),
              std::string::npos)
        << R.output;
    EXPECT_NE(R.output.find("a.cu:3:"), std::string::npos) << "the clean function's finding\n" << R.output;
    EXPECT_EQ(R.output.find("a.cu:5:"), std::string::npos) << "the broken function's finding\n" << R.output;
    EXPECT_EQ(R.output.find("error:"), std::string::npos) << R.output;
    if (Env.empty()) // isolated (the default): ClangTool's line would contradict the warning
      EXPECT_EQ(R.output.find("Error while processing"), std::string::npos) << R.output;
    std::filesystem::remove_all(Dir.path() / "cuda");
  }
}

TEST_F(ParseGapRun, StrictParseReportsTheErrorsWithExitTwo) {
  CommandResult R = occlint(toolkit(true), "--strict-parse");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("error: use of undeclared identifier 'nvcc_only_builtin'"), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("Clang cannot parse code that nvcc accepts"), std::string::npos) << R.output;
}

TEST_F(ParseGapRun, WhenNvccFailsTooTheErrorsAreTheUsers) {
  CommandResult R = occlint(toolkit(false), "");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("error: use of undeclared identifier 'nvcc_only_builtin'"), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("Clang cannot parse code that nvcc accepts"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("Error while processing"), std::string::npos) << "the user's error, as today\n" << R.output;
}

TEST_F(ParseGapRun, WithoutTheCompileNvccsVerdictIsUnknownAndTheErrorsStay) {
  CommandResult R = occlint(toolkit(true), "--no-compile");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("error: use of undeclared identifier 'nvcc_only_builtin'"), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("Clang cannot parse code that nvcc accepts"), std::string::npos) << R.output;
}

TEST_F(ParseGapRun, JsonAndSarifCarryTheNotification) {
  const std::string Cuda = toolkit(true);
  const std::string Json = (Dir.path() / "out.json").string(), Sarif = (Dir.path() / "out.sarif").string();
  CommandResult R = occlint(Cuda, "--quiet --format=json -o " + shellQuote(Json));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const nlohmann::json J = nlohmann::json::parse(readFile(Json));
  ASSERT_EQ(J["notifications"].size(), 1u) << J.dump(2);
  const nlohmann::json &N = J["notifications"][0];
  EXPECT_EQ(N["level"], "warning");
  EXPECT_EQ(N["file"], File);
  EXPECT_EQ(N["arch"], "sm_90");
  EXPECT_EQ(N["firstError"]["file"], File);
  EXPECT_EQ(N["firstError"]["line"], 6);
  EXPECT_EQ(N["firstError"]["column"], 3);
  EXPECT_EQ(N["firstError"]["message"], "use of undeclared identifier 'nvcc_only_builtin'");
  EXPECT_EQ(N["functionsNotAnalysed"], 1);
  EXPECT_EQ(N["findingsDropped"], 2); // bad<<<2, 100>>>: block-not-warp-multiple and tiny-grid
  for (const nlohmann::json &D : J["diagnostics"])
    EXPECT_NE(D["check"], "clang-diagnostic-error") << D.dump();

  R = occlint(Cuda, "--quiet --format=sarif -o " + shellQuote(Sarif));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const nlohmann::json S = nlohmann::json::parse(readFile(Sarif));
  const nlohmann::json &Run = S["runs"][0];
  EXPECT_EQ(Run["tool"]["driver"]["notifications"][0]["id"], "occlint-nvcc-parity");
  const nlohmann::json &Invocation = Run["invocations"][0];
  EXPECT_EQ(Invocation["executionSuccessful"], true);
  ASSERT_EQ(Invocation["toolExecutionNotifications"].size(), 1u) << Run.dump(2);
  const nlohmann::json &Notification = Invocation["toolExecutionNotifications"][0];
  EXPECT_EQ(Notification["descriptor"]["id"], "occlint-nvcc-parity");
  EXPECT_EQ(Notification["level"], "warning");
  EXPECT_NE(Notification["message"]["text"].get<std::string>().find("Clang cannot parse code that nvcc accepts"),
            std::string::npos);
  EXPECT_EQ(Notification["locations"][0]["physicalLocation"]["region"]["startLine"], 6);
  EXPECT_EQ(Notification["properties"]["findingsDropped"], 2);
}

// The log with the notification is valid SARIF: Microsoft's SARIF Multitool
// reports no error and no warning on it (as SarifFormatTest does for findings).
TEST_F(ParseGapRun, TheSarifWithTheNotificationValidates) {
  const char *Env = std::getenv("OCCLINT_SARIF_MULTITOOL");
  const std::string Multitool =
      Env && *Env ? Env : std::string(OCCLINT_BUILD_DIR) + "/test-tools/node_modules/.bin/sarif-multitool";
  if (access(Multitool.c_str(), X_OK) != 0)
    FAIL() << "the SARIF validator is not installed at " << Multitool << ": scripts/test.sh installs it";
  const std::string Sarif = (Dir.path() / "out.sarif").string(), Report = (Dir.path() / "validation.sarif").string();
  ASSERT_EQ(occlint(toolkit(true), "--quiet --format=sarif -o " + shellQuote(Sarif)).exitCode, 0);
  CommandResult R = runCommand("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 " + shellQuote(Multitool) + " validate " +
                               shellQuote(Sarif) + " -o " + shellQuote(Report) + " --log ForceOverwrite");
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const nlohmann::json Validation = nlohmann::json::parse(readFile(Report));
  const nlohmann::json &Run = Validation["runs"][0];
  for (const nlohmann::json &Result : Run.value("results", nlohmann::json::array())) {
    // The result's level, else its rule's default, else "warning".
    std::string Level = Result.value("level", "warning");
    if (!Result.contains("level") && Result.contains("ruleIndex"))
      Level = Run["tool"]["driver"]["rules"]
                  .at(Result["ruleIndex"].get<size_t>())
                  .value("defaultConfiguration", nlohmann::json::object())
                  .value("level", "warning");
    EXPECT_TRUE(Level != "error" && Level != "warning") << Result.dump(2);
  }
}

} // namespace
