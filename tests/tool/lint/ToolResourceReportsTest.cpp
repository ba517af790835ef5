// ToolResourceReports, the resource reports the lint run gives the checks,
// called directly: --ptxas-log files, device compiles with the file's own
// command (memoized, cached on disk), no toolkit, --no-compile, failures.
#include "lint/ToolResourceReports.h"

#include "toolchain/Subprocess.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace occlint;
using clang::tidy::occlint::ResourceReportLookup;
using occlint::testing::ScratchDir;

namespace {

const std::string SourceDir = OCCLINT_SOURCE_DIR;
const std::string Toolkit = std::string(OCCLINT_CUDA_PATH).empty() ? "/usr/local/cuda" : OCCLINT_CUDA_PATH;

#define REQUIRE_TOOLKIT()                                                                                              \
  if (!fs::exists(Toolkit + "/bin/ptxas") || !fs::exists(Toolkit + "/bin/nvcc"))                                       \
  GTEST_SKIP() << "no CUDA toolkit at " << Toolkit << " (no bin/ptxas or bin/nvcc): this test runs nvcc"

// A `-- flags` command line, as CommonOptionsParser builds it.
std::unique_ptr<clang::tooling::CompilationDatabase> dashDash(const std::string &Dir,
                                                              std::vector<std::string> Flags = {}) {
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(Dir, Flags);
}

// A compile_commands.json of one entry: the toolkit's nvcc with Flags
// compiling k.cu in D.
std::unique_ptr<clang::tooling::CompilationDatabase> nvccDatabase(const ScratchDir &D, const std::string &Flags) {
  const std::string Json = "[{\"directory\": \"" + D.path().string() + "\", \"command\": \"" + Toolkit + "/bin/nvcc " +
                           Flags + " -c k.cu -o k.o\", \"file\": \"k.cu\"}]";
  std::string Error;
  auto Commands =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(Json, Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  EXPECT_TRUE(Commands) << Error;
  return Commands;
}

ToolResourceSettings withToolkit(const ScratchDir &D) {
  ToolResourceSettings S;
  S.cudaPath = Toolkit;
  S.cacheDir = (D.path() / "cache").string();
  return S;
}

TEST(ToolResourceReports, CompilesTheFileOncePerArchThenMemoizesAndCaches) {
  REQUIRE_TOOLKIT();
  ScratchDir D;
  const std::string File = SourceDir + "/test-inputs/example/launches.cu";
  auto Commands = dashDash(".");
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);

  ResourceReportLookup First = Reports.reportFor(File, "sm_90");
  ASSERT_NE(First.report, nullptr) << First.source << "\n" << Warnings;
  EXPECT_EQ(First.source, "ptxas, sm_90");
  const FunctionResources *Scale = First.report->find("_Z5scalePffi", "sm_90");
  ASSERT_NE(Scale, nullptr);
  EXPECT_TRUE(Scale->isEntry);
  EXPECT_GT(Scale->registers, 0);
  EXPECT_EQ(Scale->displayName, "scale(float*, float, int)");

  // The same (file, arch) again: memoized, no process at all.
  const uint64_t Spawned = subprocessSpawnCount();
  ResourceReportLookup Again = Reports.reportFor(File, "sm_90");
  EXPECT_EQ(Again.report, First.report);
  EXPECT_EQ(subprocessSpawnCount(), Spawned);

  // Another arch is another compile.
  ResourceReportLookup Sm80 = Reports.reportFor(File, "sm_80");
  ASSERT_NE(Sm80.report, nullptr) << Sm80.source << "\n" << Warnings;
  EXPECT_EQ(Sm80.source, "ptxas, sm_80");
  EXPECT_NE(Sm80.report->find("_Z5scalePffi", "sm_80"), nullptr);
  EXPECT_GT(subprocessSpawnCount(), Spawned);

  // A later run (a new instance) reads the on-disk cache: still no process.
  ToolResourceReports NextRun(*Commands, withToolkit(D), WarningStream);
  const uint64_t Before = subprocessSpawnCount();
  ResourceReportLookup Cached = NextRun.reportFor(File, "sm_90");
  ASSERT_NE(Cached.report, nullptr);
  EXPECT_EQ(Cached.source, "ptxas, sm_90, cached");
  EXPECT_EQ(subprocessSpawnCount(), Before);
  EXPECT_EQ(Cached.report->find("_Z5scalePffi", "sm_90")->registers, Scale->registers);
  EXPECT_TRUE(Warnings.empty()) << Warnings;
}

TEST(ToolResourceReports, DashDashFlagsReachTheToolkitsNvcc) {
  REQUIRE_TOOLKIT();
  ScratchDir D;
  D.write("inc/tile.cuh", "#pragma once\nconstexpr int kTile = TILE * 2;\n");
  const std::string File = D.write("k.cu", R"(#include <tile.cuh>
template <int N> __device__ float pick(const float *s) {
  if constexpr (N > 0) return s[N - 1]; else return 0.0f; // C++17
}
__global__ void tiled(const float *in, float *out) {
  __shared__ float tile[kTile];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = pick<kTile>(tile);
}
)");
  // Flags written for the Clang parse, as after `--`.
  auto Commands = dashDash(D.path().string(), {"-I", "inc", "-DTILE=32", "-std=c++17", "-x", "cuda", "-Wall"});
  EXPECT_EQ(resourceCompileCommand(Commands->getCompileCommands(File).front().CommandLine, Toolkit),
            (std::vector<std::string>{Toolkit + "/bin/nvcc", "-I", "inc", "-DTILE=32", "-std=c++17", "-x", "cu",
                                      "-Wall", File}));
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);
  ResourceReportLookup R = Reports.reportFor(File, "sm_80");
  ASSERT_NE(R.report, nullptr) << R.source << "\n" << Warnings;
  const FunctionResources *Tiled = R.report->find("_Z5tiledPKfPf", "sm_80");
  ASSERT_NE(Tiled, nullptr);
  EXPECT_EQ(Tiled->sharedMem, 64 * 4); // kTile = TILE * 2 floats
  EXPECT_EQ(Tiled->barriers, 1);
}

