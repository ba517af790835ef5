// Issue 12: `--fix` must never change what a program computes. The inputs of
// test-inputs/fixes/ go through the built occlint with every way of applying
// fix-its:
//   --fix                       fix-its on warnings (behaviour-preserving only)
//   --fix --fix-notes           also the one fix-it on a warning's notes
//   --export-fixes + clang-apply-replacements-22 (which applies a note's fix
//                               when the warning has none, as --fix-notes)
// unsafe-*.cu must stay byte-identical under all three; safe-*.cu must stay
// identical under --fix alone, become safe-*.cu.expected under the two
// others, and compile with nvcc afterwards. Then a host-side emulation of the
// launches (tests/support/host-emulation: the kernels compiled for the host,
// run for every thread of every block, under AddressSanitizer): issue 12's old
// rewrite (block 128, grid n / 100, unguarded kernel) writes past the end of
// the buffer, and each safe fix computes exactly what the original launch did.
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path Inputs = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "fixes";
const fs::path Emulation = fs::path(OCCLINT_SOURCE_DIR) / "tests" / "support" / "host-emulation";
const fs::path Nvcc = fs::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc";

std::vector<std::string> inputsStartingWith(const std::string &Prefix) {
  std::vector<std::string> Out;
  for (const auto &Entry : fs::directory_iterator(Inputs)) {
    const std::string Name = Entry.path().filename().string();
    if (Entry.path().extension() == ".cu" && Name.rfind(Prefix, 0) == 0)
      Out.push_back(Name);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::string testName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = fs::path(Info.param).stem().string();
  std::replace_if(Name.begin(), Name.end(), [](char C) { return !std::isalnum(C); }, '_');
  return Name;
}

std::string applyReplacementsTool() {
  for (const fs::path &P :
       {fs::path(OCCLINT_CLANG_TIDY).parent_path() / "clang-apply-replacements",
        fs::path("/usr/bin/clang-apply-replacements-22"), fs::path("/usr/lib/llvm-22/bin/clang-apply-replacements")})
    if (access(P.c_str(), X_OK) == 0)
      return P.string();
  return "";
}

// The input's RUN-ARGS (%S: test-inputs/fixes), with --no-compile unless it
// reads a ptxas log: the same findings with or without a toolkit.
std::string runArgs(const std::string &Source) {
  std::string Args = parseRunArgs(Source);
  for (size_t Pos; (Pos = Args.find("%S")) != std::string::npos;)
    Args.replace(Pos, 2, Inputs.string());
  std::string Quoted;
  std::istringstream Words(Args);
  for (std::string W; Words >> W;)
    Quoted += " " + shellQuote(W);
  if (Args.find("--ptxas-log") == std::string::npos)
    Quoted += " --no-compile";
  return Quoted;
}

CommandResult lint(const fs::path &File, const std::string &Args) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " --quiet" + Args + " " + shellQuote(File.string()) + " --");
}

// The diagnostics against the input's inline expectations; clang-tidy's own
// "FIX-IT applied suggested code changes" notes (printed under --fix) aside.
std::string problems(const std::string &Source, const fs::path &File, const CommandResult &R) {
  std::string Output;
  std::istringstream Lines(R.output);
  for (std::string Line; std::getline(Lines, Line);)
    if (Line.find("note: FIX-IT applied suggested code changes") == std::string::npos)
      Output += Line + "\n";
  std::string All;
  for (const std::string &P : compareDiagnostics(parseExpectations(Source), parseClangOutput(Output, File.string())))
    All += "  " + P + "\n";
  return All;
}

enum class Mode { Fix, FixNotes, ExportAndApply };
const Mode AllModes[] = {Mode::Fix, Mode::FixNotes, Mode::ExportAndApply};

const char *modeName(Mode M) {
  switch (M) {
  case Mode::Fix:
    return "--fix";
  case Mode::FixNotes:
    return "--fix --fix-notes";
  case Mode::ExportAndApply:
    return "--export-fixes + clang-apply-replacements";
  }
  return "";
}

