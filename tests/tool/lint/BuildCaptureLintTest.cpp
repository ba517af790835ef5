// Issue 17, items 1 and 2 end to end: the bundled CMake project built with
// occlint-wrap as its CUDA compiler launcher prints the same build log as the
// plain build, and `occlint -p` on it afterwards takes every kernel's
// registers from the build's sidecars, starting no compiler (its toolkit's
// nvcc is a script that leaves a mark when it runs for a compile).
#include "BundledProjectDatabase.h"
#include "CommandRunner.h"
#include "FakeToolkit.h"
#include "TestFiles.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

using namespace occlint::testing;
namespace fs = std::filesystem;

namespace {

std::string nvcc() { return (fs::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc").string(); }

/// Configures and builds test-inputs/project in Build (the build step with
/// Environment, `NAME=value ` assignments); the build's output.
CommandResult buildProject(const fs::path &Build, const std::string &Launcher, const std::string &Environment) {
  const std::string Configure = "cmake -S " + shellQuote(bundledProjectDir().string()) + " -B " +
                                shellQuote(Build.string()) + " -G Ninja -DCMAKE_CUDA_COMPILER=" + shellQuote(nvcc()) +
                                (Launcher.empty() ? "" : " -DCMAKE_CUDA_COMPILER_LAUNCHER=" + shellQuote(Launcher));
  const CommandResult Configured = runCommand(Configure);
  if (Configured.exitCode != 0)
    return Configured;
  return runCommand(Environment + "cmake --build " + shellQuote(Build.string()) + " -j 1");
}

TEST(BuildCaptureLint, WrappedBuildPrintsThePlainLogAndOcclintThenStartsNoCompiler) {
  if (!fs::exists(nvcc()))
    GTEST_FAIL() << "no nvcc at " << nvcc() << ": this test needs the CUDA toolkit";
  ScratchDir Dir;
  const std::string Environment = "OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " ";
  const CommandResult Plain = buildProject(Dir.path() / "b", "", Environment);
  ASSERT_EQ(Plain.exitCode, 0) << Plain.output;
  fs::rename(Dir.path() / "b", Dir.path() / "plain");
  // The same directory name, so that the two logs can be compared as they are.
  const CommandResult Wrapped = buildProject(Dir.path() / "b", OCCLINT_WRAP_BINARY, Environment);
  ASSERT_EQ(Wrapped.exitCode, 0) << Wrapped.output;
  EXPECT_EQ(Wrapped.output, Plain.output);
  EXPECT_TRUE(fs::exists(Dir.path() / "b" / "CMakeFiles" / "kernels.dir" / "src" / "reduce.cu.o.occlint.json"));

  // A toolkit whose nvcc marks every compile it is asked for.
  const std::string Mark = (Dir.path() / "nvcc-ran").string();
  const std::string Toolkit = writeFakeToolkit(Dir, "touch " + shellQuote(Mark) + "\nexit 1\n");
  const CommandResult Lint =
      runCommand(Environment + shellQuote(OCCLINT_BINARY) + " --gpu H100 --format json --cuda-path " +
                     shellQuote(Toolkit) + " -p " + shellQuote((Dir.path() / "b").string()),
                 /*MergeStderr=*/false);
  EXPECT_FALSE(fs::exists(Mark)) << "occlint ran the compiler";
  const nlohmann::json Out = nlohmann::json::parse(Lint.output, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(Out.is_object()) << Lint.output;
  unsigned Launches = 0;
  for (const nlohmann::json &L : Out.at("launches")) {
    if (!L.at("resources").is_object())
      continue; // a kernel defined in another file
    ++Launches;
    EXPECT_TRUE(L.at("resources").at("registersKnown").get<bool>()) << L.dump();
    EXPECT_NE(L.at("resources").at("resourceSource").get<std::string>().find("from the build"), std::string::npos)
        << L.dump();
  }
  EXPECT_GT(Launches, 3u);
}

} // namespace

namespace {

// `occlint wrap` is the same launcher, from the main binary ("occlint;wrap"
// as CMAKE_CUDA_COMPILER_LAUNCHER): the compile's output unchanged, the sidecar
// written with the kernel's report.
TEST(BuildCaptureLint, OcclintWrapSubcommandIsTheLauncher) {
  if (!fs::exists(nvcc()))
    GTEST_FAIL() << "no nvcc at " << nvcc() << ": this test needs the CUDA toolkit";
  ScratchDir Dir;
  const std::string Source = Dir.write("k.cu", "__global__ void scale(float *p, float f) { p[threadIdx.x] *= f; }\n");
  const std::string Object = (Dir.path() / "k.o").string();
  const std::string Compile =
      shellQuote(nvcc()) + " -arch=sm_90 -c " + shellQuote(Source) + " -o " + shellQuote(Object);
  const CommandResult Plain = runCommand(Compile);
  ASSERT_EQ(Plain.exitCode, 0) << Plain.output;
  fs::remove(Object);
  const CommandResult Wrapped = runCommand("OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / "cache").string()) + " " +
                                           shellQuote(OCCLINT_BINARY) + " wrap " + Compile);
  EXPECT_EQ(Wrapped.exitCode, 0);
  EXPECT_EQ(Wrapped.output, Plain.output);
  EXPECT_TRUE(fs::exists(Object));
  const nlohmann::json Sidecar =
      nlohmann::json::parse(readFile(Object + ".occlint.json"), nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(Sidecar.is_object());
  ASSERT_TRUE(Sidecar.contains("ptxas") && Sidecar["ptxas"].contains("sm_90")) << Sidecar.dump();
  EXPECT_NE(Sidecar["ptxas"]["sm_90"].get<std::string>().find("_Z5scalePff"), std::string::npos) << Sidecar.dump();
}

} // namespace
