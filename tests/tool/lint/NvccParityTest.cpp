// The nvcc compatibility layer (docs/nvcc-parity.md): every input of
// test-inputs/nvcc-parity/ is code nvcc 13 compiles and Clang 22 alone
// rejects; with occlint's prelude and flags the ones at the top level parse
// with no error (their static_asserts check that overloads resolve as under
// nvcc), and the ones in degraded/ are what no declaration can fix.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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

TEST(NvccParity, TheInputsExist) {
  EXPECT_GE(inputs(Inputs).size(), 4u);
  EXPECT_GE(inputs(Inputs / "degraded").size(), 2u);
}

TEST(NvccParity, ClangAloneRejectsEveryInput) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  for (const fs::path &Dir : {Inputs, Inputs / "degraded"})
    for (const fs::path &File : inputs(Dir)) {
      CommandResult R = runCommand(std::string(OCCLINT_CLANGXX) + " -fsyntax-only --cuda-device-only "
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

TEST(NvccParity, OcclintParsesWhatThePreludeCovers) {
  if (!haveToolkit())
    GTEST_SKIP() << "no CUDA toolkit at " OCCLINT_CUDA_PATH;
  for (const fs::path &File : inputs(Inputs)) {
    CommandResult R = runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH
                                 " " + shellQuote(File.string()) + " -- " + flagsOf(File));
    EXPECT_EQ(R.exitCode, 0) << File << "\n" << R.output;
    EXPECT_EQ(R.output.find("error:"), std::string::npos) << File << "\n" << R.output;
  }
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
  CommandResult Occlint = runCommand(std::string(OCCLINT_BINARY) + " --no-compile --quiet --cuda-path=" OCCLINT_CUDA_PATH
                                     " " + shellQuote(File.string()) + " --");
  fs::remove_all(Dir);
  EXPECT_NE(Nvcc.exitCode, 0) << Nvcc.output;
  EXPECT_EQ(Occlint.exitCode, 2) << Occlint.output;
  EXPECT_NE(Occlint.output.find("error:"), std::string::npos) << Occlint.output;
}

} // namespace
