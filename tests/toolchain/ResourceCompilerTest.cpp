// compileForResources: argv construction (no toolkit needed) and, when a CUDA
// toolkit is installed, real nvcc/clang runs with the on-disk cache.
#include "toolchain/ResourceCompiler.h"
#include "toolchain/ResultCache.h"
#include "toolchain/Subprocess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace occlint;
namespace fs = std::filesystem;

namespace {

std::string toolkitOrEmpty() {
  std::string configured = OCCLINT_CUDA_PATH;
  if (auto t = findCudaToolkit(configured.empty() ? std::string() : configured))
    return *t;
  if (auto t = findCudaToolkit(""))
    return *t;
  return {};
}

#define REQUIRE_TOOLKIT(tk)                                                                                            \
  std::string tk = toolkitOrEmpty();                                                                                   \
  if (tk.empty() || !fs::exists(tk + "/bin/nvcc"))                                                                     \
    GTEST_SKIP() << "no CUDA toolkit (looked at OCCLINT_CUDA_PATH='" OCCLINT_CUDA_PATH                                 \
                    "', $CUDA_PATH, /usr/local/cuda): compiler-running test skipped";

struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string t = (fs::temp_directory_path() / "occlint-rc-test-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string &name, const std::string &text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

const char *kKernel = R"(#include "tile.cuh"
__global__ void tiled(const float *in, float *out) {
  __shared__ float tile[TILE];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}
)";

} // namespace

TEST(ResourceCompiler, NvccArgvKeepsWhatMattersAndDropsOutputs) {
  CompileRequest rq;
  rq.sourceFile = "src/a.cu";
  rq.command = {"/usr/local/cuda/bin/nvcc",
                "-DFOO=1",
                "-I/inc",
                "-isystem",
                "/sys",
                "-std=c++17",
                "-O3",
                "-arch=sm_80",
                "-gencode",
                "arch=compute_80,code=sm_80",
                "-Xcompiler",
                "-fPIC",
                "-c",
                "src/a.cu",
                "-o",
                "a.o",
                "-MD",
                "-MF",
                "a.d",
                "--expt-relaxed-constexpr",
                "-Xptxas",
                "-O2",
                "-Wall",
                "-maxrregcount=64"};
  auto argv = deviceCompileArgv(rq, CompilerKind::Nvcc, "/cuda/bin/nvcc", "/cuda", "sm_90", "/tmp/o.cubin");
  std::vector<std::string> want = {"/cuda/bin/nvcc",
                                   "-DFOO=1",
                                   "-I/inc",
                                   "-isystem",
                                   "/sys",
                                   "-std=c++17",
                                   "-O3",
                                   "--expt-relaxed-constexpr",
                                   "-Xptxas",
                                   "-O2",
                                   "-maxrregcount=64",
                                   "--cubin",
                                   "-Xptxas",
                                   "-v",
                                   "-arch=sm_90",
                                   "-o",
                                   "/tmp/o.cubin",
                                   (fs::current_path() / "src/a.cu").string()};
  EXPECT_EQ(argv, want);
  // The compiler runs in a temporary directory: relative paths are made
  // absolute against the command's directory; a host compiler goes first.
  rq.directory = "/src/proj";
  rq.command = {"nvcc", "-Iinc", "-isystem", "sys", "-include", "pre.h", "-c", "a.cu"};
  rq.sourceFile = "a.cu";
  argv = deviceCompileArgv(rq, CompilerKind::Nvcc, "/cuda/bin/nvcc", "/cuda", "sm_90", "/tmp/o.cubin", "/usr/bin/g++");
  want = {"/cuda/bin/nvcc",
          "-ccbin",
          "/usr/bin/g++",
          "-I/src/proj/inc",
          "-isystem",
          "/src/proj/sys",
          "-include",
          "/src/proj/pre.h",
          "--cubin",
          "-Xptxas",
          "-v",
          "-arch=sm_90",
          "-o",
          "/tmp/o.cubin",
          "/src/proj/a.cu"};
  EXPECT_EQ(argv, want);
}

