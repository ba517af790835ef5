// The compiler launcher end to end: a fake nvcc (tests/support/FakeCompiler.h)
// run through runCompilerLauncher and through the occlint-wrap executable
// (stdout, stderr and exit status passed through, the added report lines
// taken out, the sidecar and the cache written, signals), then the real nvcc
// on a small kernel for two archs when a toolkit is installed.
#include "toolchain/CompilerLauncher.h"
#include "gpu/PtxasReport.h"
#include "toolchain/BuildCapture.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/Subprocess.h"

#include "FakeCompiler.h"
#include "LauncherRun.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace occlint;
using occlint::testing::launchInto;
using occlint::testing::Ran;
using occlint::testing::readFile;
using occlint::testing::ScratchDir;
namespace fs = std::filesystem;
using Args = std::vector<std::string>;

namespace {

const std::string kHostOutput = "k.cu(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
                                "ptxas warning : Registers are spilled to local memory in function '_Z1kPf', 8 bytes "
                                "spill stores, 8 bytes spill loads\n";
const std::string kReport = "ptxas info    : 0 bytes gmem\n"
                            "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
                            "ptxas info    : Function properties for _Z1kPf\n"
                            "    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
                            "ptxas info    : Used 32 registers, used 0 barriers, 360 bytes cmem[0]\n"
                            "ptxas info    : Compile time = 1.000 ms\n"
                            "ptxas info    : 0 bytes gmem\n"
                            "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                            "ptxas info    : Function properties for _Z1kPf\n"
                            "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                            "ptxas info    : Used 40 registers, used 0 barriers\n"
                            "ptxas info    : Compile time = 1.000 ms\n";
const std::string kTail = "a last line without a newline";

class Launcher : public ::testing::Test {
protected:
  ScratchDir dir;
  std::string nvcc, source, header, build, object, cache;

  void SetUp() override {
    nvcc = occlint::testing::writeFakeCompiler(dir);
    source = dir.write("src/k.cu", "#include \"k.cuh\"\n__global__ void k(float *p) { int unused; p[0] = K; }\n");
    header = dir.write("src/k.cuh", "#define K 1.0f\n");
    dir.write("includes.txt", header + "\n");
    dir.write("stdout.txt", "compiler stdout\n");
    dir.write("stderr.txt", kHostOutput);
    dir.write("tail.txt", kTail);
    dir.write("ptxas.txt", kReport);
    build = (dir.path() / "build").string();
    fs::create_directories(build);
    object = build + "/k.o";
    cache = (dir.path() / "cache").string();
    const char *old = std::getenv("OCCLINT_CACHE_DIR");
    savedCache = old ? old : "";
    ::setenv("OCCLINT_CACHE_DIR", cache.c_str(), 1); // never the user's ~/.cache
  }
  void TearDown() override { ::setenv("OCCLINT_CACHE_DIR", savedCache.c_str(), 1); }