// Copies Input into Dir, runs occlint on the copy in mode M, checks that it
// printed the input's inline expectations, and returns the copy's text.
std::string runMode(const std::string &Input, Mode M, const ScratchDir &Dir) {
  const std::string Original = readFile(Inputs / Input);
  const fs::path File = Dir.path() / "src" / Input;
  writeFile(File, Original);
  const std::string Args = runArgs(Original);
  CommandResult R;
  if (M == Mode::ExportAndApply) {
    const fs::path Fixes = Dir.path() / "fixes";
    fs::create_directories(Fixes);
    R = lint(File, Args + " --export-fixes=" + shellQuote((Fixes / "occlint.yaml").string()));
    EXPECT_EQ(readFile(File), Original) << "--export-fixes modified the file";
    const std::string Apply = applyReplacementsTool();
    EXPECT_FALSE(Apply.empty()) << "clang-apply-replacements (Debian: clang-tools-22) not found";
    if (!Apply.empty()) {
      CommandResult Applied = runCommand(shellQuote(Apply) + " " + shellQuote(Fixes.string()));
      EXPECT_EQ(Applied.exitCode, 0) << Applied.output;
    }
  } else {
    R = lint(File, Args + (M == Mode::Fix ? " --fix" : " --fix --fix-notes"));
  }
  EXPECT_LT(R.exitCode, 2) << modeName(M) << ":\n" << R.output;
  const std::string Problems = problems(Original, File, R);
  EXPECT_TRUE(Problems.empty()) << modeName(M) << " on " << Input << ":\n" << Problems << "output was:\n" << R.output;
  return readFile(File);
}

// nvcc compiles the file (device code for sm_80, host code with the host
// compiler): skipped, with a message, without a toolkit.
void expectNvccCompiles(const fs::path &File) {
  if (access(Nvcc.c_str(), X_OK) != 0) {
    std::cout << "[ SKIPPED  ] nvcc not found at " << Nvcc << ": the fixed file is not compiled\n";
    return;
  }
  const fs::path Object = fs::path(File).replace_extension(".o");
  CommandResult R = runCommand(shellQuote(Nvcc.string()) + " -arch=sm_80 -c " + shellQuote(File.string()) + " -o " +
                               shellQuote(Object.string()));
  EXPECT_EQ(R.exitCode, 0) << "nvcc on the fixed " << File.filename() << ":\n" << R.output;
}

class UnsafeInput : public ::testing::TestWithParam<std::string> {};

