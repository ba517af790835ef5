// `occlint report` end to end: the page of the bundled CMake project
// (test-inputs/project, --no-compile) and of a test input with a real ptxas
// log (registers known), rendered in headless Chromium and checked on the
// rendered page (its inline self-check records what it drew); the Markdown
// page's rows against the cuda-occupancy-report remarks of a plain lint run
// for the same launches; and the bad command lines (exit 2, no file written).
#include "BundledProjectDatabase.h"
#include "CommandRunner.h"
#include "TestFiles.h"
#include "outputs/PathRoots.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path SourceDir = fs::path(OCCLINT_SOURCE_DIR);
const fs::path ChecksDir = SourceDir / "test-inputs" / "checks";
const fs::path ProjectDir = bundledProjectDir();

// Where the screenshots go: <build dir>/test-artifacts (the binary is <build dir>/bin/occlint).
fs::path artifactsDir() { return fs::path(OCCLINT_BINARY).parent_path().parent_path() / "test-artifacts"; }

std::string occlint() { return shellQuote(OCCLINT_BINARY); }

// The register-cliff input with its ptxas log: every kernel's registers known.
std::string cliffArguments() {
  return " --gpu=A100 --ptxas-log=" +
         shellQuote((ChecksDir / "ptxas" / "occupancy-register-cliff.sm_80.log").string()) + " " +
         shellQuote((ChecksDir / "occupancy-register-cliff.cu").string()) + " --";
}

class Report : public ::testing::Test {
protected:
  // The bundled project's compile_commands.json, instantiated in Scratch/build
  // (as tests/tool/lint/BundledProjectTest.cpp does); returns that build directory.
  fs::path projectBuild() {
    const fs::path Build = Scratch / "build";
    fs::create_directories(Build);
    const std::string Database = bundledProjectDatabase(Build);
    EXPECT_FALSE(Database.empty()) << "cannot read " << ProjectDir / "compile_commands.json.in";
    writeFile(Build / "compile_commands.json", Database);
    return Build;
  }

  // Chromium: $OCCLINT_CHROMIUM, else /usr/bin/chromium. Missing: the test fails.
  static std::string chromium() {
    const char *FromEnvironment = std::getenv("OCCLINT_CHROMIUM");
    const std::string Path = FromEnvironment && *FromEnvironment ? FromEnvironment : "/usr/bin/chromium";
    if (::access(Path.c_str(), X_OK) != 0) {
      ADD_FAILURE() << "no Chromium at " << Path
                    << " (set OCCLINT_CHROMIUM): the report tests render the HTML page in headless Chromium; "
                       "scripts/test.sh installs it (apt-get install chromium)";
      return "";
    }
    return Path;
  }

  std::string chromiumCommand(const std::string &Chromium) const {
    return "timeout 180 " + shellQuote(Chromium) +
           " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir=" +
           shellQuote((Scratch / "chromium-profile").string());
  }

  // The page's self-check, as Chromium rendered it.
  nlohmann::json renderedFacts(const fs::path &Html, const std::string &Fragment = "") {
    const std::string Chromium = chromium();
    if (Chromium.empty())
      return nullptr;
    CommandResult R = runCommand(chromiumCommand(Chromium) + " --window-size=1280,2400 --dump-dom " +
                                     shellQuote("file://" + Html.string() + Fragment),
                                 /*MergeStderr=*/false);
    EXPECT_EQ(R.exitCode, 0) << "chromium --dump-dom failed";
    std::smatch M;
    if (!std::regex_search(R.output, M, std::regex("data-report-check=\"([^\"]*)\""))) {
      ADD_FAILURE() << "the rendered page has no data-report-check attribute (its script did not run):\n"
                    << R.output.substr(0, 2000);
      return nullptr;
    }
    std::string Json = replaceAll(M[1].str(), "&quot;", "\"");
    Json = replaceAll(Json, "&amp;", "&");
    return nlohmann::json::parse(Json, nullptr, /*allow_exceptions=*/false);
  }

