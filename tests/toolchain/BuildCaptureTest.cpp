// The sidecar (<object>.occlint.json): format, atomic writes, staleness, and
// what recordFinishedCompile keeps from a finished compile.
#include "toolchain/BuildCapture.h"

#include "toolchain/ResourceCompiler.h"
#include "toolchain/ResultCache.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>

using namespace occlint;
using occlint::testing::readFile;
using occlint::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

const char *kLog90 = "ptxas info    : 0 bytes gmem\n"
                     "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                     "ptxas info    : Function properties for _Z1kPf\n"
                     "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                     "ptxas info    : Used 40 registers, used 0 barriers\n";

/// A capture of scratch files: a source including a header, a compiler file.
struct Captured {
  ScratchDir dir;
  std::string source, header, compiler, object;
  std::vector<std::string> argv;
  BuildCapture capture;
  Captured() {
    source = dir.write("src/k.cu", "#include \"k.cuh\"\n__global__ void k(float *p) { p[0] = K; }\n");
    header = dir.write("src/k.cuh", "#define K 1.0f\n");
    compiler = dir.write("cuda/bin/nvcc", "#!/bin/sh\n");
    object = (dir.path() / "build/k.o").string();
    argv = {compiler, "-O3", "-arch=sm_90", "-c", source, "-o", "k.o"};
    capture.source = source;
    capture.object = object;
    capture.directory = (dir.path() / "build").string();
    capture.compiler = *describeCompiler(compiler, "nvcc");
    capture.arguments = argv;
    capture.ptxasLogs = {{"sm_90", kLog90}};
    capture.dependencies = *describeFiles({source, header});
  }
};

void setMtime(const std::string &path, int64_t ns) {
  timespec times[2];
  times[0].tv_sec = times[1].tv_sec = ns / 1000000000;
  times[0].tv_nsec = times[1].tv_nsec = ns % 1000000000;
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

} // namespace

TEST(BuildCapture, RoundTripsThroughJson) {
  Captured c;
  c.capture.launchers = {"ccache"};
  c.capture.reportRequested = true;
  std::string text = serializeBuildCapture(c.capture);
  std::string error;
  auto back = parseBuildCapture(text, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->source, c.source);
  EXPECT_EQ(back->object, c.object);
  EXPECT_EQ(back->compiler.path, c.compiler);
  EXPECT_EQ(back->compiler.mtimeNs, c.capture.compiler.mtimeNs);
  EXPECT_EQ(back->launchers, std::vector<std::string>{"ccache"});
  EXPECT_EQ(back->arguments, c.argv);
  EXPECT_TRUE(back->reportRequested);
  EXPECT_EQ(back->ptxasLogs, c.capture.ptxasLogs);
  ASSERT_EQ(back->dependencies.size(), 2u);
  EXPECT_EQ(back->dependencies[1].path, c.header);
  EXPECT_EQ(back->dependencies[1].size, 15u);
  EXPECT_EQ(back->dependencies[1].fnv1a64, hashHex(*hashFileContents(c.header)));
  EXPECT_NE(text.find("\"format\": \"occlint-build-capture\""), std::string::npos);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos);
  EXPECT_EQ(back->lint, ""); // no lint in the build: no field
  EXPECT_EQ(text.find("\"lint\""), std::string::npos);
}

TEST(BuildCapture, KeepsTheLintOfTheBuildStepAsAnObject) {
  Captured c;
  c.capture.lint = R"({"gpus":["H100"],"output":{"diagnostics":[]}})";
  std::string error;
  auto back = parseBuildCapture(serializeBuildCapture(c.capture), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->lint, c.capture.lint);
  std::string text = serializeBuildCapture(c.capture);
  text.replace(text.find("\"lint\": {"), 9, "\"lint\": 7,\"x\": {");
  EXPECT_FALSE(parseBuildCapture(text, &error));
  EXPECT_NE(error.find("lint"), std::string::npos) << error;
}

TEST(BuildCapture, RejectsWhatIsNotASidecarOfThisVersion) {
  Captured c;
  std::string error;
  EXPECT_FALSE(parseBuildCapture("not json", &error));
  EXPECT_FALSE(parseBuildCapture("{\"format\": 1, \"key\": \"x\"}", &error)); // a cache entry
  std::string text = serializeBuildCapture(c.capture);
  std::string v2 = text;
  v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
  EXPECT_FALSE(parseBuildCapture(v2, &error));
  EXPECT_NE(error.find("version 2"), std::string::npos) << error;
  std::string noDeps = text.substr(0, text.find("\"dependencies\"")) + "\"x\": 0}";
  EXPECT_FALSE(parseBuildCapture(noDeps, &error));
  LoadedBuildCapture missing = loadBuildCapture((c.dir.path() / "none.occlint.json").string());
  EXPECT_FALSE(missing.found);
  EXPECT_NE(missing.reason.find("no sidecar"), std::string::npos);
}

