// The check documentation as occlint shows it: --list-checks prints each
// enabled check with its summary and the address of its page, and every
// check the module registers has a page (docs/checks/<check>.md), so a new
// check without one fails here.
#include "CommandRunner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

struct ListedCheck {
  std::string summary, url;
};

// --list-checks: "Enabled checks:", then per check its name (4 spaces) and,
// when documented, its summary and url (8 spaces each).
std::map<std::string, ListedCheck> listChecks(const std::string &Arguments) {
  CommandResult R = runCommand(shellQuote(OCCLINT_BINARY) + " --list-checks " + Arguments, /*MergeStderr=*/false);
  EXPECT_EQ(R.exitCode, 0) << R.output;
  std::map<std::string, ListedCheck> Checks;
  std::istringstream Lines(R.output);
  std::string Line, Current;
  int DetailLine = 0;
  while (std::getline(Lines, Line)) {
    if (Line.rfind("        ", 0) == 0 && !Current.empty()) {
      (DetailLine++ == 0 ? Checks[Current].summary : Checks[Current].url) = Line.substr(8);
    } else if (Line.rfind("    ", 0) == 0) {
      Current = Line.substr(4);
      Checks[Current];
      DetailLine = 0;
    }
  }
  return Checks;
}

// file:///a%20b -> /a b
std::string pathOfFileUri(const std::string &Uri) {
  std::string Path;
  for (size_t I = std::string("file://").size(); I < Uri.size(); ++I) {
    if (Uri[I] == '%' && I + 2 < Uri.size()) {
      Path += char(std::stoi(Uri.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path;
}

TEST(CheckDocs, ListChecksShowsEachDefaultChecksSummaryAndPage) {
  const std::map<std::string, ListedCheck> Checks = listChecks("");
  ASSERT_FALSE(Checks.empty());
  EXPECT_EQ(Checks.count("cuda-occupancy-report"), 0u) << "off by default";
  EXPECT_EQ(Checks.count("cuda-divergence-data-branch"), 0u) << "off by default";
  for (const auto &[Name, Listed] : Checks) {
    EXPECT_EQ(Name.rfind("cuda-", 0), 0u) << Name;
    EXPECT_GT(Listed.summary.size(), 20u) << Name << ": no summary";
    const std::string Page = "/" + Name + ".md";
    ASSERT_GE(Listed.url.size(), Page.size()) << Name << ": no url";
    EXPECT_EQ(Listed.url.substr(Listed.url.size() - Page.size()), Page) << Listed.url;
    if (Listed.url.rfind("file://", 0) == 0) {
      const fs::path Installed = pathOfFileUri(Listed.url);
      EXPECT_TRUE(fs::is_regular_file(Installed)) << Name << ": " << Installed << " does not exist";
      // The installed page is the source tree's.
      EXPECT_EQ(fs::file_size(Installed),
                fs::file_size(fs::path(OCCLINT_SOURCE_DIR) / "docs" / "checks" / (Name + ".md")));
    }
  }
}

TEST(CheckDocs, EveryRegisteredCheckHasAPage) {
  // Every check occlint knows: clang-tidy's engine brings the static
  // analyzer's (clang-analyzer-*, documented by Clang); the rest are the module's.
  const std::map<std::string, ListedCheck> Checks = listChecks("--checks='*'");
  size_t Module = 0;
  for (const auto &[Name, Listed] : Checks) {
    if (Name.rfind("clang-analyzer-", 0) == 0)
      continue;
    ++Module;
    EXPECT_TRUE(fs::is_regular_file(fs::path(OCCLINT_SOURCE_DIR) / "docs" / "checks" / (Name + ".md")))
        << Name << " has no page: write docs/checks/" << Name << ".md and list it in docs/checks/README.md";
    EXPECT_FALSE(Listed.summary.empty()) << Name << ": the binary has no page for it (rebuild?)";
  }
  EXPECT_GE(Module, 10u) << "the module's checks are missing from --list-checks --checks='*'";
  EXPECT_EQ(Checks.count("cuda-occupancy-report"), 1u);
}

} // namespace
