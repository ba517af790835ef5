// occlint with the tools around it (docs/integrations.md):
//  - the pre-commit hook (.pre-commit-hooks.yaml), run by the real `pre-commit`
//    on scratch git repositories;
//  - NOLINT comments (test-inputs/ecosystem/nolint.cu), honoured the same way
//    by occlint and by clang-tidy-22 --load;
//  - fixes: --export-fixes applied by clang-apply-replacements, --fix in
//    place, and a plain run that never touches the user's file.
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

// The first of Names that is an executable file.
std::string firstExecutable(const std::vector<fs::path> &Names) {
  for (const fs::path &P : Names)
    if (!P.empty() && access(P.c_str(), X_OK) == 0)
      return P.string();
  return "";
}

// A command found on PATH, or empty.
std::string onPath(const std::string &Command) {
  CommandResult R = runCommand("command -v " + shellQuote(Command), /*MergeStderr=*/false);
  std::string Out = R.output;
  while (!Out.empty() && (Out.back() == '\n' || Out.back() == '\r'))
    Out.pop_back();
  return R.exitCode == 0 ? Out : "";
}

const fs::path LlvmBin = fs::path(OCCLINT_CLANG_TIDY).parent_path();

bool haveToolkit() { return fs::exists(fs::path(OCCLINT_CUDA_PATH) / "bin" / "ptxas"); }

// ---------------------------------------------------------------------------
// pre-commit

// The environment every pre-commit and git command of a test runs in: its own
// HOME (no user git config, no ~/.cache), its own PRE_COMMIT_HOME, occlint's
// directory first on PATH (the hook is `language: system`, `entry: occlint`).
std::string isolatedEnv(const fs::path &Scratch) {
  const std::string Path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  return "env HOME=" + shellQuote((Scratch / "home").string()) +
         " XDG_CACHE_HOME=" + shellQuote((Scratch / "home" / ".cache").string()) +
         " PRE_COMMIT_HOME=" + shellQuote((Scratch / "pre-commit-home").string()) +
         " GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=occlint GIT_AUTHOR_EMAIL=occlint@example.invalid"
         " GIT_COMMITTER_NAME=occlint GIT_COMMITTER_EMAIL=occlint@example.invalid"
         " PATH=" +
         shellQuote(fs::path(OCCLINT_BINARY).parent_path().string() + ":" + Path) + " ";
}

class EcosystemPreCommit : public ::testing::Test {
protected:
  void SetUp() override {
    PreCommit = onPath("pre-commit");
    if (PreCommit.empty())
      GTEST_SKIP() << "the `pre-commit` command is not on PATH (Debian: apt-get install pre-commit); "
                      "the pre-commit hook is not tested";
    ASSERT_FALSE(onPath("git").empty()) << "git is needed for the pre-commit test";
    ASSERT_FALSE(Scratch.path().empty());
    Env = isolatedEnv(Scratch.path());
    fs::create_directories(Scratch.path() / "home");
    // The hooks repository: this repository's .pre-commit-hooks.yaml, byte
    // for byte, committed in a repository of its own (try-repo reads
    // committed files; this repository's working tree may not be committed).
    Hooks = Scratch.path() / "hooks";
    fs::create_directories(Hooks);
    fs::copy_file(fs::path(OCCLINT_SOURCE_DIR) / ".pre-commit-hooks.yaml", Hooks / ".pre-commit-hooks.yaml");
    ASSERT_EQ(git(Hooks, "init -q").exitCode, 0);
    ASSERT_EQ(git(Hooks, "add .pre-commit-hooks.yaml").exitCode, 0);
    CommandResult Commit = git(Hooks, "commit -q -m hooks");
    ASSERT_EQ(Commit.exitCode, 0) << Commit.output;
    // The user's repository.
    Work = Scratch.path() / "work";
    fs::create_directories(Work);
    ASSERT_EQ(git(Work, "init -q").exitCode, 0);
  }

