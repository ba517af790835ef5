// --format=sarif's writer (tool/outputs/SarifOutput.cpp) on a LintResult built by
// hand: the rules, levels, locations (relative to the current directory or
// absolute), regions in code points, related locations and fixes.
#include "outputs/OutputFormats.h"

#include "outputs/CheckCatalog.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace occlint;
using nlohmann::json;

namespace {

SourcePosition at(unsigned Line, unsigned Column, uint64_t Offset, unsigned CodePointColumn = 0) {
  SourcePosition P;
  P.line = Line;
  P.column = Column;
  P.codePointColumn = CodePointColumn ? CodePointColumn : Column;
  P.utf16Column = P.codePointColumn;
  P.offset = Offset;
  return P;
}

std::string currentDirectory() {
  llvm::SmallString<256> Dir;
  EXPECT_FALSE(llvm::sys::fs::current_path(Dir));
  return std::string(Dir);
}

json written(const LintResult &Result) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeSarifOutput(Result, OS);
  return json::parse(Text);
}

DiagnosticRecord diagnostic(const std::string &Check, const std::string &Severity, const std::string &File,
                            SourcePosition Position) {
  DiagnosticRecord D;
  D.check = Check;
  D.severity = Severity;
  D.message = Check + " at line " + std::to_string(Position.line);
  D.file = File;
  D.position = Position;
  return D;
}

const json &ruleOf(const json &Run, const json &Result) {
  return Run["tool"]["driver"]["rules"].at(Result["ruleIndex"].get<size_t>());
}

