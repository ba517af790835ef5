// The lint command's clang-tidy-style options that are not about the checks:
// --jobs, --color, --line-filter, --dump-config, --fix-errors, --format and
// --output validation, --extra-arg with -p alone, the progress line, and
// bad values of the checks' options.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path SourceDir = OCCLINT_SOURCE_DIR;
const fs::path ChecksDir = SourceDir / "test-inputs" / "checks";

// occlint with `Args`, source-only resources (no nvcc), stdout only or merged.
CommandResult runOcclint(const std::string &Args, bool MergeStderr = false) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " --no-compile " + Args, MergeStderr);
}

std::string inputs(std::initializer_list<const char *> Names) {
  std::string Out;
  for (const char *Name : Names)
    Out += shellQuote((ChecksDir / Name).string()) + " ";
  return Out;
}

// Lines of `Text` holding "warning:" or "error:" (clang's diagnostic lines).
std::vector<std::string> diagnosticLines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);)
    if (Line.find(": warning: ") != std::string::npos || Line.find(": error: ") != std::string::npos)
      Lines.push_back(Line);
  return Lines;
}

} // namespace

TEST(LintOptions, JobsGiveTheSameOutputAsOneJob) {
  const std::string Files = inputs({"launch-tiny-grid.cu", "launch-tail-wave.cu", "occupancy-block-cap.cu",
                                    "divergence-branch.cu", "launch-block-not-warp-multiple.cu"});
  CommandResult One = runOcclint("-j 1 " + Files + "-- -x cuda");
  CommandResult Three = runOcclint("-j3 " + Files + "-- -x cuda");
  CommandResult Long = runOcclint("--jobs=4 " + Files + "-- -x cuda");
  EXPECT_EQ(One.exitCode, Three.exitCode);
  EXPECT_GT(diagnosticLines(One.output).size(), 5u) << One.output;
  EXPECT_EQ(One.output, Three.output);
  EXPECT_EQ(One.output, Long.output);
}

TEST(LintOptions, ColorAlwaysAndNever) {
  const std::string File = inputs({"launch-tiny-grid.cu"});
  CommandResult Always = runOcclint("--color=always " + File + "-- -x cuda");
  CommandResult Never = runOcclint("--color never " + File + "-- -x cuda");
  // Output to a pipe: auto means no colours, like clang-tidy.
  CommandResult Auto = runOcclint(File + "-- -x cuda");
  EXPECT_NE(Always.output.find("\x1b["), std::string::npos) << Always.output;
  EXPECT_EQ(Never.output.find("\x1b["), std::string::npos) << Never.output;
  EXPECT_EQ(Auto.output.find("\x1b["), std::string::npos) << Auto.output;
  EXPECT_EQ(diagnosticLines(Never.output), diagnosticLines(Auto.output));
  // clang-tidy's spelling.
  CommandResult UseColor = runOcclint("--use-color " + File + "-- -x cuda");
  EXPECT_NE(UseColor.output.find("\x1b["), std::string::npos) << UseColor.output;
  CommandResult NoUseColor = runOcclint("--use-color=false " + File + "-- -x cuda");
  EXPECT_EQ(NoUseColor.output.find("\x1b["), std::string::npos) << NoUseColor.output;
  CommandResult Bad = runOcclint("--color=sometimes " + File + "-- -x cuda", true);
  EXPECT_EQ(Bad.exitCode, 2);
  EXPECT_NE(Bad.output.find("--color: unknown value 'sometimes' (auto, always or never)"), std::string::npos)
      << Bad.output;
}

