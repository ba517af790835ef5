// occlint -p on a real CMake CUDA project (test-inputs/project, see its
// README.md): the compile_commands.json that CMake 3.25 wrote for nvcc 13,
// kept as a template, is instantiated in a fresh build directory, occlint lints
// every CUDA translation unit of it, and what it prints is compared with the
// expectations written inline in every source and header of the project (both
// ways: each expected diagnostic appears exactly once, in its file, and no
// other cuda-* diagnostic appears anywhere).
#include "BundledProjectDatabase.h"
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path &projectDir() { return bundledProjectDir(); }

// Every source and header of the project, in a stable order: the files whose
// inline expectations count (and the only files diagnostics may be in).
std::vector<fs::path> projectSources() {
  static const std::set<std::string> Extensions = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc"};
  std::vector<fs::path> Out;
  for (const auto &Entry : fs::recursive_directory_iterator(projectDir()))
    if (Entry.is_regular_file() && Extensions.count(Entry.path().extension().string()))
      Out.push_back(Entry.path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

struct Expectations {
  std::map<fs::path, std::vector<Diagnostic>> byFile;
  unsigned findings = 0; // warnings and errors: what the summary counts (notes belong to them)
  bool anyError = false;
};

// In a Without set: compare no notes (they name resource sources that differ by mode).
const std::string NotesMarker = "<notes>";

// Without() lists checks whose expectations do not apply in a mode.
Expectations projectExpectations(const std::set<std::string> &Without = {}) {
  Expectations E;
  for (const fs::path &File : projectSources()) {
    std::vector<Diagnostic> Expected = parseExpectations(readFile(File));
    Expected.erase(std::remove_if(Expected.begin(), Expected.end(),
                                  [&](const Diagnostic &D) {
                                    return Without.count(D.check) > 0 ||
                                           (D.level == "note" && Without.count(NotesMarker) > 0);
                                  }),
                   Expected.end());
    for (const Diagnostic &D : Expected) {
      E.findings += D.level == "warning" || D.level == "error";
      E.anyError |= D.level == "error";
    }
    E.byFile[File] = std::move(Expected);
  }
  return E;
}

// The build directory of a configured project, with compile_commands.json
// written from compile_commands.json.in.
class BundledProject : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string Database = bundledProjectDatabase(Build);
    ASSERT_FALSE(Database.empty()) << "cannot read " << projectDir() / "compile_commands.json.in";
    for (const char *Placeholder : {"@PROJECT_SOURCE@", "@PROJECT_BUILD@", "@NVCC@"})
      ASSERT_EQ(Database.find(Placeholder), std::string::npos) << Placeholder << " is left:\n" << Database;
    writeFile(Build / "compile_commands.json", Database);
  }

  // occlint -p <build> with no files: every CUDA translation unit of the
  // database. --gpu H100: the launches meant for the grid-size checks
  // (tiny grid, tail wave) are sized for H100 SXM's 132 SMs; the translation
  // units name their archs themselves (sm_80 and sm_90, sm_90).
  CommandResult lintProject(const std::string &Environment = "") {
    return runCommand(Environment + shellQuote(OCCLINT_BINARY) + " --gpu H100 -p " + shellQuote(Build.string()));
  }

  ScratchDir Scratch;
  const fs::path Build = Scratch.path();
};

std::string describe(const std::vector<std::string> &Problems) {
  std::string All;
  for (const std::string &P : Problems)
    All += "  " + P + "\n";
  return All;
}

