// The result cache (lint/UnitResultCache.h, docs/result-cache.md) end to
// end: an unchanged run gives the cold run's output from the cache, and each
// thing a file's findings depend on, changed, makes it a miss.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <vector>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

// A kernel whose findings depend on a header's constant and a macro: a tiny
// grid, a block that is not a multiple of the warp size.
const std::string Kernel = "#include \"sizes.h\"\n"
                           "__global__ void k(float *p) { p[threadIdx.x] = 1; }\n"
                           "void launch(float *p) { k<<<GRID, THREADS>>>(p); }\n";

struct Project {
  ScratchDir Dir;
  std::string source, header;
  Project() {
    source = Dir.write("src/k.cu", Kernel);
    header = Dir.write("src/sizes.h", "#define THREADS 100\n");
  }
  std::string cache() const { return (Dir.path() / "cache").string(); }
  /// occlint on the kernel with `Args` before the file and `Flags` after `--`.
  CommandResult run(const std::string &Args = "", const std::string &Flags = "-DGRID=2",
                    const std::string &Binary = OCCLINT_BINARY) const {
    return runCommand("cd " + shellQuote(Dir.path().string()) + " && OCCLINT_CACHE_DIR=" + shellQuote(cache()) + " " +
                          shellQuote(Binary) + " --no-compile --gpu H100 --verbose " + Args + " src/k.cu -- " + Flags,
                      /*MergeStderr=*/false);
  }
  /// -v's (--verbose's) line for the file, from stderr.
  std::string cacheLine(const std::string &Args = "", const std::string &Flags = "-DGRID=2",
                        const std::string &Binary = OCCLINT_BINARY) const {
    CommandResult R =
        runCommand("cd " + shellQuote(Dir.path().string()) + " && OCCLINT_CACHE_DIR=" + shellQuote(cache()) + " " +
                   shellQuote(Binary) + " --no-compile --gpu H100 -v " + Args + " src/k.cu -- " + Flags +
                   " 2>&1 >/dev/null | grep 'result cache'");
    return R.output;
  }
};

bool hit(const std::string &Line) { return Line.find("result cache: hit") != std::string::npos; }
bool miss(const std::string &Line) { return Line.find("result cache: miss, analysed and stored") != std::string::npos; }

TEST(UnitResultCache, AnUnchangedRunHitsAndPrintsWhatTheColdRunPrinted) {
  Project P;
  for (const char *Format : {"text", "json", "sarif"}) {
    const std::string Args = std::string("--format=") + Format;
    const CommandResult Cold = P.run(Args + " --no-result-cache");
    const std::string First = P.cacheLine(Args);
    const CommandResult Warm = P.run(Args);
    EXPECT_EQ(Cold.exitCode, Warm.exitCode) << Format;
    EXPECT_EQ(Cold.output, Warm.output) << Format << ": the replayed output differs from the cold run's";
    EXPECT_NE(Cold.output.find("100"), std::string::npos) << Cold.output;
    EXPECT_TRUE(std::string(Format) != "text" || miss(First)) << First; // the first run with the cache stores
    EXPECT_TRUE(hit(P.cacheLine(Args))) << Format;
  }
  // --no-result-cache analyses and says nothing of the cache.
  EXPECT_EQ(P.cacheLine("--no-result-cache"), "");
}

TEST(UnitResultCache, AHitSaysWhatTheAnalysisSaidOnStderr) {
  // Clang's "N warnings generated." (-Wall and an unused variable) is said
  // on stderr by the parse; a hit, which parses nothing, says it again.
  Project P;
  P.Dir.write("src/k.cu", Kernel + "void unusedLocal() { int unused; }\n");
  auto Stderr = [&](const std::string &Args) {
    return runCommand("(cd " + shellQuote(P.Dir.path().string()) + " && OCCLINT_CACHE_DIR=" + shellQuote(P.cache()) +
                          " " + shellQuote(OCCLINT_BINARY) + " --no-compile --gpu H100 " + Args +
                          " src/k.cu -- -DGRID=2 -Wall 2>&1 >/dev/null)",
                      /*MergeStderr=*/false)
        .output;
  };
  const std::string Cold = Stderr("--no-result-cache");
  EXPECT_NE(Cold.find("1 warning generated"), std::string::npos) << Cold;
  EXPECT_EQ(Stderr(""), Cold); // analysed and stored
  EXPECT_TRUE(hit(P.cacheLine("", "-DGRID=2 -Wall")));
  EXPECT_EQ(Stderr(""), Cold); // from the cache
}