  Args command(const Args &extra = {}) const {
    Args c = {nvcc, "-O3", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90"};
    c.insert(c.end(), extra.begin(), extra.end());
    c.insert(c.end(), {"-c", source, "-o", object});
    return c;
  }

  Ran launch(const Args &args) const { return launchInto(args, dir.path()); }

  std::string sidecar() const { return object + ".occlint.json"; }

private:
  std::string savedCache;
};

/// Runs the occlint-wrap executable (the allowlist of this test process gets it).
SubprocessResult runWrap(const Args &args, const std::string &directory) {
  const ProgramAllowlist saved = processAllowlist();
  ProgramAllowlist list = saved;
  list.allow(OCCLINT_WRAP_BINARY);
  setProcessAllowlist(list);
  Args argv = {OCCLINT_WRAP_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  SubprocessOptions options;
  options.workingDirectory = directory;
  options.timeout = std::chrono::seconds(60);
  SubprocessResult r = runSubprocess(argv, options);
  setProcessAllowlist(saved);
  return r;
}

} // namespace

TEST_F(Launcher, PassesTheCompilersOutputAndKeepsTheReport) {
  Ran r = launch(command());
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_EQ(r.outcome.termSignal, 0);
  EXPECT_EQ(r.out, "compiler stdout\n");
  EXPECT_EQ(r.err, kHostOutput + kTail); // what the compiler prints without -Xptxas -v
  // The sidecar: the command as the build ran it, each arch's log, the files read.
  LoadedBuildCapture l = loadBuildCapture(sidecar());
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.capture.arguments, command());
  EXPECT_TRUE(l.capture.launchers.empty());
  EXPECT_EQ(l.capture.source, source);
  EXPECT_EQ(l.capture.object, object);
  EXPECT_EQ(l.capture.compiler.path, nvcc);
  EXPECT_EQ(l.capture.compiler.kind, "nvcc");
  EXPECT_FALSE(l.capture.reportRequested);
  ASSERT_EQ(l.ptxasLogs.size(), 2u);
  EXPECT_EQ(parsePtxasLog(l.ptxasLogs["sm_80"]).find("_Z1kPf", "sm_80")->registers, 32);
  EXPECT_EQ(parsePtxasLog(l.ptxasLogs["sm_90"]).find("_Z1kPf", "sm_90")->registers, 40);
  // The spill warning (printed with or without -v) is in the log of the run it precedes.
  EXPECT_EQ(parsePtxasLog(l.ptxasLogs["sm_80"]).find("_Z1kPf", "sm_80")->warnings.size(), 1u);
  ASSERT_EQ(l.capture.dependencies.size(), 2u);
  EXPECT_EQ(l.capture.dependencies[0].path, source);
  EXPECT_EQ(l.capture.dependencies[1].path, header);
  // The dependency file it added is gone; the cache has each arch's log.
  EXPECT_FALSE(fs::exists(object + ".occlint.d"));
  EXPECT_EQ(latestCachedPtxasLog(source, "sm_90", cache), l.ptxasLogs["sm_90"]);
  EXPECT_EQ(latestCachedPtxasLog(source, "sm_80"), l.ptxasLogs["sm_80"]); // $OCCLINT_CACHE_DIR
}

TEST_F(Launcher, ASidecarGoesStaleWhenAnIncludedHeaderIsEdited) {
  ASSERT_EQ(launch(command()).outcome.exitCode, 0);
  const Args database = command();
  const std::string here = fs::current_path().string(); // where it ran
  EXPECT_TRUE(loadBuildCaptureForCommand(database, here, source).current);
  dir.write("src/k.cuh", "#define K 2.0f\n");
  LoadedBuildCapture l = loadBuildCaptureForCommand(database, here, source);
  EXPECT_TRUE(l.found);
  EXPECT_FALSE(l.current);
  EXPECT_EQ(l.reason, header + " changed");
  EXPECT_TRUE(l.ptxasLogs.empty());
  EXPECT_FALSE(latestCachedPtxasLog(source, "sm_90", cache));
  // Built again: current again.
  ASSERT_EQ(launch(command()).outcome.exitCode, 0);
  EXPECT_TRUE(loadBuildCaptureForCommand(database, here, source).current);
}

TEST_F(Launcher, AReportTheBuildAskedForStaysInTheLog) {
  Ran r = launch(command({"-Xptxas", "-v"}));
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_EQ(r.err, kHostOutput + kReport + kTail);
  LoadedBuildCapture l = loadBuildCapture(sidecar());
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_TRUE(l.capture.reportRequested);
  EXPECT_EQ(l.capture.arguments, command({"-Xptxas", "-v"}));
  EXPECT_EQ(l.ptxasLogs.size(), 2u);
}

TEST_F(Launcher, ReadsTheBuildsOwnDependencyFileAndLeavesIt) {
  const Args withDeps = command({"-MD", "-MT", object, "-MF", object + ".d"});
  Ran r = launch(withDeps);
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_EQ(r.err, kHostOutput + kTail);
  EXPECT_TRUE(fs::exists(object + ".d"));
  EXPECT_FALSE(fs::exists(object + ".occlint.d"));
  LoadedBuildCapture l = loadBuildCapture(sidecar());
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.capture.arguments, withDeps);
  EXPECT_EQ(l.capture.dependencies.size(), 2u);
}

