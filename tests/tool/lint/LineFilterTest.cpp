// --line-filter's value (tool/lint/LineFilter.h): JSON only, so that no value
// reaches clang-tidy's YAML reader in a form that crashes it.
#include "lint/LineFilter.h"
#include "lint/LintPipeline.h"

#include <gtest/gtest.h>

using namespace occlint;

// Found by fuzz-check-options (tests/fuzz/regressions/fuzz-check-options/):
// `--line-filter='*"'` (a YAML alias) ended occlint with SIGSEGV inside
// llvm::yaml::Input::beginSequence.
TEST(LineFilter, YamlAliasesAreRefusedNotCrashed) {
  for (const char *Text : {"*\"", "*x", "[*a]", "&a [*a]", "[{\"name\": *a}]", "!tag [1]"}) {
    clang::tidy::ClangTidyGlobalOptions Options;
    EXPECT_EQ(parseJsonLineFilter(Text, Options), std::make_error_code(std::errc::invalid_argument)) << Text;
  }
}

TEST(LineFilter, JsonValuesAreReadIntoTheGlobalOptions) {
  clang::tidy::ClangTidyGlobalOptions Options;
  ASSERT_FALSE(parseJsonLineFilter(R"([{"name":"a.cu","lines":[[1,3],[5,5]]},{"name":"b.cuh"}])", Options));
  ASSERT_EQ(Options.LineFilter.size(), 2u);
  EXPECT_EQ(Options.LineFilter[0].Name, "a.cu");
  ASSERT_EQ(Options.LineFilter[0].LineRanges.size(), 2u);
  EXPECT_EQ(Options.LineFilter[0].LineRanges[0], std::make_pair(1u, 3u));
  EXPECT_EQ(Options.LineFilter[1].Name, "b.cuh");
}

TEST(LineFilter, TheOptionsProviderSaysWhatIsWrong) {
  LintSettings Settings;
  Settings.lineFilter = "*\"";
  std::string Error;
  EXPECT_EQ(createOptionsProvider(Settings, Error), nullptr);
  EXPECT_NE(Error.find("--line-filter: invalid JSON"), std::string::npos) << Error;
}