TEST(BuildCapture, WritesAtomicallyOrNotAtAll) {
  Captured c;
  fs::create_directories(c.dir.path() / "build");
  const std::string path = sidecarPathForObject(c.object);
  EXPECT_EQ(path, c.object + ".occlint.json");
  std::string error;
  ASSERT_TRUE(writeBuildCapture(path, c.capture, &error)) << error;
  ASSERT_TRUE(writeBuildCapture(path, c.capture, &error)) << error; // over an old one
  auto back = readBuildCapture(path, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->source, c.source);
  for (const auto &e : fs::directory_iterator(c.dir.path() / "build"))
    EXPECT_EQ(e.path().string(), path) << "left behind: " << e.path();
  // A path that cannot be written: false, a reason, no temporary file left.
  const std::string blocked = (c.dir.path() / "build/dir.occlint.json").string();
  fs::create_directories(blocked);
  EXPECT_FALSE(writeBuildCapture(blocked, c.capture, &error));
  EXPECT_NE(error.find("cannot"), std::string::npos) << error;
  EXPECT_FALSE(writeBuildCapture((c.dir.path() / "no/such/dir/x.occlint.json").string(), c.capture, &error));
  size_t entries = 0;
  for (const auto &e : fs::directory_iterator(c.dir.path() / "build")) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "left behind: " << e.path();
    ++entries;
  }
  EXPECT_EQ(entries, 2u); // the sidecar and the blocking directory
}

TEST(BuildCapture, StaleWhenAnIncludedFileOrTheCompilerChanges) {
  Captured c;
  EXPECT_EQ(staleReason(c.capture), "");
  // Only the content counts: a touch is not a change.
  setMtime(c.header, 1000000000);
  EXPECT_EQ(staleReason(c.capture), "");
  c.dir.write("src/k.cuh", "#define K 2.0f\n"); // same size, other content
  EXPECT_EQ(staleReason(c.capture), c.header + " changed");
  c.dir.write("src/k.cuh", "#define K 1.0f\n");
  EXPECT_EQ(staleReason(c.capture), "");
  fs::remove(c.header);
  EXPECT_EQ(staleReason(c.capture), c.header + " is gone or unreadable");
  c.dir.write("src/k.cuh", "#define K 1.0f\n");
  // The compiler: size and mtime.
  setMtime(c.compiler, c.capture.compiler.mtimeNs + 1000000000);
  EXPECT_NE(staleReason(c.capture).find("the compiler " + c.compiler + " changed"), std::string::npos);
  setMtime(c.compiler, c.capture.compiler.mtimeNs);
  EXPECT_EQ(staleReason(c.capture), "");
  fs::remove(c.compiler);
  EXPECT_NE(staleReason(c.capture).find("is gone"), std::string::npos);
}

TEST(BuildCapture, ComparesTheCommandWithTheDatabasesWhenAsked) {
  Captured c;
  fs::create_directories(c.dir.path() / "build");
  ASSERT_TRUE(writeBuildCapture(sidecarPathForObject(c.object), c.capture));
  const std::string build = (c.dir.path() / "build").string();
  // The database has no -MD/-MF; the build rule had them: the same compile.
  std::vector<std::string> database = c.argv;
  c.capture.arguments.insert(c.capture.arguments.begin() + 1, {"-MD", "-MT", "k.o", "-MF", "k.o.d"});
  ASSERT_TRUE(writeBuildCapture(sidecarPathForObject(c.object), c.capture));
  LoadedBuildCapture l = loadBuildCaptureForCommand(database, build, c.source);
  EXPECT_TRUE(l.found);
  EXPECT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.ptxasLogs.at("sm_90"), kLog90);
  // Relative -o and source against the directory.
  std::vector<std::string> relative = {c.compiler, "-O3", "-arch=sm_90", "-c", "../src/k.cu", "-o", "k.o"};
  EXPECT_EQ(*sidecarPathForCommand(relative, build), c.object + ".occlint.json");
  EXPECT_FALSE(sidecarPathForCommand({c.compiler, "-c", "a.cu"}, build));
  // Other flags, another source, another directory: not current.
  database[1] = "-O2";
  l = loadBuildCaptureForCommand(database, build, c.source);
  EXPECT_TRUE(l.found);
  EXPECT_FALSE(l.current);
  EXPECT_TRUE(l.ptxasLogs.empty());
  EXPECT_EQ(l.reason, "the build ran another command than the compile database's");
  database[1] = "-O3";
  EXPECT_FALSE(loadBuildCaptureForCommand(database, build, c.header).current);
  BuildCaptureExpectation elsewhere{c.source, &database, c.dir.path().string()};
  EXPECT_NE(staleReason(c.capture, elsewhere).find("the build ran in"), std::string::npos);
  // The same directory spelled otherwise is the same.
  BuildCaptureExpectation spelled{c.source, &database, build + "/./"};
  EXPECT_EQ(staleReason(c.capture, spelled), "");
}

