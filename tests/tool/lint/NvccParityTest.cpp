// The nvcc compatibility layer (docs/nvcc-parity.md): every input of
// test-inputs/nvcc-parity/ is code nvcc 13 compiles and Clang 22 alone
// rejects; with occlint's prelude and flags the ones at the top level parse
// with no error (their static_asserts check that overloads resolve as under
// nvcc; a __shared__ object with a constructor is parsed again with its
// declaration rewritten), and the ones in degraded/ are what occlint cannot fix.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

const fs::path Inputs = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "nvcc-parity";

bool haveToolkit() { return fs::exists(fs::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc"); }

std::vector<fs::path> inputs(const fs::path &Dir) {
  std::vector<fs::path> Out;
  for (const auto &Entry : fs::directory_iterator(Dir))
    if (Entry.path().extension() == ".cu")
      Out.push_back(Entry.path());
  std::sort(Out.begin(), Out.end());
  return Out;
}

// The input's "// flags: ..." line: what its compile command would carry.
std::string flagsOf(const fs::path &File) {
  std::smatch M;
  const std::string Text = readFile(File);
  static const std::regex Flags(R"(// flags: ([^\n]*))");
  return std::regex_search(Text, M, Flags) ? M[1].str() : "";
}

// own-files/main.cu's nvcc compile command, as CMake writes it, in Dir.
void writeOwnFilesDatabase(const fs::path &Dir, const std::string &Include) {
  const fs::path Own = Inputs / "own-files";
  writeFile(Dir / "compile_commands.json",
            "[{\"directory\": \"" + Own.string() + "\", \"file\": \"" + (Own / "main.cu").string() +
                "\", \"arguments\": [\"" OCCLINT_CUDA_PATH "/bin/nvcc\", \"-std=c++17\", \"" + Include +
                "\", \"-arch=sm_90\", \"-c\", \"main.cu\", \"-o\", \"" + (Dir / "main.o").string() + "\"]}]\n");
}

TEST(NvccParity, TheInputsExist) {
  EXPECT_GE(inputs(Inputs).size(), 4u);
  EXPECT_GE(inputs(Inputs / "degraded").size(), 1u);
}

TEST(NvccParity, ClangAloneRejectsEveryInput) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  for (const fs::path &Dir : {Inputs, Inputs / "degraded"})
    for (const fs::path &File : inputs(Dir)) {
      CommandResult R =
          runCommand(std::string(OCCLINT_CLANGXX) +
                     " -fsyntax-only --cuda-device-only "
                     "--cuda-gpu-arch=sm_90 --cuda-path=" OCCLINT_CUDA_PATH " -Wno-unknown-cuda-version " +
                     flagsOf(File) + " " + shellQuote(File.string()));
      EXPECT_NE(R.exitCode, 0) << File << " parses with Clang alone: it shows no gap\n" << R.output;
    }
}

TEST(NvccParity, NvccCompilesEveryInput) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  for (const fs::path &Dir : {Inputs, Inputs / "degraded"})
    for (const fs::path &File : inputs(Dir)) {
      CommandResult R = runCommand(std::string(OCCLINT_CUDA_PATH) + "/bin/nvcc --cubin -arch=sm_90 -o /dev/null " +
                                   flagsOf(File) + " " + shellQuote(File.string()));
      EXPECT_EQ(R.exitCode, 0) << File << "\n" << R.output;
    }
}

// The async-copy test inputs (test-inputs/checks/pipeline-*.cu: every form of
// docs/async-pipelines.md section 2, right and broken) are CUDA that nvcc
// accepts, not only what Clang parses: compiled for sm_90 (TMA included),
// to a relocatable cubin (-rdc: pipeline-tma-ptx-api.cu declares cuda::ptx's wrappers
// without their bodies).
TEST(NvccParity, NvccCompilesEveryAsyncPipelineInput) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  std::vector<fs::path> Pipelines;
  for (const fs::path &File : inputs(Inputs.parent_path() / "checks"))
    if (File.filename().string().rfind("pipeline-", 0) == 0)
      Pipelines.push_back(File);
  ASSERT_GE(Pipelines.size(), 10u);
  for (const fs::path &File : Pipelines) {
    CommandResult R =
        runCommand(std::string(OCCLINT_CUDA_PATH) + "/bin/nvcc --cubin -rdc=true -arch=sm_90 -std=c++17 -o /dev/null " +
                   shellQuote(File.string()));
    EXPECT_EQ(R.exitCode, 0) << File << "\n" << R.output;
  }
}