TEST_F(Launcher, AFailedCompileKeepsItsStatusAndWritesNothing) {
  dir.write("status.txt", "3\n");
  Ran r = launch(command());
  EXPECT_EQ(r.outcome.exitCode, 3);
  EXPECT_EQ(r.err, kHostOutput + kTail);
  EXPECT_EQ(r.out, "compiler stdout\n");
  EXPECT_FALSE(fs::exists(sidecar()));
  EXPECT_FALSE(fs::exists(object + ".occlint.d"));
  EXPECT_FALSE(latestCachedPtxasLog(source, "sm_90", cache));
}

TEST_F(Launcher, ACompilerKilledByASignalEndsTheLauncherTheSameWay) {
  dir.write("signal.txt", "TERM\n");
  Ran r = launch(command());
  EXPECT_EQ(r.outcome.termSignal, SIGTERM);
  EXPECT_FALSE(fs::exists(sidecar()));
  // The executable re-raises it: its parent sees the same signal.
  dir.write("signal.txt", "SEGV\n");
  SubprocessResult s = runWrap(command(), build);
  ASSERT_TRUE(s.started) << s.error;
  EXPECT_EQ(s.termSignal, SIGSEGV) << s.describe();
  EXPECT_EQ(s.out, "compiler stdout\n");
  EXPECT_EQ(s.err, kHostOutput + kTail);
}

TEST_F(Launcher, ASignalToTheLauncherReachesTheCompiler) {
  dir.write("sleep.txt", "30\n");
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Args args = command();
    std::vector<char *> argv = {const_cast<char *>(OCCLINT_WRAP_BINARY)};
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(OCCLINT_WRAP_BINARY, argv.data());
    ::_exit(127);
  }
  const fs::path started = dir.path() / "started.txt";
  // Until the fake compiler has written its pid and the line's end, or the
  // launcher has ended: no deadline of our own (a loaded machine may take
  // seconds to start two processes), the suite's TIMEOUT catches a hang.
  int status = 0;
  while (readFile(started).find('\n') == std::string::npos) {
    ASSERT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the launcher ended before its compiler started: " << status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const pid_t compiler = static_cast<pid_t>(std::atoi(readFile(started).c_str()));
  ASSERT_GT(compiler, 0) << "the fake compiler never started";
  ::kill(pid, SIGTERM);
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_NE(::kill(compiler, 0), 0) << "the compiler outlived the launcher";
}

TEST_F(Launcher, ItsOwnFailuresAreOneWarningAndNeverTheBuildsResult) {
  // An unwritable sidecar (a directory is in the way).
  fs::create_directories(sidecar());
  Ran r = launch(command());
  EXPECT_EQ(r.outcome.exitCode, 0);
  // The compiler's stderr, then the warning on a line of its own (the
  // compiler's last line had no newline).
  const std::string compilers = kHostOutput + kTail + "\n";
  ASSERT_EQ(r.err.substr(0, compilers.size()), compilers);
  std::string warning = r.err.substr(compilers.size());
  EXPECT_EQ(warning.rfind("occlint-wrap: warning: cannot write the sidecar: cannot rename ", 0), 0u) << warning;
  EXPECT_EQ(std::count(warning.begin(), warning.end(), '\n'), 1) << warning;
  EXPECT_EQ(warning.back(), '\n');
  EXPECT_TRUE(latestCachedPtxasLog(source, "sm_90", cache)); // the cache entry was still stored
  fs::remove(sidecar());
  // A dependency file the compiler did not write.
  dir.write("no-depfile", "");
  r = launch(command({"-MD", "-MF", object + ".d"}));
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_EQ(r.err, kHostOutput + kTail + "\nocclint-wrap: warning: cannot read the dependency file " + object +
                       ".d: no resource report kept for " + source + "\n");
  EXPECT_FALSE(fs::exists(sidecar()));
}

