// Issue 17, item 3: `occlint wrap --lint` lints each translation unit in its
// build step (findings in the build log and in the sidecar, the compile's
// status unchanged), and `occlint merge BUILD` combines what the build kept:
// headers' findings once, filtered by check and line, stale units skipped.
// The bundled CMake project built with "occlint;wrap;--lint" merges to the
// same findings as `occlint -p` on it, and `merge --html` to the page
// `occlint report --html` draws.
#include "BundledProjectDatabase.h"
#include "CommandRunner.h"
#include "TestFiles.h"
#include "WrappedBuildSources.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

using namespace occlint::testing;
namespace fs = std::filesystem;

namespace {

std::string nvcc() { return (fs::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc").string(); }

#define REQUIRE_NVCC()                                                                                                 \
  if (!fs::exists(nvcc()))                                                                                             \
  GTEST_FAIL() << "no nvcc at " << nvcc() << ": this test needs the CUDA toolkit"

// Two units that include one header with a launch of 48 threads per block;
// a.cu has its own launch of 100 threads (WrappedBuildSources.h).
using wrapped_build::Header;
using wrapped_build::UnitA;
using wrapped_build::UnitB;

struct LintedBuild {
  ScratchDir dir;
  std::string environment;
  LintedBuild() {
    environment = "OCCLINT_CACHE_DIR=" + shellQuote((dir.path() / "cache").string()) + " ";
    dir.write("common.cuh", Header);
    dir.write("a.cu", UnitA);
    dir.write("b.cu", UnitB);
    nlohmann::json Database = nlohmann::json::array();
    for (const char *Unit : {"a", "b"})
      Database.push_back(
          {{"directory", dir.path().string()},
           {"arguments", {nvcc(), "-arch=sm_90", "-c", std::string(Unit) + ".cu", "-o", std::string(Unit) + ".o"}},
           {"file", std::string(Unit) + ".cu"}});
    dir.write("compile_commands.json", Database.dump(1));
  }
  /// The build step of `Unit` through `occlint wrap --lint`, in the build's directory.
  CommandResult compile(const std::string &Unit, const std::string &Extra = "") const {
    return runCommand("cd " + shellQuote(dir.path().string()) + " && " + environment + shellQuote(OCCLINT_BINARY) +
                      " wrap --lint --gpu H100 " + Extra + shellQuote(nvcc()) + " -arch=sm_90 -c " + Unit + ".cu -o " +
                      Unit + ".o");
  }
  CommandResult merge(const std::string &Options, bool MergeStderr = false) const {
    return runCommand(environment + shellQuote(OCCLINT_BINARY) + " merge " + shellQuote(dir.path().string()) + " " +
                          Options,
                      MergeStderr);
  }
};

size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != std::string::npos; At = Text.find(What, At + 1))
    ++N;
  return N;
}

TEST(WrapLint, FindingsGoToTheBuildLogAndTheSidecarAndTheCompileKeepsItsStatus) {
  REQUIRE_NVCC();
  LintedBuild Build;
  const CommandResult A = Build.compile("a");
  EXPECT_EQ(A.exitCode, 0) << A.output;
  EXPECT_TRUE(fs::exists(Build.dir.path() / "a.o"));
  // Both launches, in clang's layout, each once.
  EXPECT_EQ(count(A.output, "warning: block of 100 threads"), 1u) << A.output;
  EXPECT_EQ(count(A.output, "warning: block of 48 threads"), 1u) << A.output;
  EXPECT_NE(A.output.find("a.cu:6:"), std::string::npos) << A.output;
  const nlohmann::json Sidecar = nlohmann::json::parse(readFile(Build.dir.path() / "a.o.occlint.json"), nullptr, false);
  ASSERT_TRUE(Sidecar.is_object());
  ASSERT_TRUE(Sidecar.contains("lint")) << Sidecar.dump();
  EXPECT_EQ(Sidecar["lint"]["gpus"], nlohmann::json::array({"H100"}));
  EXPECT_EQ(Sidecar["lint"]["output"]["diagnostics"].size(), 2u);
  for (const nlohmann::json &K : Sidecar["lint"]["output"]["kernels"])
    EXPECT_EQ(K["resourceSource"], "ptxas, sm_90, from the build") << K.dump();

  // NOLINT in the source is applied in the build step.
  Build.dir.write("a.cu", std::string(UnitA).replace(std::string(UnitA).find("p, n); }"), 8, "p, n); } // NOLINT"));
  const CommandResult Silenced = Build.compile("a");
  EXPECT_EQ(Silenced.exitCode, 0) << Silenced.output;
  EXPECT_EQ(count(Silenced.output, "warning: block of 100 threads"), 0u) << Silenced.output;

  // A compile that fails keeps its status and its output; nothing is linted.
  Build.dir.write("a.cu", "__global__ void k() { not cuda; }\n");
  const CommandResult Broken = Build.compile("a");
  EXPECT_NE(Broken.exitCode, 0);
  EXPECT_NE(Broken.output.find("error"), std::string::npos) << Broken.output;
  EXPECT_EQ(Broken.output.find("occlint wrap:"), std::string::npos) << Broken.output;
  EXPECT_EQ(Broken.output.find("[cuda-"), std::string::npos) << Broken.output;
}

TEST(OcclintMerge, CombinesTheBuildsFindingsOnceFiltersThemAndSkipsStaleUnits) {
  REQUIRE_NVCC();
  LintedBuild Build;
  ASSERT_EQ(Build.compile("a").exitCode, 0);
  ASSERT_EQ(Build.compile("b").exitCode, 0);

  // The header's finding came from both units: once.
  const CommandResult Text = Build.merge("");
  EXPECT_EQ(Text.exitCode, 0) << Text.output;
  EXPECT_EQ(count(Text.output, "warning: block of 48 threads"), 1u) << Text.output;
  EXPECT_EQ(count(Text.output, "warning: block of 100 threads"), 1u) << Text.output;
  EXPECT_EQ(count(Text.output, "[cuda-launch-block-not-warp-multiple]"), 2u) << Text.output;

  const nlohmann::json Json = nlohmann::json::parse(Build.merge("--format json").output, nullptr, false);
  ASSERT_TRUE(Json.is_object());
  EXPECT_EQ(Json["version"], 3); // a run's --format=json schema: its launches are written as a run's
  EXPECT_EQ(Json["merged"]["units"], 2);
  EXPECT_EQ(Json["merged"]["linted"], 2);
  EXPECT_EQ(Json["diagnostics"].size(), 2u);
  EXPECT_EQ(Json["launches"].size(), 2u); // the header's launch once

  const nlohmann::json Sarif = nlohmann::json::parse(Build.merge("--format sarif").output, nullptr, false);
  ASSERT_TRUE(Sarif.is_object());
  ASSERT_EQ(Sarif["runs"][0]["results"].size(), 2u);
  EXPECT_EQ(Sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 6);

  // Filters, without parsing again.
  EXPECT_EQ(count(Build.merge("--checks='-*,cuda-divergence-*'").output, "warning:"), 0u);
  const CommandResult Lines = Build.merge("--line-filter='[{\"name\":\"a.cu\",\"lines\":[[6,6]]}]'");
  EXPECT_EQ(count(Lines.output, "warning:"), 1u) << Lines.output;
  EXPECT_EQ(count(Lines.output, "block of 100 threads"), 1u) << Lines.output;

  // A header changed since the build: both units are stale and skipped, saying why.
  Build.dir.write("common.cuh", std::string(Header) + "// edited\n");
  const CommandResult Stale = Build.merge("", /*MergeStderr=*/true);
  EXPECT_EQ(Stale.exitCode, 0);
  EXPECT_EQ(count(Stale.output, "warning:"), 0u) << Stale.output;
  EXPECT_EQ(count(Stale.output, "stale: " + (Build.dir.path() / "common.cuh").string() + " changed"), 2u)
      << Stale.output;
  EXPECT_NE(Stale.output.find("0 diagnostics from 0 of 2 translation units"), std::string::npos) << Stale.output;
}

TEST(OcclintMerge, BadInputsAreUsageErrorsNamingWhatIsWrong) {
  ScratchDir Dir;
  const std::string Occlint = shellQuote(OCCLINT_BINARY);
  const CommandResult NoDatabase = runCommand(Occlint + " merge " + shellQuote(Dir.path().string()));
  EXPECT_EQ(NoDatabase.exitCode, 2);
  EXPECT_NE(NoDatabase.output.find(Dir.path().string()), std::string::npos) << NoDatabase.output;
  EXPECT_EQ(runCommand(Occlint + " merge").exitCode, 2);
  Dir.write("compile_commands.json", "[]");
  const CommandResult Format = runCommand(Occlint + " merge " + shellQuote(Dir.path().string()) + " --format xml");
  EXPECT_EQ(Format.exitCode, 2);
  EXPECT_NE(Format.output.find("--format"), std::string::npos) << Format.output;
  const CommandResult Filter =
      runCommand(Occlint + " merge " + shellQuote(Dir.path().string()) + " --line-filter '*x'");
  EXPECT_EQ(Filter.exitCode, 2);
  EXPECT_NE(Filter.output.find("--line-filter"), std::string::npos) << Filter.output;
}

/// A report page without its line that says what was linted (`-p b` or `merge b`).
std::string pageWithoutInput(const fs::path &Page) {
  std::ifstream In(Page);
  std::stringstream Text;
  Text << In.rdbuf();
  return std::regex_replace(Text.str(), std::regex("<p class=\"input\">[^<]*"), "<p class=\"input\">");
}

/// (check, file, line, column, message) of a JSON output's diagnostics.
std::set<std::tuple<std::string, std::string, int, int, std::string>> findings(const nlohmann::json &Out) {
  std::set<std::tuple<std::string, std::string, int, int, std::string>> S;
  for (const nlohmann::json &D : Out.at("diagnostics"))
    S.emplace(D["check"], D["file"], D["line"], D["column"], D["message"]);
  return S;
}

TEST(OcclintMerge, TheBundledProjectBuiltWithTheLintMergesToWhatOcclintFinds) {
  REQUIRE_NVCC();
  ScratchDir Dir;
  const std::string Environment = "OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " ";
  const fs::path Build = Dir.path() / "b";
  const CommandResult Configured = runCommand(
      "cmake -S " + shellQuote(bundledProjectDir().string()) + " -B " + shellQuote(Build.string()) +
      " -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CUDA_COMPILER=" + shellQuote(nvcc()) +
      " -DCMAKE_CUDA_COMPILER_LAUNCHER=" + shellQuote(std::string(OCCLINT_BINARY) + ";wrap;--lint;--gpu;H100"));
  ASSERT_EQ(Configured.exitCode, 0) << Configured.output;
  const CommandResult Built = runCommand(Environment + "cmake --build " + shellQuote(Build.string()) + " -j 1");
  ASSERT_EQ(Built.exitCode, 0) << Built.output; // the planted findings do not fail the build
  EXPECT_NE(Built.output.find("[cuda-"), std::string::npos) << Built.output;

  const nlohmann::json Merged = nlohmann::json::parse(
      runCommand(Environment + shellQuote(OCCLINT_BINARY) + " merge " + shellQuote(Build.string()) + " --format json",
                 /*MergeStderr=*/false)
          .output,
      nullptr, false);
  const nlohmann::json Linted =
      nlohmann::json::parse(runCommand(Environment + shellQuote(OCCLINT_BINARY) + " --gpu H100 --format json -p " +
                                           shellQuote(Build.string()),
                                       /*MergeStderr=*/false)
                                .output,
                            nullptr, false);
  ASSERT_TRUE(Merged.is_object());
  ASSERT_TRUE(Linted.is_object());
  EXPECT_EQ(Merged["merged"]["skipped"].size(), 0u) << Merged["merged"].dump();
  EXPECT_FALSE(findings(Linted).empty());
  EXPECT_EQ(findings(Merged), findings(Linted));

  // The page from the build's facts is the page of a lint run.
  const fs::path MergedPage = Dir.path() / "merged.html", ReportPage = Dir.path() / "report.html";
  const CommandResult Merge =
      runCommand(Environment + shellQuote(OCCLINT_BINARY) + " merge " + shellQuote(Build.string()) +
                 " --quiet --html " + shellQuote(MergedPage.string()) + " > /dev/null");
  EXPECT_EQ(Merge.exitCode, 1) << Merge.output; // the bundled project plants an error-level finding
  const CommandResult Report = runCommand(Environment + shellQuote(OCCLINT_BINARY) + " report --quiet --gpu H100 -p " +
                                          shellQuote(Build.string()) + " --html " + shellQuote(ReportPage.string()));
  ASSERT_EQ(Report.exitCode, 0) << Report.output;
  const std::string Page = pageWithoutInput(MergedPage);
  EXPECT_NE(Page.find("from the build"), std::string::npos); // registers from the captured ptxas report
  EXPECT_NE(Page.find("<svg"), std::string::npos);           // staircases
  EXPECT_EQ(Page, pageWithoutInput(ReportPage));
}

} // namespace