  CommandResult git(const fs::path &Dir, const std::string &Args) {
    return runCommand("cd " + shellQuote(Dir.string()) + " && " + Env + "git " + Args);
  }
  CommandResult preCommit(const std::string &Args) {
    return runCommand("cd " + shellQuote(Work.string()) + " && " + Env + shellQuote(PreCommit) + " " + Args);
  }
  void stage(const std::string &Name, const std::string &Text) {
    writeFile(Work / Name, Text);
    ASSERT_EQ(git(Work, "add " + shellQuote(Name)).exitCode, 0);
  }

  ScratchDir Scratch;
  std::string PreCommit, Env;
  fs::path Hooks, Work;
};

const char BadLaunch[] = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n"
                         "void launch(float *p) { k<<<2, 100>>>(p); }\n";
const char GoodLaunch[] = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n"
                          "void launch(float *p) { k<<<1, 128>>>(p); }\n";

TEST_F(EcosystemPreCommit, HookFailsOnAFindingAndPassesOnceFixed) {
  stage("bad.cu", BadLaunch);
  CommandResult Bad = preCommit("try-repo --color never " + shellQuote(Hooks.string()) + " occlint --files bad.cu");
  EXPECT_EQ(Bad.exitCode, 1) << Bad.output;
  EXPECT_NE(Bad.output.find("Failed"), std::string::npos) << Bad.output;
  EXPECT_NE(Bad.output.find("- hook id: occlint"), std::string::npos) << Bad.output;
  // The hook's output is occlint's: the warning, made an error by the default args.
  EXPECT_NE(Bad.output.find("bad.cu:2:32: error: block of 100 threads is not a multiple of the warp size"),
            std::string::npos)
      << Bad.output;
  EXPECT_NE(Bad.output.find("[cuda-launch-block-not-warp-multiple,-warnings-as-errors]"), std::string::npos)
      << Bad.output;
  // The hook never modifies the user's file.
  EXPECT_EQ(readFile(Work / "bad.cu"), BadLaunch);

  stage("bad.cu", GoodLaunch);
  CommandResult Good = preCommit("try-repo --color never " + shellQuote(Hooks.string()) + " occlint --files bad.cu");
  EXPECT_EQ(Good.exitCode, 0) << Good.output;
  EXPECT_NE(Good.output.find("Passed"), std::string::npos) << Good.output;
}

// The hook is occlint: an unchanged file's findings come from its result
// cache (docs/result-cache.md), the same findings.
TEST_F(EcosystemPreCommit, AnUnchangedFileComesFromTheResultCache) {
  const fs::path Cache = Scratch.path() / "occlint-cache";
  Env += "OCCLINT_CACHE_DIR=" + shellQuote(Cache.string()) + " ";
  stage("bad.cu", BadLaunch);
  const std::string Hook = "try-repo --color never " + shellQuote(Hooks.string()) + " occlint --files bad.cu";
  CommandResult First = preCommit(Hook);
  EXPECT_EQ(First.exitCode, 1) << First.output;
  // The file's entry, made to look a day old; a hit renews it.
  std::vector<fs::path> Entries;
  for (const fs::directory_entry &E : fs::directory_iterator(Cache / "v1"))
    if (readFile(E.path()).find("occlint-unit-result") != std::string::npos)
      Entries.push_back(E.path());
  ASSERT_EQ(Entries.size(), 1u) << "one result for bad.cu";
  const auto DayAgo = fs::file_time_type::clock::now() - std::chrono::hours(24);
  fs::last_write_time(Entries.front(), DayAgo);
  CommandResult Second = preCommit(Hook);
  EXPECT_EQ(Second.exitCode, 1);
  EXPECT_NE(Second.output.find("bad.cu:2:32: error: block of 100 threads"), std::string::npos) << Second.output;
  EXPECT_GT(fs::last_write_time(Entries.front()), DayAgo + std::chrono::hours(1)) << "the second run was a hit";
}

