// What occlint does when the analysis of one file goes wrong
// (lint/IsolatedAnalysis.h, docs/crash-isolation.md): a crash or a memory
// blow-up costs that file only, with an occlint-internal-error diagnostic
// and exit code 3; a compiler that never returns is killed at
// --compile-timeout; a reader that closes stdout early is not a crash.
#include "CommandRunner.h"
#include "FakeToolkit.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const std::string Good = "__global__ void k(float *p) { p[threadIdx.x] = 1; }\n"
                         "void launch(float *p) { k<<<2, 100>>>(p); }\n";
// Clang's own way to crash its parser on purpose: a real SIGILL/SIGSEGV in
// the process that analyses the file, with no test hook in occlint.
const std::string Crashing = "__global__ void c(float *p) { p[threadIdx.x] = 2; }\n#pragma clang __debug crash\n";

std::string occlint(const ScratchDir &Dir, const std::string &Args) {
  return "OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " + shellQuote(OCCLINT_BINARY) +
         " --no-compile --gpu H100 " + Args;
}

TEST(CrashIsolation, ACrashCostsOnlyItsFileAndExitsThree) {
  ScratchDir Dir;
  const std::string A = Dir.write("a.cu", Good), B = Dir.write("b.cu", Crashing), C = Dir.write("c.cu", Good);
  for (const char *Jobs : {"1", "2"}) {
    CommandResult R = runCommand(occlint(Dir, std::string("--jobs ") + Jobs + " " + shellQuote(A) + " " +
                                                  shellQuote(B) + " " + shellQuote(C) + " --"));
    EXPECT_EQ(R.exitCode, 3) << R.output;
    // The other files: analysed and printed as usual.
    EXPECT_NE(R.output.find("a.cu:2:32: warning: block of 100 threads"), std::string::npos) << R.output;
    EXPECT_NE(R.output.find("c.cu:2:32: warning: block of 100 threads"), std::string::npos) << R.output;
    // The crashed one: one clear diagnostic, no stack dump on the terminal.
    EXPECT_NE(R.output.find("b.cu:1:1: error: occlint crashed"), std::string::npos) << R.output;
    EXPECT_NE(R.output.find("please report it"), std::string::npos);
    EXPECT_NE(R.output.find("[occlint-internal-error]"), std::string::npos);
    EXPECT_EQ(R.output.find("Stack dump"), std::string::npos) << R.output;
  }
  // The stack dump is kept for the report, in the cache's crashes/.
  ASSERT_TRUE(fs::is_directory(Dir.path() / "cache" / "crashes"));
  const auto Logs = fs::directory_iterator(Dir.path() / "cache" / "crashes");
  ASSERT_NE(fs::begin(Logs), fs::end(Logs));
  const std::string Log = readFile(fs::begin(Logs)->path());
  EXPECT_NE(Log.find("file: " + B), std::string::npos) << Log;
  EXPECT_NE(Log.find("Stack dump"), std::string::npos) << Log;
}

TEST(CrashIsolation, JsonOutputStaysWholeAndNamesTheCrash) {
  ScratchDir Dir;
  const std::string A = Dir.write("a.cu", Good), B = Dir.write("b.cu", Crashing);
  CommandResult R = runCommand(occlint(Dir, "--format=json " + shellQuote(A) + " " + shellQuote(B) + " --"),
                               /*MergeStderr=*/false);
  EXPECT_EQ(R.exitCode, 3);
  nlohmann::json J = nlohmann::json::parse(R.output); // throws on partial output
  std::string Text = J.dump();
  EXPECT_NE(Text.find("occlint-internal-error"), std::string::npos);
  EXPECT_NE(Text.find("cuda-launch-block-not-warp-multiple"), std::string::npos);
}

TEST(CrashIsolation, MemoryLimitStopsTheFileNotTheRun) {
  ScratchDir Dir;
  const std::string A = Dir.write("a.cu", Good);
  // 64 MB: less than Clang and LLVM need resident for any parse.
  CommandResult R = runCommand(occlint(Dir, "--max-memory 64 " + shellQuote(A) + " --"));
  EXPECT_EQ(R.exitCode, 3) << R.output;
  EXPECT_NE(R.output.find("a.cu:1:1: error: occlint stopped analysing this file: it used more than 64 MB of memory "
                          "(--max-memory)"),
            std::string::npos)
      << R.output;
  // Out of range: a usage error.
  R = runCommand(occlint(Dir, "--max-memory 1 " + shellQuote(A) + " --"));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("--max-memory: 1 is not in [64, 1048576] MB"), std::string::npos) << R.output;
}

TEST(CrashIsolation, AHangingCompilerIsKilledAtTheTimeoutWithItsChildren) {
  ScratchDir Dir;
  // A toolkit whose nvcc never finishes a compile; it starts a child of its
  // own, which must die with it.
  const std::string Marker = "987654";
  const std::string Cuda = writeFakeToolkit(Dir, "sleep " + Marker + " &\nwait\n");
  const std::string A = Dir.write("a.cu", Good);
  CommandResult R =
      runCommand("OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " + shellQuote(OCCLINT_BINARY) +
                 " --gpu H100 --cuda-path " + shellQuote(Cuda) + " --compile-timeout 2 " + shellQuote(A) + " --");
  EXPECT_NE(R.output.find("nvcc did not finish within 2 s"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("--compile-timeout"), std::string::npos) << R.output;
  // Checked on, with estimated resources: the finding is there.
  EXPECT_NE(R.output.find("block of 100 threads"), std::string::npos) << R.output;
  EXPECT_TRUE(R.exitCode == 0 || R.exitCode == 1 || R.exitCode == 2) << R.exitCode;
  EXPECT_EQ(runCommand("ps -eo args= | grep -x 'sleep " + Marker + "'").output, "")
      << "the compiler's child outlived it";
  R = runCommand(occlint(Dir, "--compile-timeout 0 " + shellQuote(A) + " --"));
  EXPECT_EQ(R.exitCode, 2) << R.output;
}

TEST(CrashIsolation, ClosedStdoutEndsQuietly) {
  ScratchDir Dir;
  std::string Many = "__global__ void k(float *p) { p[threadIdx.x] = 1; }\nvoid launch(float *p) {\n";
  for (int I = 0; I < 2000; ++I)
    Many += "  k<<<2, 100>>>(p);\n";
  const std::string A = Dir.write("many.cu", Many + "}\n");
  // More than a pipe holds, read 10 bytes of: occlint gets EPIPE, not SIGPIPE.
  CommandResult R = runCommand("bash -c " + shellQuote("set -o pipefail; " + occlint(Dir, shellQuote(A) + " --") +
                                                       " 2>" + shellQuote((Dir.path() / "err").string()) +
                                                       " | head -c 10 >/dev/null; echo status=$?"));
  EXPECT_NE(R.output.find("status=0"), std::string::npos) << R.output;
  const std::string Err = readFile(Dir.path() / "err");
  EXPECT_EQ(Err.find("LLVM ERROR"), std::string::npos) << Err;
  EXPECT_EQ(Err.find("error:"), std::string::npos) << Err;
}

} // namespace