  // A screenshot as a test artifact; checks that it is a PNG of some size.
  void screenshot(const fs::path &Html, const std::string &Name) {
    const std::string Chromium = chromium();
    if (Chromium.empty())
      return;
    fs::create_directories(artifactsDir());
    const fs::path Png = artifactsDir() / Name;
    fs::remove(Png);
    CommandResult R = runCommand(chromiumCommand(Chromium) + " --screenshot=" + shellQuote(Png.string()) +
                                 " --window-size=1280,2400 " + shellQuote("file://" + Html.string()));
    EXPECT_EQ(R.exitCode, 0) << R.output;
    ASSERT_TRUE(fs::exists(Png)) << "no screenshot at " << Png << ":\n" << R.output;
    const std::string Bytes = readFile(Png);
    EXPECT_EQ(Bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << Png << " is not a PNG";
    // A blank 1280x2400 page compresses to a few KB; a rendered report is far more.
    EXPECT_GT(Bytes.size(), 40000u) << Png << " is suspiciously small: " << Bytes.size() << " bytes";
  }

  ScratchDir ScratchFiles;
  const fs::path Scratch = ScratchFiles.path();
};

// ---------------------------------------------------------------- remarks

struct Remark {
  std::string location; // "src/reduce.cu:22", relative to the page's base directory
  std::string kernel, gpu;
  std::string occupancy; // as the page writes it: "50.0%", "≤ 50.0%", "cannot launch", "unknown"
};

// The cuda-occupancy-report remarks of a plain lint run: one per launch and GPU.
std::vector<Remark> occupancyRemarks(const std::string &Output, const std::string &Base) {
  static const std::regex Line(
      R"(^(.*):(\d+):\d+: remark: predicted occupancy of '(.*)' on (.*? SMs\)): (.*) \[cuda-occupancy-report\]$)");
  static const std::regex Percent(R"(\((\d+\.\d)% occupancy\))");
  std::vector<Remark> Out;
  std::istringstream In(Output);
  std::string Text;
  while (std::getline(In, Text)) {
    std::smatch M;
    if (!std::regex_match(Text, M, Line))
      continue;
    Remark R;
    R.location = fs::path(M[1].str()).lexically_relative(Base).string() + ":" + M[2].str();
    R.kernel = M[3];
    R.gpu = M[4];
    const std::string What = M[5];
    std::smatch P;
    if (What.rfind("cannot launch", 0) == 0)
      R.occupancy = "cannot launch";
    else if (std::regex_search(What, P, Percent))
      R.occupancy = (What.rfind("at most ", 0) == 0 ? "≤ " : "") + P[1].str() + "%";
    else
      R.occupancy = "unknown";
    Out.push_back(R);
  }
  return Out;
}

// ---------------------------------------------------------------- Markdown rows

// A Markdown table row's cells, with the writer's escapes undone and code
// spans and emphasis unwrapped.
std::vector<std::string> tableCells(const std::string &Row) {
  std::vector<std::string> Cells;
  std::string Cell;
  for (size_t I = 1; I < Row.size(); ++I) {
    if (Row[I] == '\\' && I + 1 < Row.size()) {
      Cell += Row[++I];
      continue;
    }
    if (Row[I] == '|') {
      Cells.push_back(Cell);
      Cell.clear();
      continue;
    }
    if (Row[I] != '`' && Row[I] != '*') // code spans, bold, italics
      Cell += Row[I];
  }
  for (std::string &C : Cells) {
    C.erase(0, C.find_first_not_of(' '));
    C.erase(C.find_last_not_of(' ') + 1);
  }
  return Cells;
}

struct LaunchRow {
  std::string location, kernel, gpu, occupancy, limits;
};

std::vector<LaunchRow> launchRows(const std::string &Markdown) {
  std::vector<LaunchRow> Rows;
  std::istringstream In(Markdown);
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("| ↳ ", 0) != 0)
      continue;
    std::vector<std::string> Cells = tableCells(Line);
    EXPECT_EQ(Cells.size(), 12u) << Line;
    if (Cells.size() < 12)
      continue;
    LaunchRow R;
    R.location = Cells[0].substr(std::string("↳ ").size());
    R.kernel = Cells[1];
    R.gpu = Cells[2];
    R.occupancy = Cells[8];
    R.limits = Cells[9];
    Rows.push_back(R);
  }
  return Rows;
}

// The base directory the page names ("paths relative to `DIR`").
std::string pageBase(const std::string &Page) {
  std::smatch M;
  if (std::regex_search(Page, M, std::regex("paths relative to `([^`]*)`")))
    return M[1];
  return "";
}

// Every remark has exactly one row, for the same launch and GPU, with the
// same kernel and occupancy, and there is no other row.
void expectRowsMatchRemarks(const std::string &Markdown, const std::vector<Remark> &Remarks) {
  const std::vector<LaunchRow> Rows = launchRows(Markdown);
  ASSERT_FALSE(Remarks.empty()) << "no cuda-occupancy-report remarks to compare with";
  EXPECT_EQ(Rows.size(), Remarks.size()) << "one row per launch and GPU, as the remarks:\n" << Markdown;
  for (const Remark &R : Remarks) {
    std::vector<const LaunchRow *> Matching;
    for (const LaunchRow &Row : Rows)
      if (Row.location == R.location && Row.gpu == R.gpu)
        Matching.push_back(&Row);
    ASSERT_EQ(Matching.size(), 1u) << "rows for " << R.location << " on " << R.gpu << ":\n" << Markdown;
    EXPECT_EQ(Matching[0]->occupancy, R.occupancy) << R.location << " on " << R.gpu;
    EXPECT_EQ(Matching[0]->kernel.rfind(R.kernel + " (", 0), 0u)
        << R.location << ": kernel cell '" << Matching[0]->kernel << "', remark names '" << R.kernel << "'";
  }
}

// ---------------------------------------------------------------- tests