TEST(UnitResultCache, AnEditedHeaderMisses) {
  Project P;
  EXPECT_TRUE(miss(P.cacheLine()));
  EXPECT_TRUE(hit(P.cacheLine()));
  writeFile(P.header, "#define THREADS 96\n");
  EXPECT_TRUE(miss(P.cacheLine()));
  const CommandResult After = P.run();
  EXPECT_EQ(After.output.find("block of 100 threads"), std::string::npos) << After.output;
  // Back as it was: a miss too (an entry holds the latest analysis of its
  // key, which was of the other content).
  writeFile(P.header, "#define THREADS 100\n");
  EXPECT_TRUE(miss(P.cacheLine()));
  EXPECT_NE(P.run().output.find("block of 100 threads"), std::string::npos);
}

TEST(UnitResultCache, TheCommandTheConfigurationAndTheGpusAreInTheKey) {
  Project P;
  EXPECT_TRUE(miss(P.cacheLine()));
  EXPECT_TRUE(hit(P.cacheLine()));
  // The command.
  EXPECT_TRUE(miss(P.cacheLine("", "-DGRID=4")));
  EXPECT_TRUE(hit(P.cacheLine("", "-DGRID=4")));
  // --gpu.
  EXPECT_TRUE(miss(P.cacheLine("--gpu A100")));
  // A check option on the command line, then the same in a .clang-tidy file.
  const std::string Config = "--config=\"{CheckOptions: {cuda-launch-tiny-grid.MinIdlePercent: '20'}}\"";
  EXPECT_TRUE(miss(P.cacheLine(Config)));
  EXPECT_TRUE(hit(P.cacheLine(Config)));
  EXPECT_TRUE(hit(P.cacheLine()));
  P.Dir.write(".clang-tidy", "Checks: '-*,cuda-launch-block-not-warp-multiple'\n");
  EXPECT_TRUE(miss(P.cacheLine()));
  EXPECT_TRUE(hit(P.cacheLine()));
  P.Dir.write(".clang-tidy", "Checks: '-*,cuda-*'\n");
  EXPECT_TRUE(miss(P.cacheLine()));
  // A setting that changes findings (--strict-parse).
  EXPECT_TRUE(miss(P.cacheLine("--strict-parse")));
}

