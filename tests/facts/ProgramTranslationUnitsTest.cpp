// Unit tests of ProgramTranslationUnits: which files of a program name an
// identifier, as CallSites asks when a helper with external linkage may have
// callers elsewhere.
#include "facts/ProgramTranslationUnits.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

using clang::tidy::occlint::ProgramTranslationUnits;
using occlint::testing::ScratchDir;

namespace {

class ProgramTranslationUnitsTest : public ::testing::Test {
protected:
  void TearDown() override { ProgramTranslationUnits::clear(); }
  ScratchDir Dir;
};

TEST_F(ProgramTranslationUnitsTest, AnIdentifierNamedOnlyInItsOwnFileIsNotNamedOutside) {
  const std::string Mine = Dir.write("mine.cu", "void launch_fill(int t) {}\nvoid run() { launch_fill(256); }\n");
  const std::string Other = Dir.write("other.cu", "void launch_fill_more(int t);\n// 0x1f launch_filler\n");
  ProgramTranslationUnits::set({Mine, Other});
  ASSERT_TRUE(ProgramTranslationUnits::known());
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("launch_fill", Mine), std::nullopt)
      << "a longer identifier that starts with the name is another identifier";
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("x1f", Other), std::nullopt) << "a hex literal is no identifier";
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("launch_filler", Mine), Other) << "a comment counts (the safe side)";
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("launch_fill_more", Mine), Other);
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("launch_fill_more", Other), std::nullopt);
}

TEST_F(ProgramTranslationUnitsTest, AFileListedTwiceIsOneFile) {
  const std::string Mine = Dir.write("mine.cu", "void helper() {}\n");
  ProgramTranslationUnits::set({Mine, Mine, (Dir.path() / "." / "mine.cu").string()});
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("helper", Mine), std::nullopt)
      << "two archs of one file, or a path spelled differently, are the same translation unit";
}

TEST_F(ProgramTranslationUnitsTest, AnUnreadableFileOrNoProgramLeavesEverythingOpen) {
  const std::string Mine = Dir.write("mine.cu", "void helper() {}\n");
  EXPECT_FALSE(ProgramTranslationUnits::known());
  EXPECT_EQ(ProgramTranslationUnits::namedOutside("helper", Mine), Mine) << "no program: may be called from anywhere";
  ProgramTranslationUnits::set({Mine, (Dir.path() / "missing.cu").string()});
  EXPECT_FALSE(ProgramTranslationUnits::known());
  EXPECT_TRUE(ProgramTranslationUnits::namedOutside("helper", Mine).has_value());
}

} // namespace
