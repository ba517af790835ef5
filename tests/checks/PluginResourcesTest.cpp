// Inside clang-tidy --load the checks have no occlint binary to compile the
// file: they read the latest report occlint's cache holds for it (the
// `ReadCache` option, on by default), and say so when there is none or it is
// stale. The cache entry is written here with the same API the compile uses
// (ResourceCompiler's latestReportKey), from a real ptxas log, so the test
// needs no CUDA toolkit.
#include "CommandRunner.h"
#include "TestFiles.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/ResultCache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path ChecksDir = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks";

CommandResult clangTidy(const fs::path &CacheDir, const fs::path &Source, const std::string &Config = "") {
  return runCommand(
      "OCCLINT_CACHE_DIR=" + shellQuote(CacheDir.string()) + " " + shellQuote(OCCLINT_CLANG_TIDY) +
      " --quiet --load=" + shellQuote(OCCLINT_PLUGIN) +
      " --checks='-*,cuda-occupancy-spills' --config=" + shellQuote("{CheckOptions: {Targets: H100" + Config + "}}") +
      " " + shellQuote(Source.string()) + " -- -nocudainc -nocudalib -I" +
      shellQuote(std::string(OCCLINT_SOURCE_DIR) + "/tool/builtin-cuda") + " --cuda-device-only --cuda-gpu-arch=sm_90");
}

} // namespace

TEST(PluginResources, ReadsOcclintsCacheAndSaysWhenItHasNone) {
  ScratchDir Dir;
  const fs::path Cache = Dir.path() / "cache";
  const fs::path Source = Dir.path() / "occupancy-spills.cu";
  fs::copy_file(ChecksDir / "occupancy-spills.cu", Source);

  // No entry: the spills check says it cannot check, once, at the first kernel.
  CommandResult Empty = clangTidy(Cache, Source);
  EXPECT_NE(Empty.output.find("remark: spills cannot be checked on sm_90: no ptxas report (occlint's cache has "
                              "none that is current for this file on sm_90"),
            std::string::npos)
      << Empty.output;
  EXPECT_EQ(Empty.output.find("warning:"), std::string::npos) << Empty.output;

  // The entry occlint's device compile leaves: the plugin reports the spills.
  const std::string Log = readFile(ChecksDir / "ptxas" / "occupancy-spills.sm_90.log");
  ASSERT_FALSE(Log.empty());
  ASSERT_TRUE(occlint::ResultCache(Cache.string())
                  .store(occlint::latestReportKey(Source.string(), "sm_90"), {Source.string()}, Log));
  CommandResult Cached = clangTidy(Cache, Source);
  EXPECT_NE(Cached.output.find("warning: 'forcedByBounds' spills registers on sm_90"), std::string::npos)
      << Cached.output;
  EXPECT_NE(Cached.output.find("ptxas, sm_90"), std::string::npos) << Cached.output;
  EXPECT_EQ(Cached.output.find("cannot be checked"), std::string::npos) << Cached.output;

  // ReadCache: false turns it off.
  CommandResult Off = clangTidy(Cache, Source, ", ReadCache: false");
  EXPECT_EQ(Off.output.find("warning: 'forcedByBounds' spills registers on sm_90"), std::string::npos) << Off.output;
  EXPECT_NE(Off.output.find("cannot be checked"), std::string::npos) << Off.output;

  // An edited source makes the entry stale: a miss, said as such.
  std::ofstream(Source, std::ios::app) << "\n// edited\n";
  CommandResult Stale = clangTidy(Cache, Source);
  EXPECT_EQ(Stale.output.find("warning: 'forcedByBounds' spills registers on sm_90"), std::string::npos)
      << Stale.output;
  EXPECT_NE(Stale.output.find("cannot be checked on sm_90"), std::string::npos) << Stale.output;
}

TEST(PluginResources, BadReadCacheValueIsAConfigurationError) {
  ScratchDir Dir;
  CommandResult R = clangTidy(Dir.path(), ChecksDir / "occupancy-spills.cu", ", ReadCache: sometimes");
  EXPECT_NE(R.output.find("invalid configuration value 'sometimes' for option 'ReadCache'; expected a bool"),
            std::string::npos)
      << R.output;
}
