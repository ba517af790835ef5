// The check catalog (tool/outputs/CheckCatalog.cpp): the pages embedded at build time
// are docs/checks/*.md as they are in the source tree, summaries are the
// pages' first paragraphs, severities come from the index's table.
#include "outputs/CheckCatalog.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint;

namespace {

const fs::path DocsDir = fs::path(OCCLINT_SOURCE_DIR) / "docs" / "checks";

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

TEST(CheckCatalog, SummaryIsTheFirstParagraphAfterTheTitleOnOneLine) {
  EXPECT_EQ(
      checkSummary("# cuda-x\n\nFlags a launch whose grid\nis tiny. A block runs\non one SM.\n\n## Why\n\nBecause."),
      "Flags a launch whose grid is tiny. A block runs on one SM.");
  EXPECT_EQ(checkSummary("\n\n# title\nFirst line\n  second line  \n# Next heading\nnot this"),
            "First line second line");
  EXPECT_EQ(checkSummary("# title\n\nText before a fence\n```cuda\ncode\n```\n"), "Text before a fence");
  // No title: the first paragraph.
  EXPECT_EQ(checkSummary("Just a paragraph\nof two lines.\n\nAnother."), "Just a paragraph of two lines.");
  EXPECT_EQ(checkSummary("# only a title\n"), "");
}

TEST(CheckCatalog, SummaryIsPlainText) {
  EXPECT_EQ(checkSummary("# t\n\n**Error.** Flags a `__syncthreads()` under a branch."),
            "Error. Flags a __syncthreads() under a branch.");
  EXPECT_EQ(checkSummary("# t\n\nSee [the occupancy model](../occupancy-model.md) and [cuda-x](cuda-x.md)."),
            "See the occupancy model and cuda-x.");
  // Inside a code span nothing is markup.
  EXPECT_EQ(checkSummary("# t\n\nThe `a**b` and `[x](y)` spans."), "The a**b and [x](y) spans.");
  // Brackets that are not a link stay.
  EXPECT_EQ(checkSummary("# t\n\nAn array a[i] (not a link)."), "An array a[i] (not a link).");
}

TEST(CheckCatalog, EmbedsEveryPageOfDocsChecksAsItIs) {
  std::set<std::string> Pages;
  for (const fs::directory_entry &E : fs::directory_iterator(DocsDir))
    if (E.path().extension() == ".md" && E.path().filename() != "README.md")
      Pages.insert(E.path().stem().string());
  ASSERT_FALSE(Pages.empty()) << DocsDir;

  std::set<std::string> Catalogued;
  std::string Previous;
  for (const CheckDoc &Doc : checkCatalog()) {
    EXPECT_LT(Previous, Doc.name) << "the catalog is sorted by name, without repeats";
    Previous = Doc.name;
    Catalogued.insert(Doc.name);
    EXPECT_EQ(Doc.markdown, readFile(DocsDir / (Doc.name + ".md"))) << Doc.name;
    EXPECT_EQ(Doc.summary, checkSummary(Doc.markdown)) << Doc.name;
    EXPECT_FALSE(Doc.summary.empty()) << Doc.name;
    EXPECT_EQ(Doc.summary.find('\n'), std::string::npos) << Doc.name;
  }
  EXPECT_EQ(Catalogued, Pages);
}

TEST(CheckCatalog, FindsEveryEntryByNameAndNothingElse) {
  for (const CheckDoc &Doc : checkCatalog()) {
    const CheckDoc *Found = findCheckDoc(Doc.name);
    ASSERT_NE(Found, nullptr) << Doc.name;
    EXPECT_EQ(Found, &Doc);
  }
  EXPECT_EQ(findCheckDoc("cuda-no-such-check"), nullptr);
  EXPECT_EQ(findCheckDoc(""), nullptr);
  EXPECT_EQ(findCheckDoc("README"), nullptr);
}

TEST(CheckCatalog, UrlsShareTheIndexBase) {
  const std::string &Index = checkIndexUrl();
  ASSERT_TRUE(llvm::StringRef(Index).ends_with("/README.md")) << Index;
  const std::string Base = Index.substr(0, Index.size() - std::string("README.md").size());
  for (const CheckDoc &Doc : checkCatalog())
    EXPECT_EQ(Doc.url, Base + Doc.name + ".md");
}

TEST(CheckCatalog, EveryDocumentedCheckHasItsDeclaredSeverity) {
  for (const CheckDoc &Doc : checkCatalog())
    EXPECT_TRUE(Doc.defaultSeverity == "error" || Doc.defaultSeverity == "warning" || Doc.defaultSeverity == "remark")
        << Doc.name << " has no declared severity (checks/CheckRegistry.cpp: '" << Doc.defaultSeverity << "')";
  // As declared: the invalid launch an error, the report a remark.
  ASSERT_NE(findCheckDoc("cuda-launch-invalid-config"), nullptr);
  EXPECT_EQ(findCheckDoc("cuda-launch-invalid-config")->defaultSeverity, "error");
  ASSERT_NE(findCheckDoc("cuda-occupancy-report"), nullptr);
  EXPECT_EQ(findCheckDoc("cuda-occupancy-report")->defaultSeverity, "remark");
  ASSERT_NE(findCheckDoc("cuda-launch-tiny-grid"), nullptr);
  EXPECT_EQ(findCheckDoc("cuda-launch-tiny-grid")->defaultSeverity, "warning");
}

} // namespace