TEST(ToolResourceReports, UsesTheOriginalNvccCommandAndTheArchAskedFor) {
  REQUIRE_TOOLKIT();
  ScratchDir D;
  const std::string File = D.write("k.cu", "__global__ void k(float *p) {\n"
                                           "  __shared__ float s[TILE];\n"
                                           "  s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[0] = s[1];\n}\n");
  // -DTILE=48 reaches nvcc; the command's -arch=sm_80 does not decide the arch.
  auto Commands = nvccDatabase(D, "-DTILE=48 -arch=sm_80 -lineinfo");
  ASSERT_TRUE(Commands);
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);
  ResourceReportLookup R = Reports.reportFor(File, "sm_90");
  ASSERT_NE(R.report, nullptr) << R.source << "\n" << Warnings;
  const FunctionResources *K = R.report->find("_Z1kPf", "sm_90");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->arch, "sm_90");
  EXPECT_EQ(K->sharedMem, 48 * 4);
}

TEST(ToolResourceReports, ArchsLeftToTheDeviceLinkAreUnknownAndNothingRuns) {
  // code=lto_90 (or -dlto): ptxas runs at the device link on the whole
  // program, so a compile of this file alone is not the build's figure.
  ScratchDir D;
  const std::string File = D.write("k.cu", "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n");
  auto Commands = nvccDatabase(D, "-rdc=true -gencode arch=compute_80,code=sm_80 "
                                  "-gencode arch=compute_90,code=lto_90");
  ASSERT_TRUE(Commands);
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);
  const uint64_t Spawned = subprocessSpawnCount();
  ResourceReportLookup R = Reports.reportFor(File, "sm_90");
  EXPECT_EQ(subprocessSpawnCount(), Spawned); // no compiler for the LTO arch
  EXPECT_EQ(R.report, nullptr);
  EXPECT_EQ(R.source, "registers decided at the device link (the build leaves sm_90 as LTO-IR: code=lto_XX or "
                      "-dlto): resources estimated from the source");
  EXPECT_TRUE(Warnings.empty()) << Warnings;
  // sm_80 has SASS from this compile: it is compiled as usual (with a toolkit).
  if (fs::exists(Toolkit + "/bin/nvcc")) {
    ResourceReportLookup R80 = Reports.reportFor(File, "sm_80");
    ASSERT_NE(R80.report, nullptr) << R80.source << "\n" << Warnings;
    EXPECT_EQ(R80.source, "ptxas, sm_80");
  }
}