TEST(BuildCapture, RecordsAFinishedCompileInTheSidecarAndTheCache) {
  Captured c;
  const std::string build = (c.dir.path() / "build").string();
  fs::create_directories(build);
  const std::string cacheDir = (c.dir.path() / "cache").string();
  c.dir.write("build/k.o.d", "k.o: ../src/k.cu \\\n ../src/k.cuh\n");
  FinishedCompile fc;
  fc.command = {"ccache", c.compiler, "-O3", "-arch=sm_90", "-MD", "-MF", "k.o.d", "-c", "../src/k.cu", "-o", "k.o"};
  fc.directory = build;
  fc.ptxasLog = kLog90;
  fc.depfile = build + "/k.o.d";
  fc.startNs = fc.endNs = 1; // long ago: nothing changed while it ran
  RecordOptions options;
  options.cacheDir = cacheDir;
  EXPECT_EQ(recordFinishedCompile(fc, options), "");
  LoadedBuildCapture l = loadBuildCapture(c.object + ".occlint.json");
  ASSERT_TRUE(l.current) << l.reason;
  EXPECT_EQ(l.capture.source, c.source);
  EXPECT_EQ(l.capture.launchers, std::vector<std::string>{"ccache"});
  EXPECT_EQ(l.capture.arguments, std::vector<std::string>(fc.command.begin() + 1, fc.command.end()));
  EXPECT_EQ(l.capture.compiler.path, c.compiler);
  ASSERT_EQ(l.capture.dependencies.size(), 2u);
  EXPECT_EQ(l.capture.dependencies[0].path, c.source);
  EXPECT_EQ(l.capture.dependencies[1].path, c.header);
  EXPECT_EQ(l.ptxasLogs, (std::map<std::string, std::string>{{"sm_90", kLog90}}));
  // The cache: what the clang-tidy plugin and `occlint -p` read.
  EXPECT_EQ(latestCachedPtxasLog(c.source, "sm_90", cacheDir), std::optional<std::string>(kLog90));
  c.dir.write("src/k.cuh", "#define K 3.0f\n");
  EXPECT_FALSE(latestCachedPtxasLog(c.source, "sm_90", cacheDir));
  EXPECT_FALSE(loadBuildCapture(c.object + ".occlint.json").current);
}

TEST(BuildCapture, KeepsNothingWithoutAReportOrWhenAFileChangedDuringTheCompile) {
  Captured c;
  const std::string build = (c.dir.path() / "build").string();
  fs::create_directories(build);
  c.dir.write("build/k.o.d", "k.o: ../src/k.cu ../src/k.cuh\n");
  FinishedCompile fc;
  fc.command = {c.compiler, "-arch=sm_90", "-MD", "-MF", "k.o.d", "-c", "../src/k.cu", "-o", "k.o"};
  fc.directory = build;
  fc.depfile = build + "/k.o.d";
  RecordOptions options;
  options.cacheDir = (c.dir.path() / "cache").string();
  // No ptxas ran (a PTX-only build): nothing, silently.
  EXPECT_EQ(recordFinishedCompile(fc, options), "");
  EXPECT_FALSE(fs::exists(c.object + ".occlint.json"));
  // The header was written while the compiler ran.
  fc.ptxasLog = kLog90;
  struct stat st{};
  ASSERT_EQ(::stat(c.header.c_str(), &st), 0);
  const int64_t written = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  fc.startNs = written - 1;
  fc.endNs = written + 1;
  EXPECT_EQ(recordFinishedCompile(fc, options), "");
  EXPECT_FALSE(fs::exists(c.object + ".occlint.json"));
  EXPECT_FALSE(latestCachedPtxasLog(c.source, "sm_90", options.cacheDir));
  // A dependency file that cannot be read: one line saying so.
  fc.startNs = fc.endNs = 1;
  fc.depfile = build + "/missing.d";
  std::string warning = recordFinishedCompile(fc, options);
  EXPECT_EQ(warning,
            "cannot read the dependency file " + build + "/missing.d: no resource report kept for " + c.source);
  // --no-sidecar and --no-cache.
  fc.depfile = build + "/k.o.d";
  options.sidecar = false;
  options.cache = false;
  EXPECT_EQ(recordFinishedCompile(fc, options), "");
  EXPECT_FALSE(fs::exists(c.object + ".occlint.json"));
  EXPECT_FALSE(latestCachedPtxasLog(c.source, "sm_90", options.cacheDir));
}