TEST_F(EcosystemPreCommit, HookLintsHeadersAndSkipsOtherFiles) {
  // A .cuh is parsed as CUDA on its own (the default args' -xcuda).
  stage("launch.cuh", BadLaunch);
  CommandResult Header =
      preCommit("try-repo --color never " + shellQuote(Hooks.string()) + " occlint --files launch.cuh");
  EXPECT_EQ(Header.exitCode, 1) << Header.output;
  EXPECT_NE(Header.output.find("launch.cuh:2:32: error: block of 100 threads"), std::string::npos) << Header.output;
  // A C++ file with the same text is not given to occlint.
  stage("bad.cpp", BadLaunch);
  CommandResult Cpp = preCommit("try-repo --color never " + shellQuote(Hooks.string()) + " occlint --files bad.cpp");
  EXPECT_EQ(Cpp.exitCode, 0) << Cpp.output;
  EXPECT_NE(Cpp.output.find("(no files to check)Skipped"), std::string::npos) << Cpp.output;
}

TEST_F(EcosystemPreCommit, ConfigArgsReplaceTheDefaults) {
  // The documented .pre-commit-config.yaml: the hooks repository at a rev,
  // with args of one's own (here: only the tail-wave check, warnings fail).
  stage("bad.cu", BadLaunch);
  const std::string Rev = git(Hooks, "rev-parse HEAD").output.substr(0, 40);
  const std::string Config = "repos:\n"
                             "  - repo: " +
                             Hooks.string() +
                             "\n"
                             "    rev: " +
                             Rev +
                             "\n"
                             "    hooks:\n"
                             "      - id: occlint\n"
                             "        args: [--quiet, --warnings-as-errors=*, '--checks=-*,cuda-launch-tail-wave']\n";
  writeFile(Work / ".pre-commit-config.yaml", Config);
  ASSERT_EQ(git(Work, "add .pre-commit-config.yaml").exitCode, 0);
  // k<<<2, 100>>>: less than one wave, which tail-wave does not report: passes.
  CommandResult R = preCommit("run --color never --files bad.cu");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("Passed"), std::string::npos) << R.output;
  // Its default args back: fails.
  writeFile(Work / ".pre-commit-config.yaml", Config.substr(0, Config.find("        args:")));
  ASSERT_EQ(git(Work, "add .pre-commit-config.yaml").exitCode, 0);
  R = preCommit("run --color never --files bad.cu");
  EXPECT_EQ(R.exitCode, 1) << R.output;
  EXPECT_NE(R.output.find("block of 100 threads"), std::string::npos) << R.output;
}

// ---------------------------------------------------------------------------
// NOLINT

const fs::path NolintInput = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "ecosystem" / "nolint.cu";
const fs::path SpillsLog =
    fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks" / "ptxas" / "occupancy-spills.sm_90.log";
const char NolintChecks[] = "-*,cuda-launch-*,cuda-occupancy-spills";

CommandResult runOcclint(const fs::path &File, const std::string &Extra = "") {
  return runCommand(shellQuote(OCCLINT_BINARY) + " --quiet --gpu=H100 --checks=" + shellQuote(NolintChecks) +
                    " --ptxas-log=" + shellQuote(SpillsLog.string()) + Extra + " " + shellQuote(File.string()) + " --");
}

CommandResult runClangTidy(const fs::path &File) {
  const std::string Config = "{CheckOptions: {Targets: 'H100', PtxasLog: '" + SpillsLog.string() + "'}}";
  return runCommand(
      shellQuote(OCCLINT_CLANG_TIDY) + " --quiet --load=" + shellQuote(OCCLINT_PLUGIN) +
      " --checks=" + shellQuote(NolintChecks) + " --config=" + shellQuote(Config) + " " + shellQuote(File.string()) +
      " -- --cuda-path=" OCCLINT_CUDA_PATH " -Wno-unknown-cuda-version --cuda-device-only --cuda-gpu-arch=sm_90");
}