TEST(SarifOutput, LogRunAndDriver) {
  const json Log = written(LintResult{});
  EXPECT_EQ(Log["version"], "2.1.0");
  EXPECT_TRUE(Log["$schema"].get<std::string>().find("sarif") != std::string::npos);
  ASSERT_EQ(Log["runs"].size(), 1u);
  const json &Run = Log["runs"][0];
  EXPECT_EQ(Run["columnKind"], "unicodeCodePoints");
  EXPECT_TRUE(Run["results"].empty());
  const json &Driver = Run["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "occlint");
  EXPECT_EQ(Driver["version"], OCCLINT_VERSION);
  EXPECT_EQ(Driver["informationUri"], checkIndexUrl());
  // No location under the current directory: no base id to declare.
  EXPECT_FALSE(Run.contains("originalUriBaseIds"));
}

TEST(SarifOutput, OneRuleForEveryDocumentedCheckWithItsPage) {
  const json Rules = written(LintResult{})["runs"][0]["tool"]["driver"]["rules"];
  const std::vector<CheckDoc> &Catalog = checkCatalog();
  ASSERT_EQ(Rules.size(), Catalog.size());
  for (size_t I = 0; I < Catalog.size(); ++I) {
    const CheckDoc &Doc = Catalog[I];
    const json &Rule = Rules[I];
    EXPECT_EQ(Rule["id"], Doc.name);
    EXPECT_FALSE(Rule["name"].get<std::string>().empty());
    EXPECT_EQ(Rule["name"].get<std::string>().find('-'), std::string::npos) << Rule["name"];
    EXPECT_EQ(Rule["fullDescription"]["text"], Doc.summary);
    const std::string Short = Rule["shortDescription"]["text"];
    EXPECT_FALSE(Short.empty()) << Doc.name;
    EXPECT_NE(Doc.summary.find(Short), std::string::npos) << "a sentence of the summary: " << Short;
    EXPECT_EQ(Rule["help"]["markdown"], Doc.markdown);
    EXPECT_EQ(Rule["help"]["text"], Doc.markdown);
    EXPECT_EQ(Rule["helpUri"], Doc.url);
    const std::string Expected = Doc.defaultSeverity == "error"    ? "error"
                                 : Doc.defaultSeverity == "remark" ? "note"
                                                                   : "warning";
    EXPECT_EQ(Rule["defaultConfiguration"]["level"], Expected) << Doc.name;
  }
}

TEST(SarifOutput, ShortDescriptionSkipsALeadingSeverityWord) {
  const CheckDoc *Barrier = findCheckDoc("cuda-divergence-barrier");
  ASSERT_NE(Barrier, nullptr);
  ASSERT_EQ(Barrier->summary.rfind("Error. ", 0), 0u)
      << "the page no longer starts with **Error.**: " << Barrier->summary;
  // Held: a range-for over a member of a temporary reads freed memory (AddressSanitizer).
  const json Sarif = written(LintResult{});
  for (const json &Rule : Sarif["runs"][0]["tool"]["driver"]["rules"])
    if (Rule["id"] == Barrier->name)
      EXPECT_EQ(Rule["shortDescription"]["text"].get<std::string>().rfind("Flags ", 0), 0u) << Rule["shortDescription"];
}

TEST(SarifOutput, ResultsPointAtTheirRulesWithSarifLevels) {
  const std::string Dir = currentDirectory();
  LintResult R;
  R.diagnostics.push_back(diagnostic("cuda-launch-invalid-config", "error", Dir + "/a.cu", at(3, 5, 30)));
  R.diagnostics.push_back(diagnostic("cuda-launch-tiny-grid", "warning", Dir + "/a.cu", at(4, 5, 40)));
  R.diagnostics.push_back(diagnostic("cuda-occupancy-report", "remark", Dir + "/a.cu", at(5, 5, 50)));
  R.diagnostics.push_back(diagnostic("clang-diagnostic-error", "error", Dir + "/a.cu", at(6, 1, 60)));
  R.diagnostics.push_back(diagnostic("clang-diagnostic-error", "error", Dir + "/a.cu", at(7, 1, 70)));
  const json Run = written(R)["runs"][0];
  const json &Results = Run["results"];
  ASSERT_EQ(Results.size(), 5u);
  const char *Levels[] = {"error", "warning", "note", "error", "error"};
  for (size_t I = 0; I < 5; ++I) {
    EXPECT_EQ(Results[I]["ruleId"], R.diagnostics[I].check);
    EXPECT_EQ(ruleOf(Run, Results[I])["id"], R.diagnostics[I].check);
    EXPECT_EQ(Results[I]["level"], Levels[I]);
    EXPECT_EQ(Results[I]["message"]["text"], R.diagnostics[I].message);
  }
  // clang-diagnostic-error is no catalog check: one rule for it, after the catalog's.
  const json &Rules = Run["tool"]["driver"]["rules"];
  EXPECT_EQ(Rules.size(), checkCatalog().size() + 1);
  const json &Clang = Rules.back();
  EXPECT_EQ(Clang["id"], "clang-diagnostic-error");
  EXPECT_EQ(Clang["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(Clang["helpUri"].get<std::string>().rfind("https://clang.llvm.org/", 0), 0u);
  std::set<std::string> Ids;
  for (const json &Rule : Rules)
    EXPECT_TRUE(Ids.insert(Rule["id"].get<std::string>()).second) << "repeated rule " << Rule["id"];
}

TEST(SarifOutput, FilesUnderTheCurrentDirectoryAreRelativeToSrcRoot) {
  const std::string Dir = currentDirectory();
  LintResult R;
  R.diagnostics.push_back(diagnostic("cuda-launch-tiny-grid", "warning", Dir + "/src/my kernels.cu", at(4, 5, 40)));
  R.diagnostics.push_back(diagnostic("cuda-launch-tiny-grid", "warning", "/occlint-elsewhere/b.cu", at(5, 5, 50)));
  R.diagnostics.push_back(diagnostic("cuda-launch-tiny-grid", "warning", Dir + "/src/my kernels.cu", at(6, 5, 60)));
  const json Run = written(R)["runs"][0];
  const json Inside = Run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(Inside["uri"], "src/my%20kernels.cu");
  EXPECT_EQ(Inside["uriBaseId"], "%SRCROOT%");
  const json Outside = Run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(Outside["uri"], "file:///occlint-elsewhere/b.cu");
  EXPECT_FALSE(Outside.contains("uriBaseId"));
  const std::string Root = Run["originalUriBaseIds"]["%SRCROOT%"]["uri"];
  EXPECT_EQ(Root.rfind("file:///", 0), 0u) << Root;
  EXPECT_EQ(Root.back(), '/');
  // Each file once in the artifacts.
  ASSERT_EQ(Run["artifacts"].size(), 2u);
  EXPECT_EQ(Run["artifacts"][0]["location"], Inside);
  EXPECT_EQ(Run["artifacts"][1]["location"], Outside);
}

TEST(SarifOutput, RegionsCountCodePointsAndSpanTheCaretsRange) {
  const std::string File = currentDirectory() + "/a.cu";
  LintResult R;
  // Line 12: a two-byte character before the caret (byte column 15, code point 14).
  DiagnosticRecord Ranged = diagnostic("cuda-launch-block-not-warp-multiple", "warning", File, at(12, 15, 476, 14));
  Ranged.ranges.push_back({File, at(3, 1, 10), at(3, 4, 13)});               // elsewhere: not the region
  Ranged.ranges.push_back({File, at(12, 15, 476, 14), at(12, 18, 479, 17)}); // holds the caret
  R.diagnostics.push_back(Ranged);
  R.diagnostics.push_back(diagnostic("cuda-launch-tiny-grid", "warning", File, at(20, 3, 600)));
  const json Run = written(R)["runs"][0];
  EXPECT_EQ(Run["results"][0]["locations"][0]["physicalLocation"]["region"],
            json({{"startLine", 12}, {"startColumn", 14}, {"endLine", 12}, {"endColumn", 17}}));
  // No range: an empty region at the caret.
  EXPECT_EQ(Run["results"][1]["locations"][0]["physicalLocation"]["region"],
            json({{"startLine", 20}, {"startColumn", 3}, {"endLine", 20}, {"endColumn", 3}}));
}

TEST(SarifOutput, NotesAreRelatedLocations) {
  const std::string File = currentDirectory() + "/a.cu";
  LintResult R;
  DiagnosticRecord D = diagnostic("cuda-divergence-barrier", "error", File, at(12, 5, 300));
  NoteRecord Branch;
  Branch.message = "the branch on 'threadIdx.x % 2 == 0' depends on the thread";
  Branch.file = File;
  Branch.position = at(10, 3, 250);
  D.notes.push_back(Branch);
  NoteRecord Nowhere;
  Nowhere.message = "a note with no location";
  D.notes.push_back(Nowhere);
  R.diagnostics.push_back(D);
  const json Related = written(R)["runs"][0]["results"][0]["relatedLocations"];
  ASSERT_EQ(Related.size(), 2u);
  EXPECT_EQ(Related[0]["id"], 1);
  EXPECT_EQ(Related[0]["message"]["text"], Branch.message);
  EXPECT_EQ(Related[0]["physicalLocation"]["artifactLocation"]["uri"], "a.cu");
  EXPECT_EQ(Related[0]["physicalLocation"]["region"]["startLine"], 10);
  EXPECT_EQ(Related[0]["physicalLocation"]["region"]["startColumn"], 3);
  EXPECT_EQ(Related[1]["id"], 2);
  EXPECT_EQ(Related[1]["message"]["text"], Nowhere.message);
  EXPECT_FALSE(Related[1].contains("physicalLocation"));
}

TEST(SarifOutput, FixesAreReplacementsPerFile) {
  const std::string Dir = currentDirectory();
  LintResult R;
  DiagnosticRecord D = diagnostic("cuda-launch-block-not-warp-multiple", "warning", Dir + "/a.cu", at(12, 14, 476));
  D.fixes.push_back({{Dir + "/a.cu", at(12, 14, 476), at(12, 17, 479)}, "128"});
  NoteRecord N;
  N.message = "or remove the size";
  N.file = Dir + "/a.cu";
  N.position = at(12, 14, 476);
  N.fixes.push_back({{Dir + "/a.cu", at(12, 14, 476), at(12, 17, 479)}, ""});
  N.fixes.push_back({{Dir + "/b.h", at(2, 1, 20), at(2, 1, 20)}, "#pragma once\n"});
  D.notes.push_back(N);
  R.diagnostics.push_back(D);
  const json Fixes = written(R)["runs"][0]["results"][0]["fixes"];
  ASSERT_EQ(Fixes.size(), 2u);

  const json &Own = Fixes[0];
  EXPECT_NE(Own["description"]["text"].get<std::string>().find("128"), std::string::npos) << Own["description"];
  ASSERT_EQ(Own["artifactChanges"].size(), 1u);
  EXPECT_EQ(Own["artifactChanges"][0]["artifactLocation"]["uri"], "a.cu");
  const json &Replacement = Own["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(Replacement["deletedRegion"],
            json({{"startLine", 12}, {"startColumn", 14}, {"endLine", 12}, {"endColumn", 17}}));
  EXPECT_EQ(Replacement["insertedContent"]["text"], "128");

  const json &FromNote = Fixes[1];
  EXPECT_EQ(FromNote["description"]["text"], N.message);
  ASSERT_EQ(FromNote["artifactChanges"].size(), 2u);
  const json &Deletion = FromNote["artifactChanges"][0]["replacements"][0];
  EXPECT_FALSE(Deletion.contains("insertedContent"));
  EXPECT_EQ(FromNote["artifactChanges"][1]["artifactLocation"]["uri"], "b.h");
  const json &Insertion = FromNote["artifactChanges"][1]["replacements"][0];
  EXPECT_EQ(Insertion["deletedRegion"]["startColumn"], Insertion["deletedRegion"]["endColumn"]);
  EXPECT_EQ(Insertion["insertedContent"]["text"], "#pragma once\n");
}

TEST(SarifOutput, ADiagnosticWithoutAFileHasNoLocation) {
  LintResult R;
  R.diagnostics.push_back(diagnostic("clang-diagnostic-error", "error", "", SourcePosition{}));
  const json Result = written(R)["runs"][0]["results"][0];
  EXPECT_FALSE(Result.contains("locations"));
  EXPECT_EQ(Result["level"], "error");
}

} // namespace