TEST_F(Report, BundledProjectHtmlRendersTheTableAndTheStaircases) {
  const fs::path Build = projectBuild();
  const fs::path Html = Scratch / "report.html";
  CommandResult R = runCommand(occlint() + " report --gpu H100 --no-compile --quiet --all-staircases -p " +
                               shellQuote(Build.string()) + " --html " + shellQuote(Html.string()));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  ASSERT_TRUE(fs::exists(Html)) << R.output;
  const std::string Page = readFile(Html);

  // By default only the launches with a finding get their staircases: fewer
  // groups, and a smaller page.
  const fs::path Default = Scratch / "default.html";
  ASSERT_EQ(runCommand(occlint() + " report --gpu H100 --no-compile --quiet -p " + shellQuote(Build.string()) +
                       " --html " + shellQuote(Default.string()))
                .exitCode,
            0);
  auto Count = [](const std::string &Text, const std::string &What) {
    size_t N = 0;
    for (size_t At = Text.find(What); At != std::string::npos; At = Text.find(What, At + 1))
      ++N;
    return N;
  };
  const std::string DefaultPage = readFile(Default);
  const size_t AllGroups = Count(Page, "<figure class=\"group\""),
               FindingGroups = Count(DefaultPage, "<figure class=\"group\"");
  EXPECT_GT(FindingGroups, 0u);
  EXPECT_LT(FindingGroups, AllGroups);
  EXPECT_LT(DefaultPage.size(), Page.size());
  EXPECT_NE(DefaultPage.find("For the launches with a finding"), std::string::npos);

  // The same launches as a plain lint run's remarks, each kernel named, escaped.
  CommandResult Lint =
      runCommand(occlint() + " --quiet --gpu H100 --no-compile --checks='-*,cuda-occupancy-report' -p " +
                 shellQuote(Build.string()));
  const std::vector<Remark> Remarks = occupancyRemarks(Lint.output, ProjectDir.string());
  ASSERT_GE(Remarks.size(), 10u) << Lint.output;

  // The filters, run by the page's own script (#check-filters): a check, a
  // severity, a search that matches nothing and one that matches, then all
  // rows back. Without JavaScript the controls stay hidden.
  EXPECT_NE(Page.find("<form class=\"filters\" hidden"), std::string::npos);
  const nlohmann::json Filtered = renderedFacts(Html, "#check-filters");
  if (Filtered.is_object()) {
    const nlohmann::json &F = Filtered["filters"];
    EXPECT_EQ(F["all"], Remarks.size()) << F.dump();
    EXPECT_EQ(F["allVisible"], Remarks.size()) << F.dump();
    EXPECT_EQ(F["tinyGrid"], 1) << "the 40-block grid: " << F.dump();
    EXPECT_EQ(F["tinyGridVisible"], 1) << F.dump();
    EXPECT_EQ(F["errors"], 2) << "the two launches that cannot start: " << F.dump();
    EXPECT_EQ(F["nothing"], 0) << F.dump();
    EXPECT_EQ(F["nothingVisible"], 0) << F.dump();
    EXPECT_EQ(F["search"], 3) << "the saxpy launches, case-insensitively: " << F.dump();
    EXPECT_EQ(F["resetVisible"], Remarks.size()) << F.dump();
    // Files fold: the first file's header folds its one launch away, and back.
    EXPECT_EQ(F["files"], 5) << F.dump();
    EXPECT_EQ(F["foldedVisible"], Remarks.size() - 1) << F.dump();
    EXPECT_EQ(F["unfoldedVisible"], Remarks.size()) << F.dump();
  }
  std::set<std::string> Kernels;
  for (const Remark &Rem : Remarks)
    Kernels.insert(Rem.kernel);
  for (const std::string &Kernel : Kernels) {
    std::string Escaped = replaceAll(replaceAll(Kernel, "<", "&lt;"), ">", "&gt;");
    EXPECT_NE(Page.find(">" + Escaped + "<"), std::string::npos) << "kernel " << Kernel << " not on the page";
  }
  // Source text is escaped: no kernel's template arguments as raw markup.
  EXPECT_EQ(Page.find("block_reduce_sum<256>"), std::string::npos);
  EXPECT_EQ(Page.find("<<<"), std::string::npos);
  // Self-contained: nothing fetched.
  EXPECT_EQ(Page.find("src=\"http"), std::string::npos);
  EXPECT_EQ(Page.find("<link"), std::string::npos);

  const nlohmann::json Facts = renderedFacts(Html);
  ASSERT_TRUE(Facts.is_object()) << Facts.dump();
  EXPECT_EQ(Facts["launchRows"], Remarks.size()) << Facts.dump();
  // "Where to start": the planted launch findings (--no-compile: the two
  // that cannot start, two blocks off the warp size, a tiny grid, two block caps).
  EXPECT_EQ(Facts["rankedRows"], 7) << Facts.dump();
  // In the order of what they cost the program: the loss of the launch times
  // its size (ReportRanking.h): the 40-block grid, 3.8% of a wave, comes
  // after the lanes of launches whose grids are not known (one wave or more),
  // though it leaves more of its own launch idle.
  EXPECT_EQ(Facts["rankedLosses"],
            nlohmann::json({"cannot start", "cannot start", "96.9% lanes masked off", "21.9% lanes masked off",
                            "69.7% SMs idle", "occupancy 50.0%", "occupancy 50.0%"}))
      << "the planted findings in the order of their cost: " << Facts.dump();
  EXPECT_EQ(Facts["rankedSizes"][4], "3.8% of a wave (40 blocks)") << Facts.dump();
  EXPECT_EQ(Facts["rankedSizes"][5], "1.9 waves (8192 blocks)") << Facts.dump();
  EXPECT_EQ(Facts["rankedSizes"][6], "1 wave or more (grid not known)") << Facts.dump();
  // At 1,280 px the page does not scroll sideways, every table fits it, and
  // every location breaks only between words.
  EXPECT_LE(Facts["scrollWidth"], Facts["pageWidth"]) << Facts.dump();
  EXPECT_EQ(Facts["tablesTooWide"], 0) << Facts.dump();
  EXPECT_GT(Facts["locations"], 0) << Facts.dump();
  EXPECT_EQ(Facts["locationsBrokenInAName"], 0) << Facts.dump();
  // Launches with a computed occupancy: everything but the unknown ones (none here).
  const int Groups = Facts["groups"];
  EXPECT_GE(Groups, 10) << Facts.dump();
  EXPECT_EQ(Facts["charts"], 3 * Groups) << Facts.dump();
  EXPECT_EQ(Facts["chartsWithArea"], Facts["charts"]) << "a chart with an empty box: " << Facts.dump();
  EXPECT_EQ(Facts["curves"], Facts["charts"]) << "a chart without its curve: " << Facts.dump();
  // --no-compile: registers unknown, so the register chart has no own point;
  // the other two have theirs, drawn on the curve.
  EXPECT_EQ(Facts["ownPoints"], 2 * Groups) << Facts.dump();
  EXPECT_EQ(Facts["ownOnCurve"], Facts["ownPoints"]) << "a launch's point is off its curve: " << Facts.dump();

  screenshot(Html, "report.png");
}