TEST(LintOptions, LineFilterKeepsOnlyTheNamedLines) {
  const std::string File = inputs({"launch-tiny-grid.cu"});
  CommandResult All = runOcclint(File + "-- -x cuda");
  ASSERT_GT(diagnosticLines(All.output).size(), 1u) << All.output;
  const std::string Filter = R"([{"name":"launch-tiny-grid.cu","lines":[[62,62]]}])";
  CommandResult Filtered = runOcclint("--line-filter=" + shellQuote(Filter) + " " + File + "-- -x cuda");
  std::vector<std::string> Lines = diagnosticLines(Filtered.output);
  ASSERT_EQ(Lines.size(), 1u) << Filtered.output;
  EXPECT_NE(Lines[0].find("launch-tiny-grid.cu:62:"), std::string::npos) << Lines[0];

  CommandResult Bad = runOcclint("--line-filter='[{name' " + File + "-- -x cuda", true);
  EXPECT_EQ(Bad.exitCode, 2);
  EXPECT_NE(Bad.output.find("--line-filter: invalid JSON"), std::string::npos) << Bad.output;
}

TEST(LintOptions, DumpConfigShowsCheckOptionsAndReadsBack) {
  CommandResult Dump = runOcclint("--dump-config --gpu H100");
  ASSERT_EQ(Dump.exitCode, 0) << Dump.output;
  EXPECT_NE(Dump.output.find("Checks:          '-*,cuda-*,-cuda-occupancy-report,-cuda-divergence-data-branch'"),
            std::string::npos)
      << Dump.output;
  EXPECT_NE(Dump.output.find("cuda-occupancy-register-cliff.Margin: '8'"), std::string::npos) << Dump.output;
  EXPECT_NE(Dump.output.find("cuda-launch-tail-wave.ThresholdPercent: '10'"), std::string::npos) << Dump.output;
  EXPECT_NE(Dump.output.find("Targets:         H100"), std::string::npos) << Dump.output;
  // Without --gpu no empty per-check Targets is dumped: copied into a
  // .clang-tidy it would hide a global Targets.
  CommandResult Plain = runOcclint("--dump-config");
  EXPECT_EQ(Plain.output.find(".Targets:"), std::string::npos) << Plain.output;

  // The dump is a configuration occlint reads back: the same options. (The
  // Checks line grows, as clang-tidy's does: a configuration's Checks are
  // appended to the defaults.)
  ScratchDir Dir;
  writeFile(Dir.path() / "dumped.yaml", Dump.output);
  CommandResult Again = runOcclint("--dump-config --config-file=" + shellQuote((Dir.path() / "dumped.yaml").string()));
  EXPECT_EQ(Again.exitCode, 0) << Again.output;
  auto OptionsPart = [](const std::string &Dumped) { return Dumped.substr(Dumped.find("CheckOptions:")); };
  EXPECT_EQ(OptionsPart(Again.output), OptionsPart(Dump.output));
}

TEST(LintOptions, FixErrorsAppliesFixesDespiteCompilerErrors) {
  ScratchDir Dir;
  const fs::path File = Dir.path() / "broken.cu";
  // A launch whose block-size fix-it is safe, on the warning's note (issue 12).
  const std::string Source = "__global__ void k(float *p, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) p[i] = 0;\n"
                             "}\n"
                             "void run(float *p, int n) { k<<<(n + 99) / 100, 100>>>(p, n); }\n"
                             "int broken() { return undeclared_name; }\n";
  writeFile(File, Source);
  const std::string Checks = "--checks=-*,cuda-launch-block-not-warp-multiple ";
  CommandResult Fix = runOcclint(Checks + "--fix --fix-notes " + shellQuote(File.string()) + " -- -x cuda", true);
  EXPECT_EQ(Fix.exitCode, 2) << Fix.output; // the compiler error
  EXPECT_NE(Fix.output.find("fixes not applied: the code has compiler errors"), std::string::npos) << Fix.output;
  EXPECT_EQ(readFile(File), Source);
  CommandResult FixErrors =
      runOcclint(Checks + "--fix-errors --fix-notes " + shellQuote(File.string()) + " -- -x cuda", true);
  EXPECT_EQ(FixErrors.exitCode, 2) << FixErrors.output;
  EXPECT_NE(readFile(File).find("k<<<(n + 127) / 128, 128>>>(p, n)"), std::string::npos) << readFile(File);
}

