// The compiler launcher with the real nvcc: a small kernel for two archs, as
// CMake's Ninja generator compiles it and as a plain Makefile rule does. The
// build log (stderr) is byte for byte the plain compile's; the sidecar and the
// cache have both archs' reports. Skipped, saying so, without a toolkit.
#include "gpu/PtxasReport.h"
#include "toolchain/BuildCapture.h"
#include "toolchain/CompilerLauncher.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/Subprocess.h"

#include "LauncherRun.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <unistd.h>

using namespace occlint;
using occlint::testing::launchInto;
using occlint::testing::Ran;
using occlint::testing::readFile;
using occlint::testing::ScratchDir;
namespace fs = std::filesystem;
using Args = std::vector<std::string>;

namespace {

std::string nvccOrEmpty() {
  std::string configured = OCCLINT_CUDA_PATH;
  for (const std::string &root : {configured, std::string("/usr/local/cuda")})
    if (!root.empty() && fs::exists(root + "/bin/nvcc") && fs::exists(root + "/bin/ptxas"))
      return root + "/bin/nvcc";
  return {};
}

// An unused variable: cudafe warns, so the plain build's stderr is not empty.
const char *kKernel = R"(#include "tile.cuh"
__global__ void tiled(const float *in, float *out) {
  int unused;
  __shared__ float tile[TILE];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[TILE - 1 - threadIdx.x] * 2.0f;
}
)";

Ran launch(const Args &args, const fs::path &scratch) { return launchInto(args, scratch); }

class LauncherNvcc : public ::testing::Test {
protected:
  ScratchDir dir;
  std::string nvcc, source, cache;
  void SetUp() override {
    nvcc = nvccOrEmpty();
    if (nvcc.empty())
      GTEST_SKIP() << "no CUDA toolkit (looked at OCCLINT_CUDA_PATH='" OCCLINT_CUDA_PATH
                      "' and /usr/local/cuda): the real-nvcc launcher test is skipped";
    source = dir.write("src/tiled.cu", kKernel);
    dir.write("src/tile.cuh", "#define TILE 128\n");
    fs::create_directories(dir.path() / "build");
    cache = (dir.path() / "cache").string();
    const char *old = std::getenv("OCCLINT_CACHE_DIR");
    savedCache = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv("OCCLINT_CACHE_DIR", cache.c_str(), 1);
  }
  void TearDown() override {
    if (savedCache)
      ::setenv("OCCLINT_CACHE_DIR", savedCache->c_str(), 1);
    else
      ::unsetenv("OCCLINT_CACHE_DIR"); // unset before: not set to ""
  }

  /// Compiles without the launcher, then through it; both stderrs must be the same.
  LoadedBuildCapture compileBothWays(const Args &command, const std::string &object) {
    // The plain compile through runSubprocess: the toolkit's nvcc is allowed.
    const ProgramAllowlist saved = processAllowlist();
    setProcessAllowlist(ProgramAllowlist::defaults(fs::path(nvcc).parent_path().parent_path().string()));
    SubprocessResult plain = runSubprocess(command);
    setProcessAllowlist(saved);
    EXPECT_TRUE(plain.ok()) << plain.describe() << plain.err;
    EXPECT_FALSE(plain.err.empty()) << "the kernel should make nvcc (or ptxas) print something";
    Ran wrapped = launch(command, dir.path());
    EXPECT_EQ(wrapped.outcome.exitCode, 0) << wrapped.err;
    EXPECT_EQ(wrapped.err, plain.err);
    EXPECT_EQ(wrapped.out, plain.out);
    return loadBuildCaptureForCommand(command, fs::current_path().string(), source);
  }

  void expectBothArchs(const LoadedBuildCapture &l) {
    ASSERT_TRUE(l.current) << l.reason;
    EXPECT_EQ(l.ptxasLogs.size(), 2u);
    for (const char *arch : {"sm_80", "sm_90"}) {
      ASSERT_TRUE(l.ptxasLogs.count(arch)) << arch;
      PtxasReport report = parsePtxasLog(l.ptxasLogs.at(arch));
      const FunctionResources *fn = report.find("_Z5tiledPKfPf", arch);
      ASSERT_NE(fn, nullptr) << arch << ":\n" << l.ptxasLogs.at(arch);
      EXPECT_TRUE(fn->registersReported);
      EXPECT_GT(fn->registers, 0);
      EXPECT_EQ(fn->sharedMem, 512);
      EXPECT_EQ(latestCachedPtxasLog(source, arch, cache), l.ptxasLogs.at(arch));
    }
    bool sawHeader = false;
    for (const CapturedFile &f : l.capture.dependencies)
      sawHeader |= f.path == (dir.path() / "src/tile.cuh").string();
    EXPECT_TRUE(sawHeader);
    EXPECT_GT(l.capture.dependencies.size(), 10u); // the toolkit's and the system's headers too
  }

private:
  std::optional<std::string> savedCache;
};

} // namespace

TEST_F(LauncherNvcc, CMakeStyleCompileForTwoArchs) {
  const std::string object = (dir.path() / "build/tiled.cu.o").string();
  Args command = {nvcc,
                  "-O3",
                  "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                  "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                  "-MD",
                  "-MT",
                  object,
                  "-MF",
                  object + ".d",
                  "-x",
                  "cu",
                  "-c",
                  source,
                  "-o",
                  object};
  LoadedBuildCapture l = compileBothWays(command, object);
  expectBothArchs(l);
  EXPECT_TRUE(fs::exists(object + ".d")); // the build's own dependency file, read and left
}