TEST(ResourceCompiler, ClangArgvIsADeviceOnlyPtxCompile) {
  CompileRequest rq;
  rq.sourceFile = "a.cu";
  rq.command = {"clang++",
                "-x",
                "cuda",
                "--cuda-gpu-arch=sm_80",
                "-DX",
                "-I",
                "inc",
                "-O2",
                "-std=c++20",
                "-ffast-math",
                "-fcolor-diagnostics",
                "-Wall",
                "-c",
                "a.cu",
                "-o",
                "a.o",
                "-MD",
                "-MF",
                "a.d",
                "-Xcuda-ptxas",
                "-O3"};
  auto argv = deviceCompileArgv(rq, CompilerKind::Clang, "clang++", "/cuda", "sm_90", "/tmp/o.ptx");
  const std::string cwd = fs::current_path().string();
  std::vector<std::string> want = {"clang++",
                                   "-DX",
                                   "-I",
                                   cwd + "/inc",
                                   "-O2",
                                   "-std=c++20",
                                   "-ffast-math",
                                   "--cuda-path=/cuda",
                                   "-Wno-unknown-cuda-version",
                                   "-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_90",
                                   "-S",
                                   "-o",
                                   "/tmp/o.ptx",
                                   cwd + "/a.cu"};
  EXPECT_EQ(argv, want);
}

TEST(ResourceCompiler, CompilerKind) {
  EXPECT_EQ(compilerKindOf("/usr/local/cuda/bin/nvcc"), CompilerKind::Nvcc);
  EXPECT_EQ(compilerKindOf("clang++-22"), CompilerKind::Clang);
  EXPECT_EQ(compilerKindOf("/usr/bin/g++"), CompilerKind::Unknown);
}

TEST(ResourceCompiler, ClearErrorsWithoutAToolkit) {
  EXPECT_FALSE(findCudaToolkit("/nonexistent/cuda").has_value());
  ScratchDir d;
  std::string src = d.write("a.cu", "__global__ void k() {}\n");
  CompileRequest rq;
  rq.sourceFile = src;
  rq.command = {"nvcc", "-c", src};
  rq.archs = {"sm_90"};
  rq.cudaPath = "/nonexistent/cuda";
  auto out = compileForResources(rq);
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("/nonexistent/cuda"), std::string::npos) << out.error;

  // A "toolkit" with ptxas but no nvcc.
  fs::create_directories(d.path / "fakecuda/bin");
  d.write("fakecuda/bin/ptxas", "");
  rq.cudaPath = (d.path / "fakecuda").string();
  out = compileForResources(rq);
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("nvcc not found"), std::string::npos) << out.error;

  rq.archs = {"compute_90"};
  EXPECT_NE(compileForResources(rq).error.find("not a GPU arch"), std::string::npos);
  rq.archs = {"sm_90"};
  rq.command = {"g++", "-c", src};
  EXPECT_NE(compileForResources(rq).error.find("unsupported compiler"), std::string::npos);
}