TEST(ToolResourceReports, PtxasLogsTakePrecedenceOverCompiling) {
  ScratchDir D;
  auto Commands = dashDash(".");
  std::string Warnings, Verbose;
  llvm::raw_string_ostream WarningStream(Warnings), VerboseStream(Verbose);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream, &VerboseStream);
  const std::string Log80 = SourceDir + "/test-inputs/ptxas/nvcc_sm80.log";
  const std::string Log90 = SourceDir + "/test-inputs/ptxas/nvcc_sm90.log";
  ASSERT_EQ(Reports.loadPtxasLogs({Log80, Log90}), "");
  const uint64_t Spawned = subprocessSpawnCount();
  const std::string File = SourceDir + "/test-inputs/ptxas/kernels.cu";
  ResourceReportLookup R = Reports.reportFor(File, "sm_90");
  Reports.reportFor(File, "sm_90");
  EXPECT_EQ(subprocessSpawnCount(), Spawned); // no compiler, though a toolkit is there
  ASSERT_NE(R.report, nullptr);
  EXPECT_EQ(R.source, "ptxas logs " + Log80 + ", " + Log90);
  ASSERT_NE(R.report->find("_Z9bigSharedPKfPf", "sm_90"), nullptr);
  EXPECT_EQ(R.report->find("_Z9bigSharedPKfPf", "sm_90")->registers, 18); // as in nvcc_sm90.log
  EXPECT_EQ(R.report->find("_Z9bigSharedPKfPf", "sm_80")->registers, 10); // as in nvcc_sm80.log
  EXPECT_EQ(Verbose, "occlint: " + File + " [sm_90]: resources: " + R.source + "\n");

  ToolResourceReports One(*Commands, withToolkit(D), WarningStream);
  ASSERT_EQ(One.loadPtxasLogs({Log90}), "");
  EXPECT_EQ(One.reportFor(File, "sm_90").source, "ptxas log " + Log90);
  EXPECT_TRUE(Warnings.empty()) << Warnings;
}

TEST(ToolResourceReports, UnusablePtxasLogsAreNamed) {
  auto Commands = dashDash(".");
  ToolResourceReports Reports(*Commands, {}, llvm::nulls());
  EXPECT_EQ(Reports.loadPtxasLogs({"/nonexistent/build.log"}), "/nonexistent/build.log: no such file");
  const std::string Readme = SourceDir + "/README.md";
  EXPECT_EQ(Reports.loadPtxasLogs({Readme}).rfind(Readme + ": no ptxas resource report in it", 0), 0u);
  EXPECT_EQ(Reports.loadPtxasLogs({SourceDir}), SourceDir + ": no such file"); // a directory
}

TEST(ToolResourceReports, WithoutAToolkitOrWithNoCompileNothingRuns) {
  auto Commands = dashDash(".");
  const std::string File = SourceDir + "/test-inputs/example/launches.cu";
  std::string Warnings, Verbose;
  llvm::raw_string_ostream WarningStream(Warnings), VerboseStream(Verbose);
  const uint64_t Spawned = subprocessSpawnCount();

  ToolResourceReports NoToolkit(*Commands, {}, WarningStream, &VerboseStream);
  ResourceReportLookup R = NoToolkit.reportFor(File, "sm_90");
  EXPECT_EQ(R.report, nullptr);
  EXPECT_EQ(R.source, "no CUDA toolkit: resources estimated from the source");
  NoToolkit.reportFor(File, "sm_90");
  NoToolkit.reportFor(File, "sm_80");
  EXPECT_EQ(Verbose, "occlint: " + File + " [sm_90]: resources: " + R.source + "\n" + "occlint: " + File +
                         " [sm_80]: resources: " + R.source + "\n");

  ToolResourceSettings Settings;
  Settings.cudaPath = Toolkit;
  Settings.noCompile = true;
  ToolResourceReports NoCompile(*Commands, Settings, WarningStream);
  R = NoCompile.reportFor(File, "sm_90");
  EXPECT_EQ(R.report, nullptr);
  EXPECT_EQ(R.source, "--no-compile: resources estimated from the source");
  EXPECT_EQ(subprocessSpawnCount(), Spawned);
  EXPECT_TRUE(Warnings.empty()) << Warnings;
}