TEST(UnitResultCache, AnotherPtxasReportMisses) {
  Project P;
  const std::string Log = P.Dir.write("ptxas.log", "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                                                   "ptxas info    : Used 32 registers\n");
  const std::string Args = "--ptxas-log " + shellQuote(Log);
  EXPECT_TRUE(miss(P.cacheLine(Args)));
  EXPECT_TRUE(hit(P.cacheLine(Args)));
  writeFile(Log, "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                 "ptxas info    : Used 200 registers\n");
  EXPECT_TRUE(miss(P.cacheLine(Args)));
}

TEST(UnitResultCache, AnotherBuildOfOcclintMisses) {
  Project P;
  EXPECT_TRUE(miss(P.cacheLine()));
  // The same program with one byte more: another executable, as a rebuild
  // with another analysis would be. Beside the original, so that it finds
  // the same built-in headers.
  const fs::path Copy = fs::path(OCCLINT_BINARY).parent_path() / ("occlint-copy-" + std::to_string(::getpid()));
  fs::copy_file(OCCLINT_BINARY, Copy, fs::copy_options::overwrite_existing);
  std::ofstream(Copy, std::ios::app | std::ios::binary) << '\n';
  const std::string Line = P.cacheLine("", "-DGRID=2", Copy.string());
  std::error_code Ignored;
  fs::remove(Copy, Ignored);
  EXPECT_TRUE(miss(Line)) << Line;
  EXPECT_TRUE(hit(P.cacheLine()));
}

TEST(UnitResultCache, ACorruptEntryIsIgnoredWithOneNote) {
  Project P;
  EXPECT_TRUE(miss(P.cacheLine()));
  const CommandResult Cold = P.run("--no-result-cache");
  for (const fs::directory_entry &E : fs::recursive_directory_iterator(P.cache()))
    if (E.is_regular_file() && E.path().extension() == ".json")
      writeFile(E.path(), readFile(E.path()).substr(0, 40)); // cut short
  CommandResult R =
      runCommand("cd " + shellQuote(P.Dir.path().string()) + " && OCCLINT_CACHE_DIR=" + shellQuote(P.cache()) + " " +
                 shellQuote(OCCLINT_BINARY) + " --no-compile --gpu H100 src/k.cu -- -DGRID=2 2>&1 >/dev/null | cat");
  EXPECT_NE(R.output.find("a result-cache entry that is not whole was ignored"), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("was ignored"), R.output.rfind("was ignored")) << "one note: " << R.output;
  EXPECT_EQ(P.run().output, Cold.output);
  EXPECT_TRUE(hit(P.cacheLine()));
}

TEST(UnitResultCache, TwoRunsAtOnceOnOneCacheAreBothRight) {
  Project P;
  const CommandResult Cold = P.run("--no-result-cache --format=json");
  for (int Round = 0; Round < 3; ++Round) {
    auto A = std::async(std::launch::async, [&] { return P.run("--format=json"); });
    auto B = std::async(std::launch::async, [&] { return P.run("--format=json"); });
    EXPECT_EQ(A.get().output, Cold.output);
    EXPECT_EQ(B.get().output, Cold.output);
  }
  EXPECT_TRUE(hit(P.cacheLine("--format=json")));
}

// `occlint report` uses the cache too: its page from the cache equals the
// page without it, and the file's entry is renewed by the second report.
TEST(UnitResultCache, TheReportUsesIt) {
  Project P;
  auto Report = [&](const std::string &Args) {
    runCommand("cd " + shellQuote(P.Dir.path().string()) + " && OCCLINT_CACHE_DIR=" + shellQuote(P.cache()) + " " +
               shellQuote(OCCLINT_BINARY) + " report --no-compile --gpu H100 --markdown page.md " + Args +
               " src/k.cu -- -DGRID=2");
    return readFile(P.Dir.path() / "page.md");
  };
  const std::string Cold = Report("--no-result-cache");
  EXPECT_NE(Cold.find("block of 100 threads"), std::string::npos) << Cold;
  EXPECT_TRUE(miss(P.cacheLine())); // the report without the cache stored nothing
  std::vector<fs::path> Entries;
  for (const fs::directory_entry &E : fs::directory_iterator(fs::path(P.cache()) / "v1"))
    if (readFile(E.path()).find("occlint-unit-result") != std::string::npos)
      Entries.push_back(E.path());
  ASSERT_EQ(Entries.size(), 1u);
  const auto DayAgo = fs::file_time_type::clock::now() - std::chrono::hours(24);
  fs::last_write_time(Entries.front(), DayAgo);
  EXPECT_EQ(Report(""), Cold);
  EXPECT_GT(fs::last_write_time(Entries.front()), DayAgo + std::chrono::hours(1)) << "the report was a hit";
}

TEST(UnitResultCache, ARunKeepsTheCacheWithinItsSize) {
  Project P;
  // 1.5 MB of old entries (as an earlier run would have left them), for a
  // limit of 1 MB.
  const fs::path Entries = fs::path(P.cache()) / "v1";
  fs::create_directories(Entries);
  const auto LongAgo = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (int I = 0; I < 15; ++I) {
    const fs::path Old = Entries / ("old" + std::to_string(I) + ".json");
    writeFile(Old, std::string(100 * 1024, ' '));
    fs::last_write_time(Old, LongAgo + std::chrono::seconds(I));
  }
  CommandResult R = runCommand("cd " + shellQuote(P.Dir.path().string()) + " && OCCLINT_CACHE_MAX_MB=1 " +
                               "OCCLINT_CACHE_DIR=" + shellQuote(P.cache()) + " " + shellQuote(OCCLINT_BINARY) +
                               " --no-compile --gpu H100 src/k.cu -- -DGRID=2");
  uint64_t Total = 0;
  for (const fs::directory_entry &E : fs::directory_iterator(Entries))
    Total += E.file_size();
  EXPECT_LE(Total, uint64_t(1) << 20) << R.output;
  EXPECT_FALSE(fs::exists(Entries / "old0.json")) << "the least recently used go first";
  EXPECT_TRUE(fs::exists(Entries / "old14.json")) << "down to 90 % of the limit, not further";
  EXPECT_TRUE(hit(P.cacheLine())) << "this run's own entry stays";
  // A limit that is not a number: said, and the default kept.
  R = runCommand("cd " + shellQuote(P.Dir.path().string()) +
                 " && OCCLINT_CACHE_MAX_MB=lots OCCLINT_CACHE_DIR=" + shellQuote(P.cache()) + " " +
                 shellQuote(OCCLINT_BINARY) + " --no-compile --gpu H100 src/k.cu -- -DGRID=2");
  EXPECT_NE(R.output.find("OCCLINT_CACHE_MAX_MB is not a positive whole number"), std::string::npos) << R.output;
}

} // namespace
