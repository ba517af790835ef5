// The rows of docs/bad-inputs.md that no other test covers: each input class
// gets a clear message naming the file, a documented exit code, and never a
// crash. (The other rows name their tests in that table.)
#include "CommandRunner.h"
#include "FakeToolkit.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const std::string Kernel = "__global__ void k(float *p) { p[threadIdx.x] = 1; }\n"
                           "void launch(float *p) { k<<<2, 100>>>(p); }\n";

std::string occlint(const ScratchDir &Dir) {
  return "OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " + shellQuote(OCCLINT_BINARY) + " ";
}

TEST(BadInput, AnUnreadableFileIsAnInputErrorNamingIt) {
  ScratchDir Dir;
  const std::string File = Dir.write("locked.cu", Kernel);
  fs::permissions(File, fs::perms::none);
  // root reads anything: run occlint as nobody then (setpriv, util-linux).
  const std::string As = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  fs::permissions(Dir.path(), fs::perms::all);
  CommandResult R = runCommand(As + "env OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " +
                               shellQuote(OCCLINT_BINARY) + " --no-compile " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("error reading"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("locked.cu"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("Permission denied"), std::string::npos) << R.output;
}

TEST(BadInput, ADirectoryIsAnInputError) {
  ScratchDir Dir;
  CommandResult R = runCommand(occlint(Dir) + "--no-compile " + shellQuote(Dir.path().string()) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find(": is a directory, not a source file"), std::string::npos) << R.output;
}

TEST(BadInput, ABinaryFileIsAnInputErrorNotACrash) {
  ScratchDir Dir;
  std::string Bytes;
  for (int I = 0; I < 4096; ++I)
    Bytes += char((I * 131 + 7) % 256); // every byte value, NULs included
  const std::string File = Dir.write("blob.cu", Bytes);
  CommandResult R = runCommand(occlint(Dir) + "--no-compile " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("blob.cu"), std::string::npos);
  EXPECT_EQ(R.output.find("occlint-internal-error"), std::string::npos) << R.output;
}

TEST(BadInput, AnEmptyFileHasNoFindings) {
  ScratchDir Dir;
  const std::string File = Dir.write("empty.cu", "");
  CommandResult R = runCommand(occlint(Dir) + "--no-compile " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("0 diagnostics in 1 file"), std::string::npos) << R.output;
}

TEST(BadInput, ANonCudaFileIsCheckedAsItsCommandSaysWithNoFindings) {
  ScratchDir Dir;
  const std::string File = Dir.write("host.cpp", "int main() { return 0; }\n");
  CommandResult R = runCommand(occlint(Dir) + "--no-compile " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("0 diagnostics in 1 file"), std::string::npos) << R.output;
}

TEST(BadInput, AnEmptyCompileDatabaseIsAnInputError) {
  ScratchDir Dir;
  Dir.write("build/compile_commands.json", "[]\n");
  CommandResult R = runCommand(occlint(Dir) + "-p " + shellQuote((Dir.path() / "build").string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("compile_commands.json has no CUDA translation unit"), std::string::npos) << R.output;
}

TEST(BadInput, AMalformedCompileDatabaseNamesTheFileAndTheProblem) {
  ScratchDir Dir;
  Dir.write("build/compile_commands.json", "[{\"directory\": \"/tmp\", \"file\": ");
  const std::string File = shellQuote(Dir.write("build/k.cu", Kernel));
  const std::string Build = shellQuote((Dir.path() / "build").string());
  // -p alone, -p with a file, and the database found above a file.
  const std::string Report = "report --markdown " + shellQuote((Dir.path() / "report.md").string()) + " ";
  for (const std::string Command :
       {"-p " + Build, "-p " + Build + " " + File, File, Report + "-p " + Build, Report + File}) {
    SCOPED_TRACE(Command);
    CommandResult R = runCommand(occlint(Dir) + Command);
    EXPECT_EQ(R.exitCode, 2) << R.output;
    EXPECT_NE(R.output.find("build/compile_commands.json: not a valid compile database"), std::string::npos)
        << R.output;
    EXPECT_FALSE(std::filesystem::exists(Dir.path() / "report.md"));
  }
}

TEST(BadInput, ATruncatedPtxasLogLeavesTheKernelEstimated) {
  ScratchDir Dir;
  const std::string File = Dir.write("k.cu", Kernel);
  // A whole entry for another kernel, then k's cut in the middle of its "Used" line.
  const std::string Log = Dir.write("build.log", "ptxas info    : Compiling entry function '_Z5otherv' for 'sm_90'\n"
                                                 "ptxas info    : Function properties for _Z5otherv\n"
                                                 "ptxas info    : Used 12 registers, used 0 barriers\n"
                                                 "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                                                 "ptxas info    : Function properties for _Z1kPf\n"
                                                 "ptxas info    : Used 3");
  CommandResult R = runCommand(occlint(Dir) + "--checks=-*,cuda-occupancy-report --gpu H100 --ptxas-log " +
                               shellQuote(Log) + " " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("registers unknown"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("the ptxas report has no entry for this kernel"), std::string::npos) << R.output;
}

TEST(BadInput, AFailingCompilerLeavesTheFileEstimatedWithAWarning) {
  ScratchDir Dir;
  // A toolkit whose nvcc fails every compile.
  const std::string Cuda = writeFakeToolkit(Dir, "echo 'nvcc fatal   : something went wrong' >&2; exit 1\n");
  const std::string File = Dir.write("k.cu", Kernel);
  CommandResult R =
      runCommand(occlint(Dir) + "--gpu H100 --cuda-path " + shellQuote(Cuda) + " " + shellQuote(File) + " --");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("k.cu: no resource report for sm_90: nvcc failed"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("something went wrong"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("block of 100 threads"), std::string::npos) << R.output;
}

// A file the compiler rejects (an API CUDA 13 removed, say), named twice in
// the database ("./k.cu" and "k.cu"): compiled once in the run, analysed once,
// and not compiled again in the next run while the file and the headers the
// compiler listed are unchanged; a changed header compiles again.
TEST(BadInput, ARejectedFileIsCompiledOncePerRunAndRememberedWhileUnchanged) {
  ScratchDir Dir;
  const std::string Runs = (Dir.path() / "nvcc-runs.txt").string();
  const std::string Header = Dir.write("api.cuh", "#pragma once\n");
  const std::string File = Dir.write("k.cu", "#include \"api.cuh\"\n" + Kernel);
  // Counts its runs, lists k.cu and api.cuh where -MF says, and rejects the code.
  const std::string Cuda = writeFakeToolkit(
      Dir, "echo run >> " + shellQuote(Runs) +
               "\n"
               "prev=''; for a in \"$@\"; do [ \"$prev\" = -MF ] && printf 'k.o: %s %s\\n' " +
               shellQuote(File) + " " + shellQuote(Header) +
               " > \"$a\"; prev=\"$a\"; done\n"
               "echo 'k.cu(3): error: identifier \"cudaThreadSynchronize\" is undefined' >&2; exit 1\n");
  const std::string Nvcc = Cuda + "/bin/nvcc";
  Dir.write("compile_commands.json", "[{\"directory\": \"" + Dir.path().string() +
                                         "\", \"file\": \"./k.cu\", \"arguments\": [\"" + Nvcc +
                                         "\", \"-arch=sm_90\", \"-c\", \"./k.cu\", \"-o\", \"k1.o\"]},\n"
                                         " {\"directory\": \"" +
                                         Dir.path().string() + "\", \"file\": \"k.cu\", \"arguments\": [\"" + Nvcc +
                                         "\", \"-arch=sm_90\", \"-c\", \"k.cu\", \"-o\", \"k2.o\"]}]\n");
  auto lint = [&] {
    return runCommand(occlint(Dir) + "--checks=-*,cuda-launch-block-not-warp-multiple --cuda-path " + shellQuote(Cuda) +
                      " -p " + shellQuote(Dir.path().string()));
  };
  auto runsSoFar = [&] {
    const std::string Text = readFile(Runs);
    return std::count(Text.begin(), Text.end(), '\n');
  };
  const std::string Warning = File + ": no resource report for sm_90: nvcc failed";
  CommandResult First = lint();
  EXPECT_EQ(runsSoFar(), 1) << First.output;
  EXPECT_NE(First.output.find(Warning), std::string::npos) << First.output;
  EXPECT_EQ(First.output.find(Warning), First.output.rfind(Warning)) << "one warning\n" << First.output;
  const size_t Finding = First.output.find("block of 100 threads");
  EXPECT_NE(Finding, std::string::npos) << First.output;
  EXPECT_EQ(Finding, First.output.rfind("block of 100 threads")) << "one finding\n" << First.output;

  CommandResult Second = lint();
  EXPECT_EQ(runsSoFar(), 1) << Second.output;
  EXPECT_NE(Second.output.find(Warning), std::string::npos) << Second.output;
  EXPECT_NE(Second.output.find("an earlier run's verdict"), std::string::npos) << Second.output;

  Dir.write("api.cuh", "#pragma once\n#define cudaThreadSynchronize cudaDeviceSynchronize\n");
  CommandResult Third = lint();
  EXPECT_EQ(runsSoFar(), 2) << Third.output;
  EXPECT_EQ(Third.output.find("an earlier run's verdict"), std::string::npos) << Third.output;
}

} // namespace