TEST(NvccParity, OcclintParsesWhatThePreludeCovers) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  for (const fs::path &File : inputs(Inputs)) {
    CommandResult R =
        runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH " " +
                   shellQuote(File.string()) + " -- " + flagsOf(File));
    EXPECT_EQ(R.exitCode, 0) << File << "\n" << R.output;
    EXPECT_EQ(R.output.find("error:"), std::string::npos) << File << "\n" << R.output;
  }
}

// A __shared__ cuda::barrier and cuda::pipeline_shared_state: the second
// parse (lint/SharedDeclarationOverlay.h) analyses the kernels: their async
// copies are recognised with the ring's depth (in the first parse they are
// RecoveryExprs), and the shared memory counts the objects.
TEST(NvccParity, SharedObjectsWithAConstructorAreAnalysed) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  const fs::path File = Inputs / "shared-barrier-pipeline.cu";
  const std::string Command = std::string(OCCLINT_BINARY) +
                              " --no-compile --quiet --gpu=H100 --cuda-path=" OCCLINT_CUDA_PATH " " +
                              shellQuote(File.string()) + " -- " + flagsOf(File);
  CommandResult Text = runCommand(Command);
  EXPECT_EQ(Text.exitCode, 0) << Text.output;
  EXPECT_EQ(Text.output.find("cannot parse"), std::string::npos) << Text.output;
  EXPECT_EQ(Text.output.find("error"), std::string::npos) << Text.output; // nor "N errors generated"

  CommandResult Json = runCommand(std::string(OCCLINT_BINARY) +
                                  " --no-compile --quiet --gpu=H100 --format=json --cuda-path=" OCCLINT_CUDA_PATH
                                  " --checks=-*,cuda-occupancy-report " +
                                  shellQuote(File.string()) + " -- " + flagsOf(File));
  const nlohmann::json Run = nlohmann::json::parse(Json.output, nullptr, false);
  ASSERT_FALSE(Run.is_discarded()) << Json.output;
  std::map<std::string, nlohmann::json> Kernels;
  for (const nlohmann::json &K : Run["kernels"])
    Kernels[K["name"].get<std::string>()] = K;
  ASSERT_TRUE(Kernels.count("barrierCopy") && Kernels.count("pipelineCopy")) << Json.output;
  const nlohmann::json &Barrier = Kernels["barrierCopy"]["pipeline"];
  EXPECT_EQ(Barrier["forms"], nlohmann::json::array({"cuda::barrier"})) << Barrier;
  EXPECT_EQ(Barrier["stages"], 2) << Barrier;
  EXPECT_EQ(Barrier["bytesPerStage"], 1024) << Barrier;
  const nlohmann::json &Pipeline = Kernels["pipelineCopy"]["pipeline"];
  EXPECT_EQ(Pipeline["forms"], nlohmann::json::array({"cuda::pipeline"})) << Pipeline;
  EXPECT_EQ(Pipeline["stages"], 2) << Pipeline;
  EXPECT_EQ(Pipeline["bytesPerStage"], 1024) << Pipeline;
  // TMA (cuda::device::memcpy_async_tx): its ring read, its hazards not checked.
  const nlohmann::json &Tma = Kernels["barrierTmaCopy"]["pipeline"];
  EXPECT_EQ(Tma["forms"], nlohmann::json::array({"cp.async.bulk (TMA)", "cuda::barrier"})) << Tma;
  EXPECT_EQ(Tma["stages"], 2) << Tma;
  EXPECT_EQ(Tma["bytesPerStage"], 1024) << Tma;
  EXPECT_NE(Tma["hazardsNotModelled"].get<std::string>().find("TMA"), std::string::npos) << Tma;
  // The ring (2 x 1024 B) and the barrier object: more than the ring alone.
  EXPECT_GT(Kernels["barrierCopy"]["staticSharedMemoryBytes"].get<int64_t>(), 2048) << Kernels["barrierCopy"];
}

// The layer must not make occlint accept what nvcc rejects: a call that is
// ambiguous under nvcc (min(int, float) has no best overload among nvcc's)
// stays an error.
TEST(NvccParity, WhatNvccRejectsStaysAnError) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  const fs::path Dir = fs::temp_directory_path() / ("occlint-nvcc-parity-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  const fs::path File = Dir / "ambiguous.cu";
  writeFile(File, "float pick(int a, float b) { return min(a, b); }\n__global__ void k() {}\n");
  CommandResult Nvcc = runCommand(std::string(OCCLINT_CUDA_PATH) + "/bin/nvcc --cubin -arch=sm_90 -o /dev/null " +
                                  shellQuote(File.string()));
  CommandResult Occlint =
      runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH " " +
                 shellQuote(File.string()) + " --");
  fs::remove_all(Dir);
  EXPECT_NE(Nvcc.exitCode, 0) << Nvcc.output;
  EXPECT_EQ(Occlint.exitCode, 2) << Occlint.output;
  EXPECT_NE(Occlint.output.find("error:"), std::string::npos) << Occlint.output;
}

