// The VS Code problem matcher of docs/editors.md (kept in
// docs/vscode-problem-matcher.json, pasted into tasks.json) applied to real
// occlint text output, line by line as VS Code does: every finding the test
// inputs expect is matched with its file, line, column, severity, message
// and check; note lines and source excerpts are not. Also checks that the
// page shows the same patterns as the file.
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;

namespace {

const fs::path SourceDir = OCCLINT_SOURCE_DIR;

struct Problem {
  std::string file, severity, message, code;
  int line = 0, column = 0;
};

// One matcher's `pattern` applied to one line of output. VS Code's regular
// expressions are JavaScript's; these patterns use nothing that ECMAScript
// std::regex reads differently.
std::optional<Problem> match(const json &Matcher, const std::string &Line) {
  const json &Pattern = Matcher["pattern"];
  std::smatch M;
  if (!std::regex_match(Line, M, std::regex(Pattern["regexp"].get<std::string>(), std::regex::ECMAScript)))
    return std::nullopt;
  auto Group = [&](const char *Name) -> std::string {
    return Pattern.contains(Name) ? M[Pattern[Name].get<int>()].str() : std::string();
  };
  Problem P;
  P.file = Group("file");
  P.line = std::stoi(Group("line"));
  P.column = std::stoi(Group("column"));
  P.message = Group("message");
  P.code = Group("code");
  // A severity group's value, else the matcher's own default.
  P.severity = Pattern.contains("severity") ? Group("severity") : Matcher.value("severity", "error");
  return P;
}

TEST(ProblemMatcher, MatchesOcclintTextOutput) {
  const json Matchers = json::parse(readFile(SourceDir / "docs" / "vscode-problem-matcher.json"));
  ASSERT_EQ(Matchers.size(), 2u);

  // Warnings, errors (promoted by --warnings-as-errors: "[check,-warnings-as-errors]")
  // and remarks, with notes in between, in a directory with a space.
  ScratchDir Dir;
  const std::string BlockSource = readFile(SourceDir / "test-inputs" / "checks" / "launch-block-not-warp-multiple.cu");
  const std::string GridSource = readFile(SourceDir / "test-inputs" / "checks" / "launch-tiny-grid.cu");
  const std::string Block = Dir.write("my kernels/block.cu", BlockSource);
  const std::string Grid = Dir.write("my kernels/grid.cu", GridSource);
  auto Run = [](const std::string &Arguments) {
    const CommandResult R =
        runCommand(shellQuote(OCCLINT_BINARY) + " --no-compile --gpu=H200 --quiet " + Arguments + " -- -xcuda",
                   /*MergeStderr=*/false);
    return R;
  };
  const CommandResult BlockRun =
      Run("--checks=-*,cuda-launch-block-not-warp-multiple,cuda-occupancy-report " + shellQuote(Block));
  EXPECT_EQ(BlockRun.exitCode, 0) << BlockRun.output;
  const CommandResult GridRun =
      Run("--checks=-*,cuda-launch-tiny-grid --warnings-as-errors=cuda-launch-tiny-grid " + shellQuote(Grid));
  EXPECT_EQ(GridRun.exitCode, 1) << GridRun.output; // the promoted errors
  CommandResult R;
  R.output = BlockRun.output + GridRun.output;

  std::vector<Problem> Problems;
  std::istringstream Lines(R.output);
  for (std::string Line; std::getline(Lines, Line);) {
    std::optional<Problem> First = match(Matchers[0], Line), Second = match(Matchers[1], Line);
    EXPECT_FALSE(First && Second) << "both matchers match: " << Line;
    if (First || Second)
      Problems.push_back(First ? *First : *Second);
    if (Line.find(": note: ") != std::string::npos)
      EXPECT_FALSE(First || Second) << "a note matched: " << Line;
  }

  // Every expected finding, as the inline expectations say, with the level
  // the run gave it.
  auto ExpectFindings = [&](const std::string &File, const std::string &Source, const std::string &Severity) {
    size_t Expected = 0;
    for (const Diagnostic &E : parseExpectations(Source)) {
      if (E.level != "warning")
        continue;
      ++Expected;
      const bool Found = std::any_of(Problems.begin(), Problems.end(), [&](const Problem &P) {
        return P.file == File && P.line == E.line && P.severity == Severity &&
               P.message.find(E.message) != std::string::npos && P.code == E.check;
      });
      EXPECT_TRUE(Found) << "not matched: " << E.str() << " as " << Severity << "\noutput:\n" << R.output;
    }
    const size_t Matched = std::count_if(Problems.begin(), Problems.end(),
                                         [&](const Problem &P) { return P.file == File && P.severity == Severity; });
    EXPECT_EQ(Matched, Expected) << File;
    EXPECT_GT(Expected, 0u);
  };
  ExpectFindings(Block, BlockSource, "warning");
  ExpectFindings(Grid, GridSource, "error");

  // The column of the first block-size warning: the "100" of its launch.
  const size_t LaunchAt = BlockSource.find("fill<<<10, 100>>>");
  const int LaunchLine = 1 + int(std::count(BlockSource.begin(), BlockSource.begin() + LaunchAt, '\n'));
  const int Column = 1 + int(BlockSource.find("100", LaunchAt) - (BlockSource.rfind('\n', LaunchAt) + 1));
  EXPECT_TRUE(
      std::any_of(Problems.begin(), Problems.end(),
                  [&](const Problem &P) { return P.file == Block && P.line == LaunchLine && P.column == Column; }))
      << "no finding at " << LaunchLine << ":" << Column << "\noutput:\n"
      << R.output;

  // Remarks: the per-launch occupancy report, as information.
  size_t Remarks = 0;
  for (const Problem &P : Problems)
    if (P.severity == "info") {
      ++Remarks;
      EXPECT_EQ(P.code, "cuda-occupancy-report") << P.message;
    }
  EXPECT_GT(Remarks, 0u) << R.output;
}

TEST(ProblemMatcher, EditorsPageShowsTheTestedPatterns) {
  const json Matchers = json::parse(readFile(SourceDir / "docs" / "vscode-problem-matcher.json"));
  const std::string Page = readFile(SourceDir / "docs" / "editors.md");
  for (const json &Matcher : Matchers) {
    // As written in tasks.json: a JSON string, backslashes escaped.
    const std::string Regexp = json(Matcher["pattern"]["regexp"]).dump();
    EXPECT_NE(Page.find("\"regexp\": " + Regexp), std::string::npos)
        << "docs/editors.md does not show the pattern " << Regexp;
  }
}

} // namespace