// clang-tidy's convention: --fix-notes "implicitly enables --fix" (issue 44
// item 3). The same launch as above, without the compiler error.
TEST(LintOptions, FixNotesAloneAppliesTheNotesFixes) {
  ScratchDir Dir;
  const fs::path File = Dir.path() / "launch.cu";
  const std::string Source = "__global__ void k(float *p, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) p[i] = 0;\n"
                             "}\n"
                             "void run(float *p, int n) { k<<<(n + 99) / 100, 100>>>(p, n); }\n";
  writeFile(File, Source);
  const std::string Checks = "--checks=-*,cuda-launch-block-not-warp-multiple ";
  CommandResult Listed = runOcclint(Checks + shellQuote(File.string()) + " -- -x cuda", true);
  EXPECT_EQ(readFile(File), Source) << "without a fix option nothing is written";
  CommandResult Notes = runOcclint(Checks + "--fix-notes " + shellQuote(File.string()) + " -- -x cuda", true);
  EXPECT_EQ(Notes.exitCode, 0) << Notes.output;
  EXPECT_NE(readFile(File).find("k<<<(n + 127) / 128, 128>>>(p, n)"), std::string::npos) << readFile(File);
}

TEST(LintOptions, BadFormatAndOutputCombinationsAreUsageErrors) {
  const std::string File = inputs({"launch-tiny-grid.cu"});
  CommandResult Format = runOcclint("--format=xml " + File + "-- -x cuda", true);
  EXPECT_EQ(Format.exitCode, 2);
  EXPECT_NE(Format.output.find("--format: unknown format 'xml' (text, json or sarif)"), std::string::npos)
      << Format.output;
  CommandResult TextToFile = runOcclint("--output=out.txt " + File + "-- -x cuda", true);
  EXPECT_EQ(TextToFile.exitCode, 2);
  EXPECT_NE(TextToFile.output.find("--output: only with --format=json or --format=sarif"), std::string::npos);
  CommandResult FixJson = runOcclint("--fix --format=json " + File + "-- -x cuda", true);
  EXPECT_EQ(FixJson.exitCode, 2);
  EXPECT_NE(FixJson.output.find("--fix/--fix-errors: only with --format=text"), std::string::npos);
}

// With -p and no files occlint loads the database itself; --extra-arg and
// --extra-arg-before must still reach every command.
TEST(LintOptions, ExtraArgsApplyToAProjectDatabase) {
  ScratchDir Dir;
  writeFile(Dir.path() / "k.cu", "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n"
                                 "void run(float *p) { k<<<1024, BLOCK>>>(p); }\n");
  writeFile(Dir.path() / "compile_commands.json",
            "[{\"directory\": \"" + Dir.path().string() +
                "\", \"file\": \"k.cu\", "
                "\"arguments\": [\"clang++\", \"-x\", \"cuda\", \"-c\", \"k.cu\"]}]");
  const std::string Args = "--checks=-*,cuda-launch-block-not-warp-multiple -p " + shellQuote(Dir.path().string());
  CommandResult Hundred = runOcclint(Args + " --extra-arg=-DBLOCK=100");
  EXPECT_NE(Hundred.output.find("block of 100 threads"), std::string::npos) << Hundred.output;
  CommandResult Before = runOcclint(Args + " --extra-arg-before=-DBLOCK=97");
  EXPECT_NE(Before.output.find("block of 97 threads"), std::string::npos) << Before.output;
}