TEST(ResourceCompiler, NvccRunsOncePerArchThenComesFromCache) {
  REQUIRE_TOOLKIT(tk);
  ScratchDir d;
  d.write("tile.cuh", "#define TILE 256\n");
  std::string src = d.write("k.cu", kKernel);
  CompileRequest rq;
  rq.sourceFile = "k.cu";
  rq.directory = d.path.string();
  rq.command = {tk + "/bin/nvcc", "-O3", "-c", "k.cu", "-o", "k.o"};
  rq.archs = {"sm_80", "sm_90"};
  rq.cacheDir = (d.path / "cache").string();

  auto first = compileForResources(rq);
  ASSERT_TRUE(first.ok) << first.error;
  EXPECT_FALSE(first.fromCache);
  for (const char *arch : {"sm_80", "sm_90"}) {
    const FunctionResources *f = first.report.find("_Z5tiledPKfPf", arch);
    ASSERT_NE(f, nullptr) << arch;
    EXPECT_EQ(f->sharedMem, 1024);
    EXPECT_EQ(f->barriers, 1);
    EXPECT_GT(f->registers, 0);
    EXPECT_EQ(f->sourceFile, "k.cu");
  }

  // Unchanged: no compiler runs at all.
  auto spawned = subprocessSpawnCount();
  auto second = compileForResources(rq);
  ASSERT_TRUE(second.ok) << second.error;
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(subprocessSpawnCount(), spawned);
  EXPECT_EQ(second.report.find("_Z5tiledPKfPf", "sm_90")->sharedMem, 1024);

  // Touching the header's timestamp alone changes nothing...
  fs::last_write_time(d.path / "tile.cuh", fs::file_time_type::clock::now());
  EXPECT_TRUE(compileForResources(rq).fromCache);
  // ...changing its content does: one compiler process per arch, which also
  // lists the included files (-MD); no -M run, no --version (known by now).
  d.write("tile.cuh", "#define TILE 512\n");
  spawned = subprocessSpawnCount();
  auto third = compileForResources(rq);
  ASSERT_TRUE(third.ok) << third.error;
  EXPECT_FALSE(third.fromCache);
  EXPECT_EQ(subprocessSpawnCount() - spawned, 2u);
  EXPECT_EQ(third.report.find("_Z5tiledPKfPf", "sm_80")->sharedMem, 2048);

  // Corrupt entries are ignored: recompiled, then good again.
  for (auto &e : fs::recursive_directory_iterator(d.path / "cache"))
    if (e.is_regular_file())
      std::ofstream(e.path()) << "{ not json";
  auto fourth = compileForResources(rq);
  ASSERT_TRUE(fourth.ok) << fourth.error;
  EXPECT_FALSE(fourth.fromCache);
  EXPECT_EQ(fourth.report.find("_Z5tiledPKfPf", "sm_90")->sharedMem, 2048);
  EXPECT_TRUE(compileForResources(rq).fromCache);
}

TEST(ResourceCompiler, NvccCompileErrorCarriesStderr) {
  REQUIRE_TOOLKIT(tk);
  ScratchDir d;
  std::string src = d.write("bad.cu", "__global__ void k() { this is not cuda; }\n");
  CompileRequest rq;
  rq.sourceFile = src;
  rq.command = {"nvcc", "-c", src};
  rq.archs = {"sm_90"};
  rq.cudaPath = tk;
  rq.useCache = false;
  auto out = compileForResources(rq);
  EXPECT_FALSE(out.ok);
  EXPECT_NE(out.error.find("error"), std::string::npos) << out.error;
  EXPECT_NE(out.error.find("bad.cu"), std::string::npos) << out.error;
}

// A compile nvcc rejects is remembered under the files it read (issue 44
// item 6): the next compile of the unchanged file runs nothing and gives the
// same error; a changed header compiles again. A rejection with no file list
// (a missing header: nvcc writes none) is not stored.
TEST(ResourceCompiler, ARejectedCompileIsRememberedUntilAFileItReadChanges) {
  REQUIRE_TOOLKIT(tk);
  ScratchDir d;
  d.write("api.cuh", "#pragma once\n");
  d.write("old.cu", "#include \"api.cuh\"\n__global__ void k() {}\nvoid run() { cudaThreadSynchronize(); }\n");
  CompileRequest rq;
  rq.sourceFile = "old.cu";
  rq.directory = d.path.string();
  rq.command = {tk + "/bin/nvcc", "-c", "old.cu", "-o", "old.o"};
  rq.archs = {"sm_90"};
  rq.cacheDir = (d.path / "cache").string();

  auto first = compileForResources(rq);
  ASSERT_FALSE(first.ok);
  EXPECT_TRUE(first.compilerRejected);
  EXPECT_FALSE(first.rejectionRemembered);
  EXPECT_NE(first.error.find("cudaThreadSynchronize"), std::string::npos) << first.error;

  auto spawned = subprocessSpawnCount();
  auto second = compileForResources(rq);
  EXPECT_EQ(subprocessSpawnCount(), spawned);
  EXPECT_FALSE(second.ok);
  EXPECT_TRUE(second.compilerRejected);
  EXPECT_TRUE(second.rejectionRemembered);
  EXPECT_EQ(second.error, first.error);

  d.write("api.cuh", "#pragma once\n#define cudaThreadSynchronize cudaDeviceSynchronize\n");
  auto third = compileForResources(rq);
  EXPECT_GT(subprocessSpawnCount(), spawned);
  EXPECT_TRUE(third.ok) << third.error;

  d.write("missing.cu", "#include \"not-there.cuh\"\n__global__ void k() {}\n");
  rq.sourceFile = "missing.cu";
  rq.command = {tk + "/bin/nvcc", "-c", "missing.cu", "-o", "missing.o"};
  EXPECT_TRUE(compileForResources(rq).compilerRejected);
  spawned = subprocessSpawnCount();
  auto again = compileForResources(rq);
  EXPECT_TRUE(again.compilerRejected);
  EXPECT_FALSE(again.rejectionRemembered);
  EXPECT_EQ(subprocessSpawnCount() - spawned, 1u);
}