std::string problemsOf(const std::string &Source, const fs::path &File, const CommandResult &R) {
  std::string All;
  for (const std::string &P : compareDiagnostics(parseExpectations(Source), parseClangOutput(R.output, File.string())))
    All += "  " + P + "\n";
  return All;
}

// The same input with every NOLINT comment made inert and every
// `silenced-*` marker made an expectation.
std::string withoutNolint(std::string Source) {
  Source = std::regex_replace(Source, std::regex("NOLINT"), "NO_LINT");
  return std::regex_replace(Source, std::regex("silenced-(warning|error|note)"), "expect-$1");
}

TEST(EcosystemNolint, OcclintHonoursNolintComments) {
  CommandResult R = runOcclint(NolintInput);
  EXPECT_EQ(R.exitCode, 1) << R.output; // the one error NOLINT cannot hide
  const std::string Problems = problemsOf(readFile(NolintInput), NolintInput, R);
  EXPECT_TRUE(Problems.empty()) << Problems << "output was:\n" << R.output;
}

TEST(EcosystemNolint, ClangTidyHonoursThemTheSameWay) {
  CommandResult Tidy = runClangTidy(NolintInput);
  const std::string Problems = problemsOf(readFile(NolintInput), NolintInput, Tidy);
  EXPECT_TRUE(Problems.empty()) << Problems << "output was:\n" << Tidy.output;
  // The same diagnostics, message for message, as occlint's.
  std::vector<std::string> A, B;
  for (const Diagnostic &D : parseClangOutput(runOcclint(NolintInput).output, NolintInput.string()))
    A.push_back(D.str());
  for (const Diagnostic &D : parseClangOutput(Tidy.output, NolintInput.string()))
    B.push_back(D.str());
  std::sort(A.begin(), A.end());
  std::sort(B.begin(), B.end());
  EXPECT_EQ(A, B);
}

TEST(EcosystemNolint, EverySilencedFindingIsRealWithoutItsComment) {
  // Without the comments, each silenced-* marker is a diagnostic: the input
  // tests the comments, not launches that would be silent anyway.
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const std::string Source = withoutNolint(readFile(NolintInput));
  ASSERT_NE(Source, readFile(NolintInput));
  const fs::path Copy = Dir.path() / "nolint.cu";
  writeFile(Copy, Source);
  const size_t Silenced = parseExpectations(Source).size() - parseExpectations(readFile(NolintInput)).size();
  EXPECT_GE(Silenced, 12u) << "the NOLINT input lost its silenced findings";
  CommandResult R = runOcclint(Copy);
  std::string Problems = problemsOf(Source, Copy, R);
  EXPECT_TRUE(Problems.empty()) << "occlint:\n" << Problems << "output was:\n" << R.output;
  CommandResult Tidy = runClangTidy(Copy);
  Problems = problemsOf(Source, Copy, Tidy);
  EXPECT_TRUE(Problems.empty()) << "clang-tidy:\n" << Problems << "output was:\n" << Tidy.output;
}

TEST(EcosystemNolint, SilencedWarningsDoNotCountAsErrors) {
  // --warnings-as-errors: only what is still reported can fail the run.
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path File = Dir.path() / "quiet.cu";
  writeFile(File, "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n"
                  "void launch(float *p) {\n"
                  "  k<<<264, 100>>>(p); // NOLINT(cuda-launch-block-not-warp-multiple)\n"
                  "}\n");
  CommandResult R = runOcclint(File, " --warnings-as-errors='*'");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(R.output.find("warning"), std::string::npos) << R.output;
  writeFile(File, withoutNolint(readFile(File)));
  R = runOcclint(File, " --warnings-as-errors='*'");
  EXPECT_EQ(R.exitCode, 1) << R.output;
}

// ---------------------------------------------------------------------------
// Fixes

