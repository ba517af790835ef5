// occlint --format=sarif end to end: the log passes Microsoft's SARIF
// Multitool validator with no error and no warning (with repository-relative
// and with absolute paths), and it carries the run's findings: rules with
// their pages, results as the JSON output has them, notes as related
// locations, fix-its as fixes.
//
// The validator is an npm package that scripts/test.sh installs into
// <build>/test-tools (or set OCCLINT_SARIF_MULTITOOL to its sarif-multitool).
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;

namespace {

const std::string SourceDir = OCCLINT_SOURCE_DIR;
const std::string Occlint = shellQuote(OCCLINT_BINARY);

// Warnings with fix-its (on notes, issue 12), tiny grids, and errors with notes.
const std::vector<std::string> Inputs = {"test-inputs/checks/launch-block-resize.cu",
                                         "test-inputs/checks/launch-tiny-grid.cu",
                                         "test-inputs/checks/divergence-barrier.cu"};

std::string multitool() {
  if (const char *Env = std::getenv("OCCLINT_SARIF_MULTITOOL"); Env && *Env)
    return Env;
  return std::string(OCCLINT_BUILD_DIR) + "/test-tools/node_modules/.bin/sarif-multitool";
}

#define REQUIRE_MULTITOOL()                                                                                            \
  if (access(multitool().c_str(), X_OK) != 0)                                                                          \
  FAIL() << "the SARIF validator is not installed at " << multitool()                                                  \
         << ": scripts/test.sh installs it (npm install --prefix <build>/test-tools @microsoft/sarif-multitool),"      \
            " or set OCCLINT_SARIF_MULTITOOL to a sarif-multitool"

json readJson(const fs::path &P) {
  std::ifstream In(P);
  json J = json::parse(In, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(J.is_discarded()) << P << " is not JSON";
  return J;
}

void writeJson(const fs::path &P, const json &J) { std::ofstream(P) << J.dump(2); }

// Runs occlint in `Directory` on the inputs (absolute paths) and returns its
// log, written with --format=<Format> --output.
json lint(const std::string &Format, const fs::path &Directory, const fs::path &Output, const std::string &Extra = "") {
  std::string Command = "cd " + shellQuote(Directory.string()) + " && " + Occlint + " --format=" + Format +
                        " --no-compile --quiet --gpu=sm_90 --output " + shellQuote(Output.string()) + Extra;
  for (const std::string &Input : Inputs)
    Command += " " + shellQuote(SourceDir + "/" + Input);
  CommandResult R = runCommand(Command + " --");
  EXPECT_EQ(R.exitCode, 1) << "divergence-barrier.cu has errors\n" << R.output;
  return readJson(Output);
}

struct Finding {
  std::string rule, level;
};

// The validator's findings on `Log`, each with its effective level (the
// result's, else its rule's default, else "warning"). `Console` gets what it
// printed, for failure messages.
std::vector<Finding> validate(const fs::path &Log, std::string &Console) {
  const fs::path Report = Log.string() + ".validation.sarif";
  // (A .NET program: invariant globalization spares it libicu, which a bare
  // machine may not have.)
  CommandResult R =
      runCommand("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 " + shellQuote(multitool()) + " validate " +
                 shellQuote(Log.string()) + " -o " + shellQuote(Report.string()) + " --log ForceOverwrite");
  Console = R.output;
  EXPECT_EQ(R.exitCode, 0) << R.output;
  const json Validation = readJson(Report);
  std::vector<Finding> Findings;
  if (Validation.is_discarded())
    return Findings;
  const json &Run = Validation["runs"].at(0);
  EXPECT_EQ(Run["tool"]["driver"]["name"], "Sarif.Multitool");
  for (const json &Result : Run.value("results", json::array())) {
    std::string Level = "warning";
    if (Result.contains("level"))
      Level = Result["level"];
    else if (Result.contains("ruleIndex")) {
      const json &Rule = Run["tool"]["driver"]["rules"].at(Result["ruleIndex"].get<size_t>());
      if (Rule.contains("defaultConfiguration") && Rule["defaultConfiguration"].contains("level"))
        Level = Rule["defaultConfiguration"]["level"];
    }
    Findings.push_back({Result.value("ruleId", ""), Level});
  }
  return Findings;
}

void expectNoErrorsOrWarnings(const fs::path &Log) {
  std::string Console;
  for (const Finding &F : validate(Log, Console))
    EXPECT_TRUE(F.level != "error" && F.level != "warning") << F.level << " " << F.rule << "\n" << Console;
  // The validator says nothing at all about a log it cannot read into its
  // object model (an unknown enum value, a string for a number). The same log
  // without the driver's informationUri must draw exactly that one warning,
  // which shows this log was read and checked.
  json Weakened = readJson(Log);
  Weakened["runs"][0]["tool"]["driver"].erase("informationUri");
  const fs::path Canary = Log.string() + ".canary.sarif";
  writeJson(Canary, Weakened);
  const std::vector<Finding> CanaryFindings = validate(Canary, Console);
  ASSERT_EQ(CanaryFindings.size(), 1u) << "the validator did not check " << Log << " (it could not read it?)\n"
                                       << Console;
  EXPECT_EQ(CanaryFindings[0].rule, "SARIF2005");
  EXPECT_EQ(CanaryFindings[0].level, "warning");
}

TEST(SarifFormat, RepositoryRelativeLogValidatesWithoutErrorsOrWarnings) {
  REQUIRE_MULTITOOL();
  ScratchDir D;
  // Run from elsewhere: the root is the sources' (their repository's top
  // level, else their common directory), not the current directory, so
  // every file is relative to %SRCROOT%.
  const json Log = lint("sarif", D.path(), D.path() / "occlint.sarif");
  const std::string Root = fs::exists(fs::path(SourceDir) / ".git") ? SourceDir : SourceDir + "/test-inputs/checks";
  for (const json &Artifact : Log["runs"][0]["artifacts"])
    EXPECT_EQ(Artifact["location"]["uriBaseId"], "%SRCROOT%") << Artifact.dump();
  EXPECT_EQ(Log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file://" + Root + "/");
  expectNoErrorsOrWarnings(D.path() / "occlint.sarif");
}

TEST(SarifFormat, AbsoluteUriLogValidatesWithoutErrorsOrWarnings) {
  REQUIRE_MULTITOOL();
  ScratchDir D;
  // A root elsewhere: the files are outside it (and not in the toolkit).
  const json Log = lint("sarif", D.path(), D.path() / "occlint.sarif", " --root " + shellQuote(D.path().string()));
  ASSERT_FALSE(Log["runs"][0]["artifacts"].empty());
  for (const json &Artifact : Log["runs"][0]["artifacts"]) {
    EXPECT_FALSE(Artifact["location"].contains("uriBaseId"));
    EXPECT_EQ(Artifact["location"]["uri"].get<std::string>().rfind("file://" + SourceDir + "/test-inputs/", 0), 0u);
  }
  EXPECT_FALSE(Log["runs"][0].contains("originalUriBaseIds"));
  expectNoErrorsOrWarnings(D.path() / "occlint.sarif");
}

TEST(SarifFormat, TheValidatorCatchesAnInvalidLog) {
  // The check above can fail: a region that ends before it starts is an error.
  REQUIRE_MULTITOOL();
  ScratchDir D;
  json Log = lint("sarif", SourceDir, D.path() / "occlint.sarif");
  json &Region = Log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  Region["endLine"] = Region["startLine"].get<int>() - 1;
  writeJson(D.path() / "broken.sarif", Log);
  std::string Console;
  bool SawError = false;
  for (const Finding &F : validate(D.path() / "broken.sarif", Console))
    SawError |= F.level == "error";
  EXPECT_TRUE(SawError) << Console;
}

// The SARIF results and the JSON diagnostics of the same run, side by side.
class SarifContent : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ScratchDir D;
    Sarif = lint("sarif", SourceDir, D.path() / "occlint.sarif");
    Json = lint("json", SourceDir, D.path() / "occlint.json");
  }
  static const json &run() { return Sarif["runs"][0]; }
  static json Sarif, Json;
};
json SarifContent::Sarif, SarifContent::Json;

TEST_F(SarifContent, RulesAreEveryDocumentedCheckAndEveryResultsRule) {
  const json &Rules = run()["tool"]["driver"]["rules"];
  std::set<std::string> Ids;
  for (const json &Rule : Rules) {
    const std::string Id = Rule["id"];
    EXPECT_TRUE(Ids.insert(Id).second) << "repeated rule " << Id;
    if (Id.rfind("cuda-", 0) == 0) {
      const std::string Page = "/" + Id + ".md";
      const std::string HelpUri = Rule["helpUri"];
      ASSERT_GE(HelpUri.size(), Page.size());
      EXPECT_EQ(HelpUri.substr(HelpUri.size() - Page.size()), Page);
      EXPECT_FALSE(Rule["help"]["markdown"].get<std::string>().empty());
      EXPECT_FALSE(Rule["shortDescription"]["text"].get<std::string>().empty());
    }
  }
  for (const fs::directory_entry &E : fs::directory_iterator(SourceDir + "/docs/checks"))
    if (E.path().extension() == ".md" && E.path().filename() != "README.md")
      EXPECT_EQ(Ids.count(E.path().stem().string()), 1u) << "no rule for " << E.path();
  for (const json &Result : run()["results"]) {
    EXPECT_EQ(Ids.count(Result["ruleId"].get<std::string>()), 1u) << Result["ruleId"];
    EXPECT_EQ(Rules.at(Result["ruleIndex"].get<size_t>())["id"], Result["ruleId"]);
  }
}

TEST_F(SarifContent, ResultsAreTheDiagnostics) {
  const json &Results = run()["results"];
  const json &Diagnostics = Json["diagnostics"];
  ASSERT_EQ(Results.size(), Diagnostics.size());
  ASSERT_GT(Results.size(), 10u);
  for (size_t I = 0; I < Results.size(); ++I) {
    const json &R = Results[I], &D = Diagnostics[I];
    EXPECT_EQ(R["ruleId"], D["check"]);
    EXPECT_EQ(R["message"]["text"], D["message"]);
    const std::string Level = D["severity"] == "remark" ? "note" : D["severity"].get<std::string>();
    EXPECT_EQ(R["level"], Level);
    const json &Location = R["locations"][0]["physicalLocation"];
    const std::string Uri = Location["artifactLocation"]["uri"];
    // One root for both outputs: SARIF's relative URI is JSON's "path".
    EXPECT_EQ(Uri, D["path"].get<std::string>()); // not string == json: ambiguous in C++20 with clang
    EXPECT_EQ(Location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    EXPECT_EQ(Json["roots"]["project"].get<std::string>() + "/" + Uri, D["file"].get<std::string>());
    // The inputs are ASCII: code-point columns are byte columns.
    EXPECT_EQ(Location["region"]["startLine"], D["line"]);
    EXPECT_EQ(Location["region"]["startColumn"], D["column"]);
  }
}

TEST_F(SarifContent, NotesAreRelatedLocations) {
  size_t WithNotes = 0;
  for (size_t I = 0; I < Json["diagnostics"].size(); ++I) {
    const json &Notes = Json["diagnostics"][I]["notes"];
    const json &Result = run()["results"][I];
    if (Notes.empty()) {
      EXPECT_FALSE(Result.contains("relatedLocations"));
      continue;
    }
    ++WithNotes;
    const json &Related = Result["relatedLocations"];
    ASSERT_EQ(Related.size(), Notes.size());
    for (size_t N = 0; N < Notes.size(); ++N) {
      EXPECT_EQ(Related[N]["id"], N + 1);
      EXPECT_EQ(Related[N]["message"]["text"], Notes[N]["message"]);
      EXPECT_EQ(Related[N]["physicalLocation"]["region"]["startLine"], Notes[N]["line"]);
    }
  }
  EXPECT_GT(WithNotes, 0u) << "divergence-barrier.cu's errors have notes";
}

TEST_F(SarifContent, TheBlockSizeFixItIsAFix) {
  // The block-size fix-it is on a note (issue 12): SARIF gives a note's fix
  // as a fix of the result, described by the note's message.
  size_t Fixes = 0;
  for (size_t I = 0; I < Json["diagnostics"].size(); ++I) {
    const json &D = Json["diagnostics"][I];
    const json &Result = run()["results"][I];
    const json *Note = nullptr;
    for (const json &N : D["notes"])
      if (!N["fixes"].empty())
        Note = &N;
    if (D["fixes"].empty() && !Note) {
      EXPECT_FALSE(Result.contains("fixes"));
      continue;
    }
    ++Fixes;
    EXPECT_EQ(D["check"], "cuda-launch-block-not-warp-multiple");
    EXPECT_TRUE(D["fixes"].empty()) << "a fix-it on the warning itself: " << D.dump(2);
    ASSERT_NE(Note, nullptr);
    ASSERT_EQ(Result["fixes"].size(), 1u);
    const json &Changes = Result["fixes"][0]["artifactChanges"];
    ASSERT_EQ(Changes.size(), 1u);
    EXPECT_EQ(Changes[0]["artifactLocation"], Result["locations"][0]["physicalLocation"]["artifactLocation"]);
    const json &Replacements = Changes[0]["replacements"];
    ASSERT_EQ(Replacements.size(), (*Note)["fixes"].size());
    for (size_t R = 0; R < Replacements.size(); ++R) {
      const json &Replacement = Replacements[R];
      const json &Fix = (*Note)["fixes"][R];
      EXPECT_EQ(Replacement["insertedContent"]["text"], Fix["replacement"]);
      EXPECT_EQ(Replacement["deletedRegion"]["startLine"], Fix["begin"]["line"]);
      EXPECT_EQ(Replacement["deletedRegion"]["startColumn"], Fix["begin"]["column"]);
      EXPECT_EQ(Replacement["deletedRegion"]["endColumn"], Fix["end"]["column"]);
    }
    EXPECT_EQ(Result["fixes"][0]["description"]["text"], (*Note)["message"]);
  }
  // launch-block-resize.cu: the safe launches (guarded ceil-div and divide
  // forms, an early return, grid-stride loops, a helper under the guard) get
  // fix-its on their notes.
  EXPECT_GE(Fixes, 5u);
}

} // namespace