TEST(ResourceCompiler, ClangThenPtxas) {
  REQUIRE_TOOLKIT(tk);
  const std::string clang = "/usr/lib/llvm-22/bin/clang++";
  if (!fs::exists(clang))
    GTEST_SKIP() << "no " << clang;
  ScratchDir d;
  d.write("tile.cuh", "#define TILE 128\n");
  std::string src = d.write("k.cu", kKernel);
  CompileRequest rq;
  rq.sourceFile = src;
  rq.command = {clang, "-x", "cuda", "-O2", "--cuda-gpu-arch=sm_80", "-c", src, "-o", "k.o"};
  rq.archs = {"sm_90"};
  rq.cudaPath = tk;
  rq.cacheDir = (d.path / "cache").string();
  auto out = compileForResources(rq);
  ASSERT_TRUE(out.ok) << out.error;
  const FunctionResources *f = out.report.find("_Z5tiledPKfPf", "sm_90");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->sharedMem, 512);
  EXPECT_EQ(f->barriers, 1);
  auto again = compileForResources(rq);
  EXPECT_TRUE(again.fromCache) << again.error;
}

TEST(ResultCache, StoreLookupAndDependencyValidation) {
  ScratchDir d;
  ResultCache cache((d.path / "c").string());
  std::string dep = d.write("dep.h", "one");
  EXPECT_FALSE(cache.lookup("key").has_value());
  ASSERT_TRUE(cache.store("key", {dep}, "payload"));
  EXPECT_EQ(cache.lookup("key").value_or(""), "payload");
  EXPECT_FALSE(cache.lookup("other key").has_value());
  d.write("dep.h", "two");
  EXPECT_FALSE(cache.lookup("key").has_value());
  ASSERT_TRUE(cache.store("key", {dep}, "payload2"));
  EXPECT_EQ(cache.lookup("key").value_or(""), "payload2");
  fs::remove(dep);
  EXPECT_FALSE(cache.lookup("key").has_value());
  // Truncated entry: a miss.
  ASSERT_TRUE(cache.store("k2", {}, "p"));
  fs::resize_file(cache.entryPath("k2"), 10);
  EXPECT_FALSE(cache.lookup("k2").has_value());
  // No temporary files are left behind.
  for (auto &e : fs::recursive_directory_iterator(d.path / "c"))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos);
}