// The progress line: on a terminal only (`script` gives the run one), after a
// second, erased at the end; never in a pipe.
TEST(LintOptions, ProgressLineOnATerminalOnly) {
  ASSERT_EQ(access("/usr/bin/script", X_OK), 0) << "needs util-linux's script";
  std::string Files;
  for (const char *Name : {"divergence-classics.cu", "divergence-branch.cu", "seed-examples.cu",
                           "launch-invalid-config.cu", "occupancy-spills.cu", "launch-tail-wave.cu"})
    Files += (ChecksDir / Name).string() + " ";
  // One job, so the run takes several seconds (each file parses CUDA headers;
  // none comes from the result cache, which an earlier test may have filled).
  const std::string Command =
      std::string(OCCLINT_BINARY) + " --no-compile --no-result-cache -j1 " + Files + "-- -x cuda";
  CommandResult OnTerminal = runCommand("TERM=xterm script -qec " + shellQuote(Command) + " /dev/null");
  EXPECT_NE(OnTerminal.output.find("files done]"), std::string::npos) << OnTerminal.output;
  EXPECT_NE(OnTerminal.output.find("\r\x1b[K"), std::string::npos); // erased before the findings
  CommandResult InPipe = runCommand(Command, /*MergeStderr=*/true);
  EXPECT_EQ(InPipe.output.find("files done]"), std::string::npos) << InPipe.output;
  const std::string QuietCommand =
      std::string(OCCLINT_BINARY) + " --quiet --no-compile --no-result-cache -j1 " + Files + "-- -x cuda";
  CommandResult Quiet = runCommand("TERM=xterm script -qec " + shellQuote(QuietCommand) + " /dev/null");
  EXPECT_EQ(Quiet.output.find("files done]"), std::string::npos);
}

// A bad value for one of the checks' options: an error naming the option, the
// value and where it was set; exit 2 before anything is analysed.
TEST(LintOptions, BadCheckOptionValueNamesTheOptionAndTheFile) {
  ScratchDir Dir;
  writeFile(Dir.path() / ".clang-tidy", "CheckOptions:\n  cuda-launch-tiny-grid.IgnoreSingleBlock: maybe\n");
  writeFile(Dir.path() / "k.cu", "__global__ void k() {}\nvoid run() { k<<<1, 32>>>(); }\n");
  CommandResult R = runOcclint(shellQuote((Dir.path() / "k.cu").string()) + " -- -x cuda", true);
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("invalid value 'maybe' for option 'cuda-launch-tiny-grid.IgnoreSingleBlock' in " +
                          (Dir.path() / ".clang-tidy").string() + ": expected true or false"),
            std::string::npos)
      << R.output;
  writeFile(Dir.path() / ".clang-tidy", "CheckOptions:\n  cuda-occupancy-register-cliff.Margin: lots\n");
  R = runOcclint(shellQuote((Dir.path() / "k.cu").string()) + " -- -x cuda", true);
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("invalid value 'lots' for option 'cuda-occupancy-register-cliff.Margin' in " +
                          (Dir.path() / ".clang-tidy").string() + ": expected an integer"),
            std::string::npos)
      << R.output;
  // The same through --config: named as the command line's.
  R = runOcclint("--config='{CheckOptions: {ReadCache: perhaps}}' " + shellQuote((Dir.path() / "k.cu").string()) +
                     " -- -x cuda",
                 true);
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("invalid value 'perhaps' for option 'ReadCache'"), std::string::npos) << R.output;
}

// --quiet: nothing on stderr for a clean file, also when it is parsed for two
// archs (each arch's parse is run on its own, so clang's tooling never prints
// its "[1/1] (1/2) Processing file" lines).
TEST(LintOptions, QuietPrintsNothingOnStderrForTwoArchs) {
  const std::string File = (ChecksDir / "launch-tiny-grid.cu").string();
  CommandResult Stderr = runCommand(shellQuote(OCCLINT_BINARY) + " --quiet --no-compile --gpu A100 --gpu H100 " +
                                        shellQuote(File) + " -- -x cuda 2>&1 >/dev/null",
                                    /*MergeStderr=*/false);
  EXPECT_EQ(Stderr.output, "");
  CommandResult Stdout = runOcclint("--quiet --gpu A100 --gpu H100 " + shellQuote(File) + " -- -x cuda");
  EXPECT_NE(Stdout.output.find("on A100"), std::string::npos) << Stdout.output;
  EXPECT_NE(Stdout.output.find("on H100"), std::string::npos) << Stdout.output;
}