TEST(ToolResourceReports, AFailedCompileWarnsOncePerFileAndArch) {
  REQUIRE_TOOLKIT();
  ScratchDir D;
  const std::string File = D.write("bad.cu", "__global__ void k() { this is not cuda; }\n");
  auto Commands = dashDash(D.path().string());
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);
  for (int I = 0; I < 2; ++I) {
    ResourceReportLookup R = Reports.reportFor(File, "sm_90");
    EXPECT_EQ(R.report, nullptr);
    EXPECT_EQ(R.source, "device compile failed");
  }
  const std::string Prefix = "occlint: warning: " + File + ": no resource report for sm_90: nvcc failed";
  EXPECT_EQ(Warnings.rfind(Prefix, 0), 0u) << Warnings;
  EXPECT_EQ(std::count(Warnings.begin(), Warnings.end(), '\n'), 1) << Warnings;
  Reports.reportFor(File, "sm_80");
  EXPECT_EQ(std::count(Warnings.begin(), Warnings.end(), '\n'), 2) << Warnings;
}

// "./old.cu" and "old.cu" are one file: one compile in the run. The next run
// (a new instance) reads the rejection from the cache and says so.
TEST(ToolResourceReports, ARejectedFileCompilesOnceWhateverItsSpelling) {
  REQUIRE_TOOLKIT();
  ScratchDir D;
  D.write("old.cu", "__global__ void k() {}\nvoid run() { cudaThreadSynchronize(); }\n");
  auto Commands = dashDash(D.path().string());
  const std::string File = (D.path() / "old.cu").string();
  const std::string Dotted = (D.path() / "." / "old.cu").string();
  std::string Warnings;
  llvm::raw_string_ostream WarningStream(Warnings);
  {
    ToolResourceReports Reports(*Commands, withToolkit(D), WarningStream);
    EXPECT_EQ(Reports.reportFor(Dotted, "sm_90").source, "device compile failed");
    const uint64_t Spawned = subprocessSpawnCount();
    EXPECT_EQ(Reports.reportFor(File, "sm_90").source, "device compile failed");
    EXPECT_EQ(subprocessSpawnCount(), Spawned);
    EXPECT_EQ(Reports.nvccAccepted(File, "sm_90"), false);
  }
  EXPECT_EQ(std::count(Warnings.begin(), Warnings.end(), '\n'), 1) << Warnings;
  EXPECT_EQ(Warnings.rfind("occlint: warning: " + File + ": no resource report for sm_90: nvcc failed", 0), 0u)
      << Warnings;
  Warnings.clear();
  const uint64_t Spawned = subprocessSpawnCount();
  ToolResourceReports NextRun(*Commands, withToolkit(D), WarningStream);
  EXPECT_EQ(NextRun.reportFor(File, "sm_90").source, "device compile failed, cached");
  EXPECT_EQ(NextRun.nvccAccepted(File, "sm_90"), false);
  EXPECT_EQ(subprocessSpawnCount(), Spawned);
  EXPECT_NE(Warnings.find("an earlier run's verdict"), std::string::npos) << Warnings;
}

TEST(ResourceCompileCommand, LaunchersGoAndCompilersStay) {
  const std::vector<std::string> Nvcc = {"/usr/local/cuda/bin/nvcc", "-DX", "-c", "a.cu"};
  EXPECT_EQ(resourceCompileCommand(Nvcc, "/cuda"), Nvcc);
  std::vector<std::string> Cached = {"/usr/bin/ccache", "clang++", "-x", "cuda", "a.cu"};
  EXPECT_EQ(resourceCompileCommand(Cached, "/cuda"), (std::vector<std::string>{"clang++", "-x", "cuda", "a.cu"}));
  EXPECT_EQ(resourceCompileCommand({"clang-tool", "-xcuda", "-DX", "a.cu"}, "/cuda"),
            (std::vector<std::string>{"/cuda/bin/nvcc", "-x", "cu", "-DX", "a.cu"}));
}

} // namespace