TEST_F(Report, PtxasRegistersGiveEveryChartItsPointAndNextSteps) {
  const fs::path Html = Scratch / "cliff.html";
  CommandResult R =
      runCommand(occlint() + " report --quiet --all-staircases --html " + shellQuote(Html.string()) + cliffArguments());
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const std::string Page = readFile(Html);
  // accumulate<124>: 134 registers (the log's), not an estimate.
  EXPECT_NE(Page.find("accumulate&lt;124&gt;"), std::string::npos);
  EXPECT_NE(Page.find(">134<"), std::string::npos) << "134 registers from the ptxas log";
  EXPECT_NE(Page.find("6 fewer registers per thread (128)"), std::string::npos) << "the engine's next step";

  const nlohmann::json Facts = renderedFacts(Html);
  ASSERT_TRUE(Facts.is_object()) << Facts.dump();
  const int Groups = Facts["groups"];
  EXPECT_EQ(Groups, 7) << "the input has 7 kernel and block pairs with a constant configuration: " << Facts.dump();
  EXPECT_EQ(Facts["charts"], 3 * Groups);
  EXPECT_EQ(Facts["chartsWithArea"], Facts["charts"]) << Facts.dump();
  EXPECT_EQ(Facts["ownPoints"], 3 * Groups) << "registers known: a point on every chart: " << Facts.dump();
  EXPECT_EQ(Facts["ownOnCurve"], Facts["ownPoints"]) << Facts.dump();
  // 134 -> 128 registers (two launches), 128 -> 80, the block cap's 32 -> 64 threads, ...
  EXPECT_GE(Facts["nextPoints"], 4) << Facts.dump();

  screenshot(Html, "report-ptxas.png");
}

// A pipelined kernel's launch gets a fourth staircase: occupancy over the
// ring's depth, its own depth marked (gpu/PipelineStaircase.h).
TEST_F(Report, PipelinedLaunchesGetADepthStaircase) {
  const std::string Arguments =
      " --gpu=A100 --ptxas-log=" + shellQuote((ChecksDir / "ptxas" / "pipeline-depth.sm_80.log").string()) + " " +
      shellQuote((ChecksDir / "pipeline-depth.cu").string()) + " --";
  CommandResult Page = runCommand(occlint() + " report --quiet --markdown" + Arguments, /*MergeStderr=*/false);
  ASSERT_EQ(Page.exitCode, 0) << Page.output;
  // deepRing<512>: 4 stages of 8 KB with 128 threads: 16, 9, 6, 4 blocks per SM at 1 to 4 stages.
  EXPECT_NE(Page.output.find("- async-copy stages: ≤ 1: 100.0% · ≤ 2: 56.2% · ≤ 3: 37.5% · ≤ 5: 25.0%"),
            std::string::npos)
      << Page.output;
  EXPECT_NE(Page.output.find("  - this launch: 4 → 25.0%"), std::string::npos) << Page.output;
  const fs::path Html = Scratch / "depth.html";
  CommandResult R = runCommand(occlint() + " report --quiet --html " + shellQuote(Html.string()) + Arguments);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(readFile(Html).find("data-axis=\"async-copy stages\""), std::string::npos);
}