// The significance options (issue 15): each default silences a line of the
// check's test input that the option's other value reports, so each test can
// fail.
// Threads that left the kernel (an early return, a loop exit or break with
// only the kernel's end after it) miss no barrier, __syncwarp or vote by
// default (the PTX ISA, the guide); ReportExitedThreads counts them again.
// A shuffle reading an exited lane is reported either way. (Findings of
// either severity: a miss at a boundary, `if (i >= n) return;`, is a warning.)
TEST(LintOptions, ReportExitedThreadsCountsThreadsThatLeftTheKernel) {
  auto Errors = [](const std::string &Checks, const std::string &Config, const char *Input) {
    CommandResult R =
        runOcclint("--quiet --gpu=H100 --no-compile --checks=" + Checks + " " + Config + " " + inputs({Input}) + "--");
    size_t N = 0;
    for (const std::string &Line : diagnosticLines(R.output))
      N += Line.find(": error: ") != std::string::npos || Line.find(": warning: ") != std::string::npos;
    return N;
  };
  const std::string Barrier = "-*,cuda-divergence-barrier";
  const std::string On = "--config='{CheckOptions: {cuda-divergence-barrier.ReportExitedThreads: true, "
                         "cuda-divergence-warp-sync-mask.ReportExitedThreads: true}}'";
  const size_t Default = Errors(Barrier, "", "divergence-barrier.cu");
  // afterEarlyReturn, loopExitLeavesTheKernel, breakLeavesTheKernel.
  EXPECT_EQ(Errors(Barrier, On, "divergence-barrier.cu"), Default + 3);
  EXPECT_EQ(Errors(Barrier, On, "divergence-classics.cu"), Errors(Barrier, "", "divergence-classics.cu") + 1);
  const std::string Mask = "-*,cuda-divergence-warp-sync-mask";
  // syncwarpAfterOddReturn's full-mask __syncwarp; the shuffle after the same return counts either way.
  EXPECT_EQ(Errors(Mask, On, "divergence-warp-sync-mask.cu"), Errors(Mask, "", "divergence-warp-sync-mask.cu") + 1);
}

TEST(LintOptions, SignificanceOptionsSilenceWhatTheirDefaultsCallMoot) {
  auto Count = [](const std::string &Args, const char *Input, const std::string &Needle) {
    CommandResult R = runOcclint("--quiet " + Args + " " + inputs({Input}) + "--");
    size_t N = 0;
    for (const std::string &Line : diagnosticLines(R.output))
      N += Line.find(Needle) != std::string::npos;
    return N;
  };
  const std::string Cliff = "--gpu=A100 --checks=-*,cuda-occupancy-register-cliff --ptxas-log=" +
                            shellQuote((ChecksDir / "ptxas" / "occupancy-register-cliff.sm_80.log").string());
  EXPECT_EQ(Count(Cliff, "occupancy-register-cliff.cu", "'accumulate<52>'"), 0u);
  EXPECT_EQ(Count(Cliff + " --config='{CheckOptions: {cuda-occupancy-register-cliff.MinGainPercent: 0}}'",
                  "occupancy-register-cliff.cu", "'accumulate<52>' uses 59 registers"),
            1u);

  const std::string Tiny = "--gpu=H200 --checks=-*,cuda-launch-tiny-grid";
  EXPECT_EQ(Count(Tiny, "launch-tiny-grid.cu", "grid of 128 blocks"), 0u);
  EXPECT_EQ(Count(Tiny + " --config='{CheckOptions: {cuda-launch-tiny-grid.MinIdlePercent: 0}}'", "launch-tiny-grid.cu",
                  "grid of 128 blocks"),
            1u);

  // IgnoreSingleBlock is global: one setting brings every check's one-block findings back.
  const std::string Block = "--gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple";
  EXPECT_EQ(Count(Block, "launch-block-not-warp-multiple.cu", "block of 1 thread "), 1u); // <<<10, 1>>> only
  EXPECT_EQ(Count(Block + " --config='{CheckOptions: {IgnoreSingleBlock: false}}'", "launch-block-not-warp-multiple.cu",
                  "block of 1 thread "),
            2u); // and <<<1, 1>>>
  EXPECT_EQ(
      Count(Tiny + " --config='{CheckOptions: {IgnoreSingleBlock: false}}'", "launch-tiny-grid.cu", "grid of 1 block "),
      1u);
}