// Issue 12: the block-size fix-it is on a note, and only where the change is
// proven safe: a kernel that guards its accesses, a grid computed from the
// block. The fix rewrites both.
const char FixInput[] = "__global__ void k(float *p, int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n)\n"
                        "    p[i] = 1.0f;\n"
                        "}\n"
                        "void launch(float *p, int n) {\n"
                        "  k<<<(n + 99) / 100, 100>>>(p, n);\n"
                        "}\n";

std::string fixedInput() {
  std::string Fixed = FixInput;
  Fixed.replace(Fixed.find("(n + 99) / 100, 100"), std::string("(n + 99) / 100, 100").size(), "(n + 127) / 128, 128");
  return Fixed;
}

CommandResult lint(const fs::path &File, const std::string &Extra = "") {
  return runCommand(shellQuote(OCCLINT_BINARY) + " --quiet --no-compile" + Extra + " " + shellQuote(File.string()) +
                    " --");
}

// The fixed file parses as CUDA: with the toolkit's headers when there is
// one, else with occlint's built-in CUDA declarations (tool/builtin-cuda).
void expectCompiles(const fs::path &File) {
  const std::string Clang = firstExecutable({LlvmBin / "clang++", "/usr/bin/clang++-22"});
  ASSERT_FALSE(Clang.empty()) << "clang++ (clang-22) not found in " << LlvmBin;
  const std::string Headers =
      haveToolkit() ? std::string(" --cuda-path=" OCCLINT_CUDA_PATH)
                    : " -nocudainc -nocudalib -I" + shellQuote(std::string(OCCLINT_SOURCE_DIR) + "/tool/builtin-cuda");
  CommandResult R = runCommand(shellQuote(Clang) + " -fsyntax-only --cuda-device-only --cuda-gpu-arch=sm_90" + Headers +
                               " -Wno-unknown-cuda-version -x cuda " + shellQuote(File.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
}

TEST(EcosystemFixes, ExportedFixesApplyWithClangApplyReplacements) {
  const std::string Apply =
      firstExecutable({LlvmBin / "clang-apply-replacements", "/usr/bin/clang-apply-replacements-22",
                       "/usr/lib/llvm-22/bin/clang-apply-replacements"});
  ASSERT_FALSE(Apply.empty()) << "clang-apply-replacements (Debian: clang-tools-22) not found";
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path File = Dir.path() / "launch.cu";
  const fs::path Fixes = Dir.path() / "fixes";
  fs::create_directories(Fixes);
  writeFile(File, FixInput);

  CommandResult R = lint(File, " --export-fixes=" + shellQuote((Fixes / "launch.yaml").string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("block of 100 threads"), std::string::npos) << R.output;
  EXPECT_EQ(readFile(File), FixInput) << "exporting fixes modified the file";
  const std::string Yaml = readFile(Fixes / "launch.yaml");
  EXPECT_NE(Yaml.find("DiagnosticName:  cuda-launch-block-not-warp-multiple"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("ReplacementText: '128'"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("ReplacementText: '(n + 127) / 128'"), std::string::npos) << Yaml;

  // clang-apply-replacements applies a note's fix when the warning has none.
  CommandResult Applied = runCommand(shellQuote(Apply) + " " + shellQuote(Fixes.string()));
  EXPECT_EQ(Applied.exitCode, 0) << Applied.output;
  EXPECT_EQ(readFile(File), fixedInput());
  expectCompiles(File);
  R = lint(File);
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(R.output.find("warning"), std::string::npos) << R.output;
}

TEST(EcosystemFixes, FixAppliesInPlace) {
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path File = Dir.path() / "launch.cu";
  writeFile(File, FixInput);
  // The fix-it is on a note (issue 12): --fix alone leaves the file alone,
  // --fix-notes applies it.
  CommandResult R = lint(File, " --fix");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(readFile(File), FixInput) << R.output;
  R = lint(File, " --fix --fix-notes");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(readFile(File), fixedInput()) << R.output;
  expectCompiles(File);
  R = lint(File);
  EXPECT_EQ(R.output.find("warning"), std::string::npos) << R.output;
}

TEST(EcosystemFixes, WithoutFixTheFileIsUntouched) {
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path File = Dir.path() / "launch.cu";
  writeFile(File, FixInput);
  const auto Before = fs::last_write_time(File);
  // A run that reports the fixable finding, as a warning and as an error.
  for (const std::string &Extra : {std::string(""), std::string(" --warnings-as-errors='*'")}) {
    CommandResult R = lint(File, Extra);
    EXPECT_NE(R.output.find("block of 100 threads"), std::string::npos) << R.output;
    EXPECT_EQ(readFile(File), FixInput);
    EXPECT_EQ(fs::last_write_time(File), Before);
  }
  // Nothing else appeared next to it either.
  EXPECT_EQ(std::distance(fs::directory_iterator(Dir.path()), fs::directory_iterator()), 1);
}

} // namespace

// The register cliff's note carries a __launch_bounds__ fix-it: an
// alternative (it may make ptxas spill, and it makes larger launches fail),
// so as clang-tidy does with fixes on notes it is applied with --fix-notes
// only, never by --fix alone; and only for a kernel no other file can launch
// (issue 12: test-inputs/fixes/safe-cliff-static.cu, a static kernel).
TEST(EcosystemFixes, LaunchBoundsSuggestionIsANoteFixAppliedWithFixNotes) {
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path Input = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "fixes" / "safe-cliff-static.cu";
  const fs::path File = Dir.path() / "cliff.cu";
  const std::string Original = readFile(Input);
  writeFile(File, Original);
  const std::string Args = " --gpu=A100 --checks=-*,cuda-occupancy-register-cliff --ptxas-log=" +
                           shellQuote((Input.parent_path() / "ptxas" / "safe-cliff-static.sm_80.log").string());
  // The log names the kernels by mangled name, so the copy's findings are the same.
  CommandResult Plain = lint(File, Args + " --fix");
  EXPECT_NE(Plain.output.find("'accumulate' uses 134 registers"), std::string::npos) << Plain.output;
  EXPECT_EQ(readFile(File), Original) << "--fix applied a note's fix";

  CommandResult Notes = lint(File, Args + " --fix --fix-notes");
  const std::string Fixed = readFile(File);
  EXPECT_NE(Fixed.find("static __global__ void __launch_bounds__(256, 2) accumulate(const float"), std::string::npos)
      << Notes.output;
  std::string Expected = Original;
  Expected.replace(Expected.find("static __global__ void accumulate("), std::string("static __global__ void ").size(),
                   "static __global__ void __launch_bounds__(256, 2) ");
  EXPECT_EQ(Fixed, Expected);
  expectCompiles(File);
}

// The same suggestion on kernels with external linkage (another file may
// launch them with more threads) and on a template: no fix-it, even with
// --fix-notes (issue 12).
TEST(EcosystemFixes, LaunchBoundsSuggestionIsNotAppliedToExternalKernelsOrTemplates) {
  ScratchDir Dir;
  ASSERT_FALSE(Dir.path().empty());
  const fs::path Input = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks" / "occupancy-register-cliff.cu";
  const fs::path File = Dir.path() / "cliff.cu";
  const std::string Original = readFile(Input);
  writeFile(File, Original);
  const std::string Args = " --gpu=A100 --checks=-*,cuda-occupancy-register-cliff --ptxas-log=" +
                           shellQuote((Input.parent_path() / "ptxas" / "occupancy-register-cliff.sm_80.log").string());
  CommandResult Notes = lint(File, Args + " --fix --fix-notes");
  EXPECT_NE(Notes.output.find("'accumulate124' uses 134 registers"), std::string::npos) << Notes.output;
  EXPECT_NE(Notes.output.find("no fix-it: 'accumulate124' has external linkage"), std::string::npos) << Notes.output;
  EXPECT_EQ(readFile(File), Original);
}