// The inline expectations of every project file against what occlint printed.
void expectProjectDiagnostics(const std::string &Mode, const CommandResult &R,
                              const std::set<std::string> &ChecksNotExpected = {}) {
  const Expectations E = projectExpectations(ChecksNotExpected);
  ASSERT_GT(E.byFile.size(), 5u) << "project sources not found under " << projectDir();

  // 1. Per file, both ways. An expected diagnostic printed twice (once per
  //    translation unit that includes its header, or once for stencil_impl.cu
  //    as its own TU and once through stencil.cu) leaves a copy "seen but not
  //    expected"; say so plainly too.
  for (const auto &[File, Expected] : E.byFile) {
    std::vector<Diagnostic> Actual = parseClangOutput(R.output, File.string());
    if (ChecksNotExpected.count(NotesMarker))
      Actual.erase(std::remove_if(Actual.begin(), Actual.end(), [](const Diagnostic &D) { return D.level == "note"; }),
                   Actual.end());
    std::vector<std::string> Problems = compareDiagnostics(Expected, Actual);
    std::set<std::string> Reported;
    for (const Diagnostic &D : Expected) {
      // `expect-warning 2 {{...}}` is two equal expectations: that many copies are wanted.
      const auto Wanted =
          std::count_if(Expected.begin(), Expected.end(), [&](const Diagnostic &O) { return O.str() == D.str(); });
      const auto Times = std::count_if(Actual.begin(), Actual.end(), [&](const Diagnostic &A) {
        return A.line == D.line && A.level == D.level && A.message.find(D.message) != std::string::npos &&
               (D.check.empty() || A.check == D.check);
      });
      if (Times > Wanted && Reported.insert(D.str()).second)
        Problems.push_back("printed " + std::to_string(Times) + " times, expected " + std::to_string(Wanted) + ": " +
                           D.str());
    }
    EXPECT_TRUE(Problems.empty()) << Mode << ", " << File.lexically_relative(projectDir()).string() << ":\n"
                                  << describe(Problems);
  }

  // 2. Nothing in any other file: no cuda-* finding and no compiler error.
  static const std::regex DiagLine(R"(^(.*):(\d+):(\d+): (warning|error): (.*?)( \[([\w.,-]+)\])?$)");
  std::set<std::string> Known;
  for (const auto &Entry : E.byFile)
    Known.insert(Entry.first.string());
  std::istringstream In(R.output);
  std::string Line;
  std::vector<std::string> Elsewhere;
  while (std::getline(In, Line)) {
    std::smatch M;
    if (!std::regex_match(Line, M, DiagLine) || Known.count(M[1]))
      continue;
    if (M[4] == "error" || std::string(M[7]).rfind("cuda-", 0) == 0)
      Elsewhere.push_back(Line);
  }
  EXPECT_TRUE(Elsewhere.empty()) << Mode << ": diagnostics outside the project's files:\n" << describe(Elsewhere);

  // 3. Warnings only: 0; an error-level finding (a launch that cannot run): 1.
  EXPECT_EQ(R.exitCode, E.anyError ? 1 : 0) << Mode;

  // 4. The summary. The database has 5 CUDA translation units; src/stencil_impl.cu
  //    is one of them only because CMakeLists.txt globs src/*.cu: src/stencil.cu
  //    #includes it, so occlint lints it as part of stencil.cu and not on its
  //    own: 4 files. Each finding is counted once, however many TUs see it.
  static const std::regex Summary(R"((\d+) diagnostics? in (\d+) files?)");
  std::smatch M;
  if (std::regex_search(R.output, M, Summary)) {
    EXPECT_EQ(std::stoul(M[1]), E.findings) << Mode << ": summary '" << M[0] << "'";
    EXPECT_EQ(std::stoul(M[2]), 4u) << Mode << ": summary '" << M[0]
                                    << "' (src/stencil_impl.cu is #included by src/stencil.cu and must not "
                                       "be linted as a translation unit of its own)";
  } else {
    ADD_FAILURE() << Mode << ": no summary line";
  }
  if (::testing::Test::HasFailure())
    std::cout << Mode << ": the output was:\n" << R.output << "\n";
}

TEST_F(BundledProject, EveryTranslationUnitGivesExactlyTheInlineExpectations) {
  expectProjectDiagnostics("occlint -p", lintProject());
}

TEST_F(BundledProject, SourceOnlyModeGivesTheSameDiagnostics) {
  // No toolkit: the built-in CUDA declarations replace its headers; the nvcc
  // commands are translated the same way (the nvcc they name is never run).
  // The launch configurations read the same from either parse, but without
  // ptxas no kernel's register count is known, so the checks that need it
  // stay silent here: the register cliff and the spills, and the tail wave
  // (whole waves depend on how many blocks fit per SM, hence on registers).
  // Their warnings and errors are expected only with the toolkit. Notes are
  // not compared here: they name where the resources came from ("ptxas,
  // sm_90" with the toolkit, what was assumed without it).
  CommandResult R = lintProject("CUDA_PATH=/nonexistent ");
  const std::string Note = "running in source-only mode";
  ASSERT_NE(R.output.find(Note), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find(Note), R.output.rfind(Note)) << "said more than once:\n" << R.output;
  expectProjectDiagnostics(
      "occlint -p (source-only)", R,
      {"cuda-occupancy-register-cliff", "cuda-occupancy-spills", "cuda-launch-tail-wave", NotesMarker});
}

// The inputs themselves: the template names placeholders, not this machine's
// paths, lists every .cu file, and every expectation points at a line that exists.
TEST(BundledProjectInputs, TemplateAndExpectationsAreWellFormed) {
  const std::string Template = readFile(projectDir() / "compile_commands.json.in");
  EXPECT_NE(Template.find("@PROJECT_SOURCE@"), std::string::npos);
  EXPECT_NE(Template.find("@PROJECT_BUILD@"), std::string::npos);
  EXPECT_NE(Template.find("@NVCC@ -forward-unknown-to-host-compiler"), std::string::npos);
  EXPECT_EQ(Template.find("/tmp/"), std::string::npos) << "an unsubstituted build path";
  EXPECT_EQ(Template.find(projectDir().string()), std::string::npos) << "an unsubstituted source path";
  // Every .cu file under src/ is in the database (CMakeLists.txt globs them), main.cu too.
  for (const fs::path &File : projectSources())
    if (File.extension() == ".cu")
      EXPECT_NE(Template.find("\"file\": \"@PROJECT_SOURCE@/" + File.lexically_relative(projectDir()).string() + "\""),
                std::string::npos)
          << File;
  const Expectations E = projectExpectations();
  for (const auto &[File, Expected] : E.byFile) {
    const std::string Source = readFile(File);
    const auto Lines = std::count(Source.begin(), Source.end(), '\n');
    for (const Diagnostic &D : Expected)
      EXPECT_TRUE(D.line >= 1 && D.line <= Lines) << File << ": " << D.str();
  }
  EXPECT_GT(E.findings, 0u);
}

} // namespace