TEST_F(Report, MarkdownRowsHaveTheOccupancyOfTheRemarks) {
  // Registers known (ptxas log): exact occupancies.
  CommandResult Page =
      runCommand(occlint() + " report --quiet --markdown --root " + shellQuote(ChecksDir.string()) + cliffArguments(),
                 /*MergeStderr=*/false);
  ASSERT_EQ(Page.exitCode, 0) << Page.output;
  CommandResult Lint = runCommand(occlint() + " --quiet --checks='-*,cuda-occupancy-report'" + cliffArguments(), false);
  const std::string Base = pageBase(Page.output);
  ASSERT_EQ(Base, ChecksDir.lexically_normal().string()) << Page.output;
  const std::vector<Remark> Remarks = occupancyRemarks(Lint.output, Base);
  expectRowsMatchRemarks(Page.output, Remarks);
  // The register cliff's own numbers, as its test input documents them.
  EXPECT_NE(Page.output.find("| **`accumulate<124>`** | sm\\_80 | 134 |"), std::string::npos) << Page.output;
  bool SawTwelveAndAHalf = false;
  for (const LaunchRow &Row : launchRows(Page.output))
    SawTwelveAndAHalf |=
        Row.kernel.rfind("accumulate<124>", 0) == 0 && Row.occupancy == "12.5%" && Row.limits == "registers";
  EXPECT_TRUE(SawTwelveAndAHalf) << Page.output;
  // The staircases as text: the register steps and the next step.
  EXPECT_NE(Page.output.find("this launch: 134 → 12.5%; next step: 128 → 25.0%"), std::string::npos) << Page.output;
}

// launch-precedence.cu with its ptxas log: launches with findings the
// precedence table makes moot (docs/launch-analysis.md).
std::string precedenceArguments() {
  return " --gpu=H100 --ptxas-log=" + shellQuote((ChecksDir / "ptxas" / "launch-precedence.sm_90.log").string()) + " " +
         shellQuote((ChecksDir / "launch-precedence.cu").string()) + " --";
}

TEST_F(Report, MootFindingsAreFoldedUnderTheLaunch) {
  const fs::path Html = Scratch / "precedence.html";
  CommandResult R =
      runCommand(occlint() + " report --quiet --html " + shellQuote(Html.string()) + precedenceArguments());
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const std::string Page = readFile(Html);
  // The cooperative launch that cannot start: block-cap and tail-wave moot.
  EXPECT_NE(Page.find("<details class=\"moot\"><summary>2 findings moot: <code>cuda-launch-tail-wave</code>, "
                      "<code>cuda-occupancy-block-cap</code></summary>"),
            std::string::npos)
      << Page;
  EXPECT_NE(
      Page.find("<li><code>cuda-occupancy-register-cliff</code> suppressed by <code>cuda-launch-tiny-grid</code>: "
                "the grid of 2 blocks is smaller than the SM count of H100 SXM (sm_90, 132 SMs): each SM "
                "holds at most one block</li>"),
      std::string::npos);
  // Rendered: every group is folded, and holds the moot findings of its launch.
  const nlohmann::json Facts = renderedFacts(Html);
  ASSERT_TRUE(Facts.is_object()) << Facts.dump();
  // copy<<<2, 2048>>> (1), <<<dim3(10, 0), 100>>> (1), tiled<<<2, 100, 64 KiB>>>
  // (2), the cooperative launch (2), heavy<<<2, 100>>> (1), copy<<<2, 32>>> (1),
  // copy<<<128, 32>>> (1).
  EXPECT_EQ(Facts["mootGroups"], 7) << Facts.dump();
  EXPECT_EQ(Facts["mootItems"], 9) << Facts.dump();
  EXPECT_EQ(Facts["mootFolded"], Facts["mootGroups"]) << "a group is not folded: " << Facts.dump();
  // The same in the Markdown page's Findings cell.
  CommandResult Md = runCommand(occlint() + " report --quiet --markdown" + precedenceArguments(), false);
  ASSERT_EQ(Md.exitCode, 0) << Md.output;
  EXPECT_NE(Md.output.find("<details><summary>2 findings moot: `cuda-launch-tail-wave`, "
                           "`cuda-occupancy-block-cap`</summary>`cuda-launch-tail-wave` suppressed by "
                           "`cuda-launch-invalid-config`: the launch cannot start on H100 SXM (sm\\_90, 132 SMs)<br>"),
            std::string::npos)
      << Md.output;
}

TEST_F(Report, MarkdownOfTheBundledProjectMatchesTheRemarksPerArch) {
  // No --gpu: each translation unit is parsed for its compile command's archs
  // (sm_80 and sm_90 for the library): a row per launch and GPU.
  const fs::path Build = projectBuild();
  const fs::path Out = Scratch / "report.md";
  CommandResult R = runCommand(occlint() + " report --no-compile --quiet -p " + shellQuote(Build.string()) +
                               " --markdown " + shellQuote(Out.string()));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(R.output.find("# occlint report"), std::string::npos) << "--markdown FILE: the page is not on stdout";
  EXPECT_EQ(R.output.find("occlint report: wrote"), std::string::npos) << "--quiet: no summary line";
  const std::string Page = readFile(Out);
  CommandResult Lint = runCommand(
      occlint() + " --quiet --no-compile --checks='-*,cuda-occupancy-report' -p " + shellQuote(Build.string()), false);
  // The root (outputs/PathRoots.h): the repository the project is in (this
  // one, in a clone), else the sources' common directory.
  const std::string GitTop = occlint::gitTopLevel(ProjectDir.string());
  const std::string Root = GitTop.empty() ? ProjectDir.string() : GitTop;
  ASSERT_EQ(pageBase(Page), Root);
  const std::vector<Remark> Remarks = occupancyRemarks(Lint.output, Root);
  std::set<std::string> Gpus;
  for (const Remark &Rem : Remarks)
    Gpus.insert(Rem.gpu);
  EXPECT_GE(Gpus.size(), 2u) << "the library's two archs";
  expectRowsMatchRemarks(Page, Remarks);
}

