// --baseline (tool/outputs/Baseline.h, docs/output-formats.md "Baseline"):
// the matching rule on records, then end to end: a saved JSON output, the
// code changed (a finding fixed, one added, lines moved), and what JSON,
// SARIF, the report and stderr say; a bad baseline stops the run.
#include "outputs/Baseline.h"

#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;
using occlint::BaselineFinding;
using occlint::compareWithBaseline;
using occlint::DiagnosticRecord;
using occlint::PathRoots;
using occlint::readBaseline;

namespace {

const std::string Occlint = shellQuote(OCCLINT_BINARY);

DiagnosticRecord diagnostic(const std::string &Check, const std::string &File, unsigned Line,
                            const std::string &Message) {
  DiagnosticRecord D;
  D.check = Check;
  D.severity = "warning";
  D.file = File;
  D.position.line = Line;
  D.message = Message;
  return D;
}

TEST(Baseline, MatchesByCheckPathAndMessageNotByLine) {
  PathRoots Roots;
  Roots.project = "/p";
  const std::vector<BaselineFinding> Saved = {
      {"cuda-launch-tiny-grid", "warning", "grid of 2 blocks", "src/a.cu", 10},
      {"cuda-launch-tiny-grid", "warning", "grid of 2 blocks", "src/a.cu", 40},
      {"cuda-occupancy-block-cap", "warning", "blocks of 32 threads", "src/a.cu", 50},
  };
  // The two equal findings moved down by 3 lines; one more like them; the block cap is gone.
  const std::vector<DiagnosticRecord> Now = {
      diagnostic("cuda-launch-tiny-grid", "/p/src/a.cu", 13, "grid of 2 blocks"),
      diagnostic("cuda-launch-tiny-grid", "/p/src/a.cu", 43, "grid of 2 blocks"),
      diagnostic("cuda-launch-tiny-grid", "/p/src/a.cu", 90, "grid of 2 blocks"),
      diagnostic("cuda-launch-tiny-grid", "/p/src/b.cu", 13, "grid of 2 blocks"),
  };
  const auto C = compareWithBaseline(Now, Roots, Saved);
  EXPECT_EQ(C.isNew, (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(C.newCount(), 2u);
  ASSERT_EQ(C.fixed.size(), 1u);
  EXPECT_EQ(C.fixed[0].check, "cuda-occupancy-block-cap");
}

TEST(Baseline, AnOlderOutputWithoutPathsIsReadFromItsAbsoluteFiles) {
  ScratchDir D;
  const std::string File = D.write("old.json", R"({"version": 2, "tool": {"name": "occlint"}, "diagnostics": [
        {"check": "cuda-launch-tiny-grid", "severity": "warning", "message": "m", "file": "/p/src/a.cu", "line": 7}]})");
  PathRoots Roots;
  Roots.project = "/p";
  std::vector<BaselineFinding> Saved;
  ASSERT_EQ(readBaseline(File, Roots, Saved), "");
  ASSERT_EQ(Saved.size(), 1u);
  EXPECT_EQ(Saved[0].path, "src/a.cu");
  EXPECT_EQ(Saved[0].line, 7u);
}

TEST(Baseline, ABadBaselineIsAnErrorNamingTheFile) {
  ScratchDir D;
  PathRoots Roots;
  std::vector<BaselineFinding> Saved;
  const std::string Missing = (D.path() / "missing.json").string();
  EXPECT_NE(readBaseline(Missing, Roots, Saved).find(Missing + ": cannot read"), std::string::npos);
  const std::string NotJson = D.write("x.json", "{ nope");
  EXPECT_NE(readBaseline(NotJson, Roots, Saved).find("is not JSON"), std::string::npos);
  const std::string Other = D.write("y.json", R"({"runs": []})");
  EXPECT_NE(readBaseline(Other, Roots, Saved).find("is not occlint's JSON output"), std::string::npos);
}

const char Before[] =
    "__global__ void k(float *p) { for (int i = threadIdx.x; i < 4096; i += gridDim.x * blockDim.x) p[i] = 1.0f; }\n"
    "void a(float *p) { k<<<2, 128>>>(p); }\n"     // tiny grid: fixed later
    "void b(float *p) { k<<<1024, 100>>>(p); }\n"; // not a warp multiple: stays
const char After[] =
    "__global__ void k(float *p) { for (int i = threadIdx.x; i < 4096; i += gridDim.x * blockDim.x) p[i] = 1.0f; }\n"
    "// a comment moves everything down\n"
    "void a(float *p) { k<<<1024, 128>>>(p); }\n"
    "void b(float *p) { k<<<1024, 100>>>(p); }\n"
    "void c(float *p) { k<<<1024, 48>>>(p); }\n"; // new

TEST(Baseline, EndToEndNewAndFixedInJsonSarifTheReportAndStderr) {
  ScratchDir D;
  const std::string Source = D.write("src/k.cu", Before);
  const std::string Flags = " --no-compile --gpu=H100 --root " + shellQuote(D.path().string()) + " ";
  const std::string Saved = (D.path() / "baseline.json").string();
  CommandResult First =
      runCommand(Occlint + Flags + "--format=json --output " + shellQuote(Saved) + " " + shellQuote(Source) + " --");
  ASSERT_EQ(First.exitCode, 0) << First.output;

  writeFile(Source, After);
  const std::string Json = (D.path() / "now.json").string();
  CommandResult Now = runCommand(Occlint + Flags + "--baseline " + shellQuote(Saved) + " --format=json --output " +
                                 shellQuote(Json) + " " + shellQuote(Source) + " --");
  ASSERT_EQ(Now.exitCode, 0) << Now.output;
  EXPECT_NE(Now.output.find("against the baseline " + Saved + ": 1 new, 1 fixed"), std::string::npos) << Now.output;
  const json J = json::parse(readFile(Json));
  std::map<unsigned, std::string> StateByLine;
  for (const json &Diag : J["diagnostics"]) {
    EXPECT_EQ(Diag["path"], "src/k.cu");
    StateByLine[Diag["line"].get<unsigned>()] = Diag["baseline"].get<std::string>();
  }
  EXPECT_EQ(StateByLine[4], "unchanged") << J["diagnostics"].dump(1); // b: moved from line 3
  EXPECT_EQ(StateByLine[5], "new") << J["diagnostics"].dump(1);       // c
  ASSERT_EQ(J["baseline"]["fixed"].size(), 1u) << J["baseline"].dump(1);
  EXPECT_EQ(J["baseline"]["fixed"][0]["check"], "cuda-launch-tiny-grid");
  EXPECT_EQ(J["baseline"]["fixed"][0]["line"], 2);
  EXPECT_EQ(J["baseline"]["new"], 1);

  const std::string Sarif = (D.path() / "now.sarif").string();
  ASSERT_EQ(runCommand(Occlint + Flags + "--baseline " + shellQuote(Saved) + " --format=sarif --output " +
                       shellQuote(Sarif) + " " + shellQuote(Source) + " --")
                .exitCode,
            0);
  std::multiset<std::string> States;
  const json Log = json::parse(readFile(Sarif)); // not in the range-for: the temporary would die before the loop
  for (const json &R : Log["runs"][0]["results"])
    States.insert(R["baselineState"].get<std::string>());
  EXPECT_EQ(States, (std::multiset<std::string>{"new", "unchanged"}));

  CommandResult Page = runCommand(Occlint + " report --quiet --markdown" + Flags + "--baseline " + shellQuote(Saved) +
                                      " " + shellQuote(Source) + " --",
                                  /*MergeStderr=*/false);
  ASSERT_EQ(Page.exitCode, 0) << Page.output;
  EXPECT_NE(Page.output.find("Against the baseline `" + Saved + "`: **1** new, **1** fixed."), std::string::npos)
      << Page.output;
  EXPECT_NE(Page.output.find("## Fixed since the baseline"), std::string::npos) << Page.output;
  EXPECT_NE(Page.output.find("`src/k.cu:2`"), std::string::npos) << Page.output;
  EXPECT_NE(Page.output.find("**new** `cuda-launch-block-not-warp-multiple`"), std::string::npos) << Page.output;
}

TEST(Baseline, ABadBaselineStopsTheRunWithExit2AndWritesNothing) {
  ScratchDir D;
  const std::string Source = D.write("k.cu", Before);
  const std::string Bad = D.write("bad.json", "not json");
  const std::string Out = (D.path() / "out.json").string();
  CommandResult R = runCommand(Occlint + " --no-compile --quiet --baseline " + shellQuote(Bad) +
                               " --format=json --output " + shellQuote(Out) + " " + shellQuote(Source) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("--baseline: " + Bad + ": the baseline is not JSON"), std::string::npos) << R.output;
  EXPECT_FALSE(fs::exists(Out));
}

} // namespace