TEST_P(UnsafeInput, StaysByteIdenticalUnderEveryWayOfApplyingFixes) {
  const std::string Original = readFile(Inputs / GetParam());
  ASSERT_FALSE(Original.empty()) << GetParam();
  for (Mode M : AllModes) {
    ScratchDir Dir;
    EXPECT_EQ(runMode(GetParam(), M, Dir), Original) << modeName(M) << " changed " << GetParam();
    if (M == Mode::ExportAndApply) {
      const std::string Yaml = readFile(Dir.path() / "fixes" / "occlint.yaml");
      EXPECT_EQ(Yaml.find("ReplacementText"), std::string::npos) << "exported a fix for " << GetParam() << ":\n"
                                                                 << Yaml;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixes, UnsafeInput, ::testing::ValuesIn(inputsStartingWith("unsafe-")), testName);

class SafeInput : public ::testing::TestWithParam<std::string> {};

TEST_P(SafeInput, OnlyTheNotesFixApplies) {
  const std::string Original = readFile(Inputs / GetParam());
  const std::string Expected = readFile(Inputs / (GetParam() + ".expected"));
  ASSERT_FALSE(Original.empty()) << GetParam();
  ASSERT_FALSE(Expected.empty()) << GetParam() << ".expected is missing";
  ASSERT_NE(Original, Expected);
  for (Mode M : AllModes) {
    ScratchDir Dir;
    const std::string Fixed = runMode(GetParam(), M, Dir);
    if (M == Mode::Fix) {
      // The fix-it is on a note: --fix alone leaves the file alone.
      EXPECT_EQ(Fixed, Original) << "--fix applied a note's fix-it to " << GetParam();
      continue;
    }
    EXPECT_EQ(Fixed, Expected) << modeName(M) << " on " << GetParam();
    expectNvccCompiles(Dir.path() / "src" / GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Fixes, SafeInput, ::testing::ValuesIn(inputsStartingWith("safe-")), testName);

// ---------------------------------------------------------------------------
// One place edited once: a static kernel launched twice, and parsed for two
// archs, gets one warning per launch and arch, each with the
// __launch_bounds__ note; the insertion is made once (the check keeps the
// fix-it on its first note, occlint drops a later fix-it that edits the same
// place), not once per note.

size_t count(const std::string &Text, const std::string &Part) {
  size_t N = 0;
  for (size_t Pos = Text.find(Part); Pos != std::string::npos; Pos = Text.find(Part, Pos + 1))
    ++N;
  return N;
}

std::string launchedTwice() {
  std::string Source = readFile(Inputs / "safe-cliff-static.cu");
  const std::string Launch = "  accumulate<<<1000, 256>>>(in, out, n);";
  const size_t At = Source.find(Launch);
  EXPECT_NE(At, std::string::npos);
  Source.insert(Source.find('\n', At) + 1, "  accumulate<<<2000, 256>>>(in, out, n);\n");
  return Source;
}

const char Attributed[] = "static __global__ void __launch_bounds__(256, 2) accumulate(const float";

TEST(SafeFixesLaunchBounds, TwoLaunchesAndTwoArchsInsertTheAttributeOnce) {
  const std::string Logs = " --ptxas-log=" + shellQuote((Inputs / "ptxas" / "safe-cliff-static.sm_80.log").string()) +
                           " --ptxas-log=" + shellQuote((Inputs / "ptxas" / "safe-cliff-static.sm_90.log").string());
  for (Mode M : {Mode::FixNotes, Mode::ExportAndApply}) {
    ScratchDir Dir;
    const fs::path File = Dir.path() / "twice.cu";
    writeFile(File, launchedTwice());
    const std::string Args = " --gpu=A100 --gpu=H100 --checks=-*,cuda-occupancy-register-cliff" + Logs;
    CommandResult R;
    if (M == Mode::FixNotes) {
      R = lint(File, Args + " --fix --fix-notes");
    } else {
      fs::create_directories(Dir.path() / "fixes");
      R = lint(File, Args + " --export-fixes=" + shellQuote((Dir.path() / "fixes" / "occlint.yaml").string()));
      CommandResult Applied =
          runCommand(shellQuote(applyReplacementsTool()) + " " + shellQuote((Dir.path() / "fixes").string()));
      EXPECT_EQ(Applied.exitCode, 0) << Applied.output;
    }
    // Four warnings (two launches, two archs), one insertion.
    EXPECT_EQ(count(R.output, "warning: on "), 4u) << R.output;
    const std::string Fixed = readFile(File);
    EXPECT_NE(Fixed.find(Attributed), std::string::npos) << modeName(M) << ":\n" << Fixed;
    EXPECT_EQ(count(Fixed, "__launch_bounds__(256, 2) accumulate("), 1u) << modeName(M) << ":\n" << Fixed;
    EXPECT_EQ(count(Fixed, ") __launch_bounds__("), 0u) << modeName(M) << ":\n" << Fixed;
    expectNvccCompiles(File);
  }
}

TEST(SafeFixesLaunchBounds, ClangTidyFixNotesInsertsTheAttributeOnce) {
  // The same under clang-tidy-22 --load: one parse, the check's own guard.
  ScratchDir Dir;
  const fs::path File = Dir.path() / "twice.cu";
  writeFile(File, launchedTwice());
  const std::string Config = "{CheckOptions: {Targets: 'A100', PtxasLog: '" +
                             (Inputs / "ptxas" / "safe-cliff-static.sm_80.log").string() + "', ReadCache: false}}";
  CommandResult R = runCommand(shellQuote(OCCLINT_CLANG_TIDY) + " --quiet --load=" + shellQuote(OCCLINT_PLUGIN) +
                               " --checks='-*,cuda-occupancy-register-cliff' --config=" + shellQuote(Config) +
                               " --fix-notes " + shellQuote(File.string()) +
                               " -- --cuda-path=" OCCLINT_CUDA_PATH
                               " -Wno-unknown-cuda-version --cuda-device-only --cuda-gpu-arch=sm_80");
  EXPECT_EQ(count(R.output, "warning: on "), 2u) << R.output;
  EXPECT_NE(R.output.find("no fix-it: the note for the launch at line"), std::string::npos) << R.output;
  const std::string Fixed = readFile(File);
  EXPECT_NE(Fixed.find(Attributed), std::string::npos) << R.output << Fixed;
  EXPECT_EQ(count(Fixed, "__launch_bounds__(256, 2) accumulate("), 1u) << Fixed;
}

// ---------------------------------------------------------------------------
// Host-side emulation under AddressSanitizer.

// The source with every `k<<<grid, block>>>(args);` run by the emulation.
std::string emulated(const std::string &Source) {
  static const std::regex Launch(R"((\w+)<<<(.+), ([^,<>]+)>>>\(([^;]*)\);)");
  return std::regex_replace(Source, Launch, "occlintEmulateLaunch(dim3($2), dim3($3), [&] { $1($4); });");
}

struct EmulationRun {
  int exitCode = -1;
  std::string output;
};

// Builds Source with the emulation's cuda_runtime.h and main, with
// AddressSanitizer, and runs it on a buffer of N floats.
EmulationRun emulate(const std::string &Source, int N, const ScratchDir &Dir, const std::string &Name) {
  const fs::path Cpp = Dir.path() / (Name + ".cc");
  writeFile(Cpp, emulated(Source));
  EXPECT_NE(readFile(Cpp).find("occlintEmulateLaunch"), std::string::npos) << "no launch emulated in " << Name;
  const fs::path Program = Dir.path() / Name;
  CommandResult Built =
      runCommand(shellQuote(OCCLINT_HOST_CXX) + " -std=c++17 -g -O0 -fsanitize=address -fno-omit-frame-pointer -I" +
                 shellQuote(Emulation.string()) + " -x c++ " + shellQuote(Cpp.string()) + " " +
                 shellQuote((Emulation / "host_main.cc").string()) + " -o " + shellQuote(Program.string()));
  EXPECT_EQ(Built.exitCode, 0) << "building the emulation of " << Name << ":\n" << Built.output;
  if (Built.exitCode != 0)
    return {};
  CommandResult Ran =
      runCommand("ASAN_OPTIONS=detect_leaks=0 " + shellQuote(Program.string()) + " " + std::to_string(N));
  return {Ran.exitCode, Ran.output};
}

bool asanReported(const EmulationRun &R) { return R.output.find("ERROR: AddressSanitizer") != std::string::npos; }

TEST(SafeFixesEmulation, TheOldRewriteWritesPastTheBufferUnderAddressSanitizer) {
  // The toolchain must be able to catch it at all.
  ScratchDir Dir;
  const std::string Original = readFile(Inputs / "unsafe-block-unguarded.cu");
  ASSERT_NE(Original.find("ramp<<<n / 100, 100>>>(d);"), std::string::npos);
  // As written, with n a multiple of 100: correct, clean.
  const EmulationRun Clean = emulate(Original, 1000, Dir, "original");
  EXPECT_EQ(Clean.exitCode, 0) << Clean.output;
  EXPECT_FALSE(asanReported(Clean)) << Clean.output;
  // What `occlint --fix` did before issue 12: the block rounded up alone.
  std::string OldRewrite = Original;
  OldRewrite.replace(OldRewrite.find("100>>>"), 3, "128");
  ASSERT_NE(OldRewrite.find("ramp<<<n / 100, 128>>>(d);"), std::string::npos);
  const EmulationRun Broken = emulate(OldRewrite, 1000, Dir, "old-rewrite");
  EXPECT_NE(Broken.exitCode, 0) << Broken.output;
  EXPECT_NE(Broken.output.find("ERROR: AddressSanitizer: heap-buffer-overflow"), std::string::npos) << Broken.output;
  EXPECT_NE(Broken.output.find("WRITE of size 4"), std::string::npos) << Broken.output;
  EXPECT_NE(Broken.output.find("ramp"), std::string::npos) << "the report names the kernel:\n" << Broken.output;
}

class SafeBlockInput : public ::testing::TestWithParam<std::string> {};

TEST_P(SafeBlockInput, TheFixedBlockIsAWarpMultiple) {
  ScratchDir Dir;
  const fs::path File = Dir.path() / GetParam();
  writeFile(File, readFile(Inputs / (GetParam() + ".expected")));
  CommandResult R = lint(File, runArgs(readFile(File)));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(R.output.find("warning:"), std::string::npos) << R.output;
}

TEST_P(SafeBlockInput, TheFixedLaunchComputesWhatTheOriginalDid) {
  // The fix as occlint applies it (--fix --fix-notes), not the .expected file.
  ScratchDir Dir;
  const std::string Original = readFile(Inputs / GetParam());
  const std::string Fixed = runMode(GetParam(), Mode::FixNotes, Dir);
  ASSERT_NE(Fixed, Original) << "no fix applied to " << GetParam();
  // n a multiple of 100 (the divide form's contract), and not (the others').
  std::vector<int> Sizes = {1000, 4200};
  if (GetParam().find("divide") == std::string::npos)
    Sizes.insert(Sizes.end(), {1037, 1, 99});
  for (int N : Sizes) {
    const EmulationRun Before = emulate(Original, N, Dir, "original");
    const EmulationRun After = emulate(Fixed, N, Dir, "fixed");
    EXPECT_EQ(Before.exitCode, 0) << "n = " << N << ":\n" << Before.output;
    EXPECT_EQ(After.exitCode, 0) << "n = " << N << ":\n" << After.output;
    EXPECT_FALSE(asanReported(After)) << "n = " << N << ":\n" << After.output;
    EXPECT_EQ(After.output, Before.output) << "the fixed launch computes something else for n = " << N;
    EXPECT_NE(After.output.find("checksum"), std::string::npos) << After.output;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixes, SafeBlockInput, ::testing::ValuesIn(inputsStartingWith("safe-block-")), testName);

} // namespace