TEST_F(LauncherNvcc, MakeStyleCompileGetsADependencyFileOfItsOwn) {
  const std::string object = (dir.path() / "build/tiled.o").string();
  Args command = {
      nvcc, "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "-c", source,
      "-o", object};
  LoadedBuildCapture l = compileBothWays(command, object);
  expectBothArchs(l);
  EXPECT_FALSE(fs::exists(object + ".occlint.d"));
  EXPECT_EQ(l.capture.arguments, command);
}

TEST_F(LauncherNvcc, AnAdvisoryPtxasPrintsWithoutVerboseStays) {
  // ptxas prints this "ptxas info" line with or without -v: the wrapped build
  // log keeps it, and the report is still captured.
  const std::string asmSource =
      dir.write("src/setmaxnreg.cu", "__global__ void __launch_bounds__(128) grow(float *p) {\n"
                                     "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 240;\\n\");\n"
                                     "  p[threadIdx.x] += 1;\n"
                                     "}\n");
  source = asmSource;
  const std::string object = (dir.path() / "build/setmaxnreg.o").string();
  Args command = {nvcc, "-gencode", "arch=compute_90a,code=sm_90a", "-c", asmSource, "-o", object};
  LoadedBuildCapture l = compileBothWays(command, object);
  ASSERT_TRUE(l.current) << l.reason;
  ASSERT_TRUE(l.ptxasLogs.count("sm_90a"));
  EXPECT_NE(l.ptxasLogs.at("sm_90a").find("(C7508)"), std::string::npos) << l.ptxasLogs.at("sm_90a");
  const PtxasReport report = parsePtxasLog(l.ptxasLogs.at("sm_90a")); // find() points into it
  const FunctionResources *fn = report.find("_Z4growPf", "sm_90a");
  ASSERT_NE(fn, nullptr);
  EXPECT_TRUE(fn->registersReported);
}

TEST_F(LauncherNvcc, ThreadsRunSeveralPtxasAtOnceAndEachArchKeepsItsOwnReport) {
  // Twelve kernels of different register pressure for three archs, compiled
  // with nvcc --threads 3 (up to three ptxas at once, their output printed
  // by nvcc) and without: every arch's captured log has each kernel once,
  // attributed to that arch, with the sequential compile's figures.
  std::string kernels = "template <int N> __global__ void unrolled(const float *in, float *out) {\n"
                        "  float v[N];\n"
                        "#pragma unroll\n"
                        "  for (int i = 0; i < N; ++i) v[i] = in[threadIdx.x * N + i] * (i + 1);\n"
                        "  float s = 0.0f;\n"
                        "#pragma unroll\n"
                        "  for (int i = 0; i < N; ++i) s += v[i] * v[(i * 7) % N];\n"
                        "  out[threadIdx.x] = s;\n"
                        "}\n";
  for (int n = 1; n <= 12; ++n)
    kernels += "template __global__ void unrolled<" + std::to_string(n * 4) + ">(const float *, float *);\n";
  source = dir.write("src/unrolled.cu", kernels);
  const Args archs = {"-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_86,code=sm_86",
                      "-gencode", "arch=compute_90,code=sm_90"};
  auto compile = [&](const std::string &object, bool threads) {
    Args command = {nvcc};
    if (threads)
      command.insert(command.end(), {"--threads", "3"});
    command.insert(command.end(), archs.begin(), archs.end());
    command.insert(command.end(), {"-c", source, "-o", object});
    Ran r = launch(command, dir.path());
    EXPECT_EQ(r.outcome.exitCode, 0) << r.err;
    LoadedBuildCapture l = loadBuildCaptureForCommand(command, fs::current_path().string(), source);
    EXPECT_TRUE(l.current) << l.reason;
    return l;
  };
  const LoadedBuildCapture sequential = compile((dir.path() / "build/sequential.o").string(), false);
  const LoadedBuildCapture threaded = compile((dir.path() / "build/threaded.o").string(), true);
  ASSERT_EQ(sequential.ptxasLogs.size(), 3u);
  ASSERT_EQ(threaded.ptxasLogs.size(), 3u);
  for (const auto &[arch, log] : sequential.ptxasLogs) {
    ASSERT_TRUE(threaded.ptxasLogs.count(arch)) << arch;
    const PtxasReport expected = parsePtxasLog(log);
    const PtxasReport got = parsePtxasLog(threaded.ptxasLogs.at(arch));
    ASSERT_EQ(expected.functions.size(), 12u) << arch << ":\n" << log;
    EXPECT_EQ(got.functions.size(), 12u) << arch << ":\n" << threaded.ptxasLogs.at(arch);
    for (const FunctionResources &e : expected.functions) {
      EXPECT_EQ(e.arch, arch);
      const std::vector<const FunctionResources *> all = got.findAll(e.mangledName, arch);
      ASSERT_EQ(all.size(), 1u) << e.mangledName << " on " << arch;
      const FunctionResources &g = *all.front();
      EXPECT_EQ(g.arch, arch) << e.mangledName;
      EXPECT_EQ(g.registers, e.registers) << e.mangledName << " on " << arch;
      EXPECT_EQ(g.sharedMem, e.sharedMem) << e.mangledName << " on " << arch;
      EXPECT_EQ(g.stackFrame, e.stackFrame) << e.mangledName << " on " << arch;
      EXPECT_EQ(g.spillStores, e.spillStores) << e.mangledName << " on " << arch;
      EXPECT_EQ(g.barriers, e.barriers) << e.mangledName << " on " << arch;
    }
  }
}