TEST_F(Launcher, ComposesWithACompilerCache) {
  const std::string ccache = dir.write("bin/ccache", "#!/bin/sh\nexec \"$@\"\n");
  fs::permissions(ccache, fs::perms::owner_all);
  Args args = command();
  args.insert(args.begin(), ccache);
  Ran r = launch(args);
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_EQ(r.err, kHostOutput + kTail);
  LoadedBuildCapture l = loadBuildCaptureForCommand(command(), fs::current_path().string(), source);
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.capture.launchers, Args{ccache});
  EXPECT_EQ(l.capture.arguments, command());
  EXPECT_EQ(l.capture.compiler.path, nvcc);
  EXPECT_EQ(l.ptxasLogs.size(), 2u);
}

TEST_F(Launcher, WhatItDoesNotCaptureRunsUnchanged) {
  // Not a CUDA compile: nothing added, nothing stripped, nothing written.
  Ran r = launch({"/bin/sh", "-c", "echo out; printf 'ptxas info    : 0 bytes gmem\\n' >&2; exit 4"});
  EXPECT_EQ(r.outcome.exitCode, 4);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "ptxas info    : 0 bytes gmem\n");
  // nvcc preprocessing only.
  r = launch({nvcc, "-E", source, "-o", object});
  EXPECT_EQ(r.outcome.exitCode, 0);
  EXPECT_FALSE(fs::exists(sidecar()));
  EXPECT_FALSE(fs::exists(object + ".occlint.d"));
  // Usage errors and a compiler that is not there.
  EXPECT_EQ(launch({}).outcome.exitCode, 2);
  EXPECT_EQ(launch({"--frobnicate", nvcc}).outcome.exitCode, 2);
  r = launch({dir.path().string() + "/bin/no-such-nvcc", "-c", source, "-o", object});
  EXPECT_EQ(r.outcome.exitCode, 127);
  EXPECT_NE(r.err.find("occlint-wrap: error: cannot run"), std::string::npos) << r.err;
}

TEST_F(Launcher, TheExecutableTakesOptionsBeforeTheCommand) {
  // Relative paths, from the build directory, with `--` and --no-sidecar.
  Args args = {"--no-sidecar", "--", "../bin/nvcc", "-arch=sm_90", "-c", "../src/k.cu", "-o", "k.o"};
  SubprocessResult s = runWrap(args, build);
  ASSERT_TRUE(s.started) << s.error;
  EXPECT_EQ(s.exitCode, 0) << s.err;
  EXPECT_EQ(s.out, "compiler stdout\n");
  EXPECT_EQ(s.err, kHostOutput + kTail);
  EXPECT_FALSE(fs::exists(sidecar()));
  EXPECT_TRUE(latestCachedPtxasLog(source, "sm_90", cache));
  s = runWrap({"../bin/nvcc", "-arch=sm_90", "-c", "../src/k.cu", "-o", "k.o"}, build);
  EXPECT_EQ(s.exitCode, 0) << s.err;
  LoadedBuildCapture l = loadBuildCaptureForCommand({"../bin/nvcc", "-arch=sm_90", "-c", "../src/k.cu", "-o", "k.o"},
                                                    build, "../src/k.cu");
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.capture.source, source);
  EXPECT_EQ(l.capture.directory, build);
  EXPECT_EQ(l.capture.compiler.path, nvcc);
  s = runWrap({"--help"}, build);
  EXPECT_EQ(s.exitCode, 0);
  EXPECT_NE(s.out.find("usage: occlint-wrap"), std::string::npos);
}