// nvcc defines __NVCC__; occlint defines it in the project's own files of an
// nvcc build only (checks/NvccMacroInOwnFiles.h). own-files/main.cu includes
// a header of its own that picks CUDA or HIP by __NVCC__ and a library header
// through -I that must not see it; each #errors when it sees the wrong thing.
TEST(NvccParity, OwnFilesOfAnNvccBuildSeeNvccMacroAndLibraryHeadersDoNot) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  const fs::path Own = Inputs / "own-files";
  const fs::path Main = Own / "main.cu";
  const std::string Include = "-I" + (Own / "library").string();
  const fs::path Dir = fs::temp_directory_path() / ("occlint-nvcc-own-files-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  writeOwnFilesDatabase(Dir, Include);

  CommandResult Nvcc = runCommand(std::string(OCCLINT_CUDA_PATH) + "/bin/nvcc --cubin -arch=sm_90 -std=c++17 " +
                                  shellQuote(Include) + " -o /dev/null " + shellQuote(Main.string()));
  EXPECT_EQ(Nvcc.exitCode, 0) << Nvcc.output;
  CommandResult ClangAlone =
      runCommand(std::string(OCCLINT_CLANGXX) +
                 " -fsyntax-only --cuda-device-only "
                 "--cuda-gpu-arch=sm_90 --cuda-path=" OCCLINT_CUDA_PATH " -Wno-unknown-cuda-version -std=c++17 " +
                 shellQuote(Include) + " " + shellQuote(Main.string()));
  EXPECT_NE(ClangAlone.exitCode, 0) << "Clang alone parses the HIP branch\n" << ClangAlone.output;
  EXPECT_NE(ClangAlone.output.find("hip/hip_runtime.h"), std::string::npos) << ClangAlone.output;

  // The nvcc build: the own header takes its CUDA branch, the library header
  // sees no __NVCC__.
  CommandResult FromNvccBuild =
      runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH " -p " +
                 shellQuote(Dir.string()) + " " + shellQuote(Main.string()));
  EXPECT_EQ(FromNvccBuild.exitCode, 0) << FromNvccBuild.output;
  EXPECT_EQ(FromNvccBuild.output.find("error"), std::string::npos) << FromNvccBuild.output;

  // The same flags as a Clang command (files plus flags): the build is not
  // nvcc's, so nothing defines __NVCC__ and the HIP branch is read.
  CommandResult ClangCommand =
      runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH " " +
                 shellQuote(Main.string()) + " -- -std=c++17 " + shellQuote(Include));
  EXPECT_EQ(ClangCommand.exitCode, 2) << ClangCommand.output;
  EXPECT_NE(ClangCommand.output.find("hip/hip_runtime.h"), std::string::npos) << ClangCommand.output;

  fs::remove_all(Dir);
}

// The same inside clang-tidy with the plugin, on the database `occlint compdb`
// writes from the nvcc build: the checks define __NVCC__ there too.
TEST(NvccParity, ClangTidyPluginOnACompdbDatabaseSeesNvccMacroInOwnFilesOnly) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  const fs::path Own = Inputs / "own-files";
  const fs::path Main = Own / "main.cu";
  const std::string Include = "-I" + (Own / "library").string();
  const fs::path Dir = fs::temp_directory_path() / ("occlint-nvcc-own-files-tidy-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  writeOwnFilesDatabase(Dir, Include);
  CommandResult Compdb = runCommand(std::string(OCCLINT_BINARY) + " compdb -p " + shellQuote(Dir.string()) + " -o " +
                                    shellQuote((Dir / "clang").string()));
  EXPECT_EQ(Compdb.exitCode, 0) << Compdb.output;
  CommandResult Tidy = runCommand(std::string(OCCLINT_CLANG_TIDY) + " --load=" OCCLINT_PLUGIN " -checks=-*,cuda-* -p " +
                                  shellQuote((Dir / "clang").string()) + " " + shellQuote(Main.string()));
  EXPECT_EQ(Tidy.exitCode, 0) << Tidy.output;
  EXPECT_EQ(Tidy.output.find("error:"), std::string::npos) << Tidy.output;
  fs::remove_all(Dir);
}

} // namespace