TEST(ResultCache, DefaultDirectoryAndHash) {
  EXPECT_EQ(hashHex(fnv1a64("")), "cbf29ce484222325");
  EXPECT_EQ(hashHex(fnv1a64("a")), "af63dc4c8601ec8c");
  // Both variables are put back as they were: the tests after this one in
  // the same process read them.
  const char *SavedCache = getenv("OCCLINT_CACHE_DIR");
  const char *SavedXdg = getenv("XDG_CACHE_HOME");
  const std::optional<std::string> saved = SavedCache ? std::optional<std::string>(SavedCache) : std::nullopt;
  const std::optional<std::string> savedXdg = SavedXdg ? std::optional<std::string>(SavedXdg) : std::nullopt;
  ::setenv("OCCLINT_CACHE_DIR", "/x/y", 1);
  EXPECT_EQ(ResultCache::defaultDirectory(), "/x/y");
  ::unsetenv("OCCLINT_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(ResultCache::defaultDirectory(), "/xdg/occlint");
  ::unsetenv("XDG_CACHE_HOME");
  if (getenv("HOME"))
    EXPECT_EQ(ResultCache().directory(), std::string(getenv("HOME")) + "/.cache/occlint");
  if (saved)
    ::setenv("OCCLINT_CACHE_DIR", saved->c_str(), 1);
  if (savedXdg)
    ::setenv("XDG_CACHE_HOME", savedXdg->c_str(), 1);
}

namespace {

TEST(ResultCache, ACorruptEntryIsToldApartFromAMiss) {
  ScratchDir d;
  ResultCache cache((d.path / "c").string());
  std::string dep = d.write("dep.h", "one");
  bool corrupt = true;
  EXPECT_FALSE(cache.lookup("key", &corrupt).has_value());
  EXPECT_FALSE(corrupt) << "no entry";
  ASSERT_TRUE(cache.store("key", {dep}, "payload"));
  d.write("dep.h", "two");
  EXPECT_FALSE(cache.lookup("key", &corrupt).has_value());
  EXPECT_FALSE(corrupt) << "a changed dependency";
  ASSERT_TRUE(cache.store("key", {dep}, "payload"));
  fs::resize_file(cache.entryPath("key"), 25);
  EXPECT_FALSE(cache.lookup("key", &corrupt).has_value());
  EXPECT_TRUE(corrupt) << "cut short";
}

TEST(ResultCache, EvictionRemovesTheLeastRecentlyUsedEntriesFirst) {
  ScratchDir d;
  ResultCache cache((d.path / "c").string());
  const std::string payload(1000, 'x');
  const auto longAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
  uint64_t each = 0;
  for (int i = 0; i < 10; ++i) {
    const std::string key = "key " + std::to_string(i);
    ASSERT_TRUE(cache.store(key, {}, payload));
    // Stored one second apart, an hour ago: key 0 the oldest.
    fs::last_write_time(cache.entryPath(key), longAgo + std::chrono::seconds(i));
    each = std::max<uint64_t>(each, fs::file_size(cache.entryPath(key)));
  }
  EXPECT_EQ(cache.evictLeastRecentlyUsed(10 * each), 0u) << "within the limit: nothing removed";
  ASSERT_TRUE(cache.lookup("key 0").has_value()); // used now: the most recent
  // A limit of six entries: down to 90 % of it, five entries, the oldest
  // used ones (1 to 5) removed.
  EXPECT_EQ(cache.evictLeastRecentlyUsed(6 * each), 5u);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(cache.lookup("key " + std::to_string(i)).has_value(), i == 0 || i > 5) << i;
}

TEST(ResultCache, TheLimitComesFromTheEnvironment) {
  const char *saved = getenv("OCCLINT_CACHE_MAX_MB");
  const std::optional<std::string> restore = saved ? std::optional<std::string>(saved) : std::nullopt;
  ::unsetenv("OCCLINT_CACHE_MAX_MB");
  EXPECT_EQ(ResultCache::maxBytesFromEnvironment(), uint64_t(1024) << 20);
  ::setenv("OCCLINT_CACHE_MAX_MB", "64", 1);
  EXPECT_EQ(ResultCache::maxBytesFromEnvironment(), uint64_t(64) << 20);
  for (const char *bad : {"0", "-1", "1G", "ten"}) {
    ::setenv("OCCLINT_CACHE_MAX_MB", bad, 1);
    uint64_t fallback = 0;
    EXPECT_FALSE(ResultCache::maxBytesFromEnvironment(&fallback).has_value()) << bad;
    EXPECT_EQ(fallback, uint64_t(1024) << 20);
  }
  if (restore)
    ::setenv("OCCLINT_CACHE_MAX_MB", restore->c_str(), 1);
  else
    ::unsetenv("OCCLINT_CACHE_MAX_MB");
}

} // namespace