TEST_F(Report, WhereToStartRanksThePlantedFindingsByTheirLoss) {
  // The bundled project's planted launch findings by what they cost the
  // program: the two launches that cannot start, then the loss of each
  // launch times its size (the 40-block grid is 3.8% of a wave, the grids
  // of the two lane findings are not known: one wave or more), then the
  // occupancy-only findings, the larger launch first (docs/report.md, "Where
  // to start").
  const fs::path Build = projectBuild();
  CommandResult R =
      runCommand(occlint() + " report --gpu H100 --no-compile --quiet --markdown -p " + shellQuote(Build.string()),
                 /*MergeStderr=*/false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const size_t Start = R.output.find("## Where to start"), End = R.output.find("## Kernels and launches");
  ASSERT_NE(Start, std::string::npos) << R.output;
  const std::string Section = R.output.substr(Start, End - Start);
  std::vector<std::string> Losses;
  static const std::regex Row(R"(^\| (\d+) \| ([^|]*) \| ([^|]*) \| `([^`]*)`)");
  std::istringstream In(Section);
  for (std::string Line; std::getline(In, Line);) {
    std::smatch M;
    if (std::regex_search(Line, M, Row))
      Losses.push_back(M[2].str() + " | " + M[3].str() + " | " + M[4].str());
  }
  const std::vector<std::string> Expected = {
      "cannot start | 1 wave or more (grid not known) | cuda-launch-invalid-config",
      "cannot start | 1 wave or more (grid not known) | cuda-launch-invalid-config",
      "96.9% lanes masked off | 1 wave or more (grid not known) | cuda-launch-block-not-warp-multiple", // 1 thread
      "21.9% lanes masked off | 1 wave or more (grid not known) | cuda-launch-block-not-warp-multiple", // 100
      "69.7% SMs idle | 3.8% of a wave (40 blocks) | cuda-launch-tiny-grid",
      "occupancy 50.0% | 1.9 waves (8192 blocks) | cuda-occupancy-block-cap",
      "occupancy 50.0% | 1 wave or more (grid not known) | cuda-occupancy-block-cap",
  };
  EXPECT_EQ(Losses, Expected) << Section;
  EXPECT_NE(Section.find("Findings by check: `cuda-launch-block-not-warp-multiple` 2, `cuda-launch-invalid-config` 2"),
            std::string::npos)
      << Section;
}

TEST_F(Report, WeightsRankByLossTimesTheKernelsShareOfTheRuntime) {
  const fs::path Build = projectBuild();
  const fs::path Weights = Scratch / "kernels.csv";
  // The tiny grid's kernel takes most of the time, the 1-thread block's none.
  writeFile(Weights, "kernel,time\nblock_reduce_sum<256>,600\nfill_kernel<float>,400\n");
  CommandResult R = runCommand(occlint() + " report --gpu H100 --no-compile --quiet --markdown -p " +
                                   shellQuote(Build.string()) + " --weights " + shellQuote(Weights.string()),
                               /*MergeStderr=*/false);
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const size_t A = R.output.find("| 3 | 69.7% SMs idle × 60.0% of the runtime = 41.8% | 3.8% of a wave (40 blocks) | "
                                 "`cuda-launch-tiny-grid`");
  const size_t B = R.output.find("| 4 | 21.9% lanes masked off × 40.0% of the runtime = 8.8% |");
  const size_t C = R.output.find("| 5 | 96.9% lanes masked off (not in the weights) |");
  EXPECT_NE(A, std::string::npos) << R.output;
  EXPECT_NE(B, std::string::npos) << R.output;
  EXPECT_NE(C, std::string::npos) << R.output;

  CommandResult Bad =
      runCommand(occlint() + " report --no-compile --quiet --markdown -p " + shellQuote(Build.string()) +
                 " --weights " + shellQuote((Scratch / "none.csv").string()));
  EXPECT_EQ(Bad.exitCode, 2) << Bad.output;
  EXPECT_NE(Bad.output.find("--weights: " + (Scratch / "none.csv").string() + ": cannot read"), std::string::npos)
      << Bad.output;
}

TEST_F(Report, AGeneratedProjectOf220LaunchesFitsTheWindowAndStaysSmall) {
  // 10 files of 22 launches each, with long kernel names, paths and grid
  // expressions: the page must not scroll sideways at 1,280 px and must stay
  // under 1 MB per 200 launches (docs/report.md, "The HTML page").
  // What widened the page on a real project (issue 44): launches written in
  // another file than their kernel's (their rows show the whole path, under
  // the kernel's file), and long dynamic shared memory expressions.
  std::vector<std::string> Files;
  const fs::path Header = Scratch / "generated" / "a_rather_deep" / "includeDirectoryWithALongName" /
                          "kernels_declared_in_a_header_with_a_long_name.cuh";
  writeFile(Header, "__global__ void kernel_from_the_header_with_a_long_descriptive_name(float *p, int n) {\n"
                    "  extern __shared__ float staging[];\n  staging[threadIdx.x] = p[threadIdx.x];\n"
                    "  p[threadIdx.x] = staging[threadIdx.x] * n;\n}\n");
  for (int F = 0; F < 10; ++F) {
    std::string Code = "#include <cuda_runtime.h>\n#include \"../includeDirectoryWithALongName/"
                       "kernels_declared_in_a_header_with_a_long_name.cuh\"\n";
    for (int K = 0; K < 22; ++K)
      Code += "__global__ void kernel_number_" + std::to_string(K) + "_of_file_" + std::to_string(F) +
              "_with_a_long_descriptive_name(float *p, int n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; "
              "i < n; i += gridDim.x * blockDim.x) p[i] = 2.0f * p[i]; }\n";
    Code += "void launchEverything(float *p, int numberOfElementsInTheVeryLongNamedBuffer) {\n"
            "  const int threadsPerBlockForThisKernelLaunch = 96;\n";
    for (int K = 0; K < 22; ++K)
      Code += "  kernel_number_" + std::to_string(K) + "_of_file_" + std::to_string(F) +
              "_with_a_long_descriptive_name<<<" +
              (K % 2 ? std::string("(numberOfElementsInTheVeryLongNamedBuffer + threadsPerBlockForThisKernelLaunch - 1)"
                                   " / threadsPerBlockForThisKernelLaunch")
                     : std::to_string(40 + K)) + // a tiny grid: a finding, and its staircases
              ", threadsPerBlockForThisKernelLaunch>>>(p, numberOfElementsInTheVeryLongNamedBuffer);\n";
    Code +=
        "  kernel_from_the_header_with_a_long_descriptive_name<<<numberOfElementsInTheVeryLongNamedBuffer / 96, 96, "
        "threadsPerBlockForThisKernelLaunch * sizeof(float) + numberOfElementsInTheVeryLongNamedBuffer>>>(p, 1);\n";
    Code += "}\n";
    const fs::path File = Scratch / "generated" / "a_rather_deep" / ("directory_structure_" + std::to_string(F)) /
                          ("file_" + std::to_string(F) + ".cu");
    writeFile(File, Code);
    Files.push_back(shellQuote(File.string()));
  }
  const fs::path Html = Scratch / "generated.html";
  std::string Command = occlint() + " report --gpu H100 --no-compile --quiet --html " + shellQuote(Html.string());
  for (const std::string &F : Files)
    Command += " " + F;
  CommandResult R = runCommand(Command + " --");
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const std::string Page = readFile(Html);
  EXPECT_LE(Page.size(), 1100000u) << "1 MB per 200 launches";

  const nlohmann::json Facts = renderedFacts(Html);
  if (!Facts.is_object())
    return; // no Chromium: renderedFacts said why
  EXPECT_EQ(Facts["launchRows"], 230) << Facts.dump();
  EXPECT_EQ(Facts["rankedRows"], 110) << Facts.dump();
  EXPECT_LE(Facts["scrollWidth"], Facts["pageWidth"]) << "the page scrolls sideways at 1,280 px: " << Facts.dump();
  EXPECT_EQ(Facts["tablesTooWide"], 0) << "a table wider than the page: " << Facts.dump();
  EXPECT_LE(Facts["widestTable"], Facts["pageWidth"]) << Facts.dump();
  EXPECT_EQ(Facts["locationsBrokenInAName"], 0) << "a location broken inside a word: " << Facts.dump();
  // Identical charts (the same block on the same GPU) are drawn once and
  // referred to; each still has its curve and its launch's point.
  EXPECT_GT(Facts["chartsReused"], 0) << Facts.dump();
  EXPECT_EQ(Facts["curves"], Facts["charts"]) << Facts.dump();
  EXPECT_EQ(Facts["ownOnCurve"], Facts["ownPoints"]) << Facts.dump();
  screenshot(Html, "report-generated-220.png");
}

TEST_F(Report, KernelsWithoutLaunchesOrFindingsAreFoldedAway) {
  const fs::path Source = Scratch / "quiet.cu";
  writeFile(Source, "__global__ void launched(float *p) { p[threadIdx.x] = 0; }\n"
                    "__global__ void neverLaunchedHere(float *p) { p[threadIdx.x] = 1; }\n"
                    "void go(float *p) { launched<<<1024, 256>>>(p); }\n");
  const fs::path Html = Scratch / "quiet.html";
  CommandResult R = runCommand(occlint() + " report --gpu H100 --no-compile --quiet --html " +
                               shellQuote(Html.string()) + " " + shellQuote(Source.string()) + " --");
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const std::string Page = readFile(Html);
  EXPECT_NE(Page.find("1 kernel with no launch here and no finding"), std::string::npos) << Page;
  const nlohmann::json Facts = renderedFacts(Html);
  if (!Facts.is_object())
    return;
  EXPECT_EQ(Facts["launchRows"], 1) << Facts.dump();
  EXPECT_EQ(Facts["quietKernels"], 1) << Facts.dump();
  EXPECT_EQ(Facts["quietFolded"], 1) << "folded by default: " << Facts.dump();
}

TEST_F(Report, BadCommandLinesWriteNothing) {
  const fs::path Build = projectBuild();
  const fs::path Html = Scratch / "out.html", Md = Scratch / "out.md";
  struct Case {
    std::string arguments, message;
  };
  const std::vector<Case> Cases = {
      {" --html " + shellQuote(Html.string()), "no input files"},
      {" -p " + shellQuote(Build.string()) + " --html " + shellQuote(Html.string()) + " --markdown " +
           shellQuote(Md.string()),
       "not both"},
      {" -p " + shellQuote(Build.string()), "--html FILE or --markdown [FILE] is required"},
      {" -p " + shellQuote(Build.string()) + " --no-compile --gpu NoSuchGpu --html " + shellQuote(Html.string()),
       "--gpu"},
      {" --markdown " + shellQuote((ChecksDir / "occupancy-report.cu").string()) + " " +
           shellQuote((ChecksDir / "occupancy-report.cu").string()) + " --",
       "is one of the input files"},
      {" -p " + shellQuote((Scratch / "nowhere").string()) + " --html " + shellQuote(Html.string()),
       "no compile_commands.json"},
  };
  for (const Case &C : Cases) {
    CommandResult R = runCommand(occlint() + " report" + C.arguments);
    EXPECT_EQ(R.exitCode, 2) << C.arguments << ":\n" << R.output;
    EXPECT_NE(R.output.find(C.message), std::string::npos) << C.arguments << ":\n" << R.output;
    EXPECT_EQ(R.output.find("internal error"), std::string::npos) << R.output;
    EXPECT_FALSE(fs::exists(Html)) << C.arguments;
    EXPECT_FALSE(fs::exists(Md)) << C.arguments;
  }
  // Nothing else was left behind either (no temporary files).
  for (const auto &Entry : fs::directory_iterator(Scratch))
    EXPECT_TRUE(Entry.path().filename() == "build") << "left behind: " << Entry.path();
}

TEST_F(Report, UnwritableOutputIsAnErrorNamingTheFile) {
  const fs::path Build = projectBuild();
  // A directory that does not exist: said before anything is analysed.
  const fs::path Missing = Scratch / "no-such-dir" / "report.html";
  CommandResult R = runCommand(occlint() + " report --no-compile -p " + shellQuote(Build.string()) + " --html " +
                               shellQuote(Missing.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("cannot write " + Missing.string()), std::string::npos) << R.output;
  EXPECT_FALSE(fs::exists(Missing.parent_path()));

  // A path that is a directory: the temporary file is written next to it, and
  // the rename fails at the end; the temporary file is removed.
  const fs::path Directory = Scratch / "a-directory.md";
  fs::create_directories(Directory);
  R = runCommand(occlint() + " report --quiet --no-compile -p " + shellQuote(Build.string()) + " --markdown " +
                 shellQuote(Directory.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("cannot write " + Directory.string()), std::string::npos) << R.output;
  EXPECT_TRUE(fs::is_empty(Directory));
  for (const auto &Entry : fs::directory_iterator(Scratch))
    EXPECT_EQ(Entry.path().filename().string().find(".tmp-"), std::string::npos) << "left behind: " << Entry.path();
}

TEST_F(Report, MarkdownGoesToStdoutWithoutAFile) {
  // `--markdown` followed by an option, or by '-': stdout.
  for (const std::string &Spelling : {" --markdown --quiet", " --markdown - --quiet"}) {
    CommandResult R = runCommand(occlint() + " report" + Spelling + cliffArguments(), /*MergeStderr=*/false);
    EXPECT_EQ(R.exitCode, 0) << Spelling;
    EXPECT_EQ(R.output.rfind("# occlint report\n", 0), 0u) << Spelling << ":\n" << R.output.substr(0, 500);
    EXPECT_FALSE(fs::exists("-"));
  }
}

TEST_F(Report, FindingsDoNotChangeTheExitCode) {
  // The bundled project has error-level findings (launches that cannot start):
  // the lint command exits 1, the report 0 once the page is written.
  const fs::path Build = projectBuild();
  CommandResult Lint = runCommand(occlint() + " --quiet --gpu H100 --no-compile -p " + shellQuote(Build.string()));
  ASSERT_EQ(Lint.exitCode, 1) << Lint.output;
  const fs::path Html = Scratch / "report.html";
  CommandResult R = runCommand(occlint() + " report --gpu H100 --no-compile -p " + shellQuote(Build.string()) +
                               " --html " + shellQuote(Html.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_TRUE(fs::exists(Html));
  EXPECT_NE(R.output.find("wrote " + Html.string()), std::string::npos) << R.output;
  // The error-level findings are on the page.
  EXPECT_NE(readFile(Html).find("cuda-launch-invalid-config"), std::string::npos);
}

} // namespace
