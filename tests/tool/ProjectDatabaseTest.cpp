// occlint -p DIR: compile_commands.json written for nvcc (as CMake writes it)
// is translated for Clang, and with no files every CUDA translation unit runs.
#include "CommandRunner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

class ProjectDatabase : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = fs::path(::testing::TempDir()) / ("occlint-project-" + std::to_string(::getpid()));
    fs::remove_all(Dir);
    fs::create_directories(Dir);
    std::ofstream(Dir / "launch.cu") << "#include <cuda_runtime.h>\n"
                                        "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n"
                                        "void run(float *p) { k<<<8, 100>>>(p); }\n";
    std::ofstream(Dir / "host.cpp") << "int main() { return 0; }\n";
  }
  void TearDown() override { fs::remove_all(Dir); }

  void writeDatabase(const std::string &CudaCommand) {
    std::ofstream(Dir / "compile_commands.json")
        << "[{\"directory\": \"" << Dir.string() << "\", \"command\": \"" << CudaCommand
        << "\", \"file\": \"" << (Dir / "launch.cu").string() << "\"},\n"
        << " {\"directory\": \"" << Dir.string() << "\", \"command\": \"g++ -c host.cpp -o host.o\", \"file\": \""
        << (Dir / "host.cpp").string() << "\"}]\n";
  }

  CommandResult occlint(const std::string &Args) {
    return runCommand(shellQuote(OCCLINT_BINARY) + " " + Args);
  }

  fs::path Dir;
};

TEST_F(ProjectDatabase, CMakeNvccCommandIsTranslatedAndEveryCudaFileRuns) {
  // The command line CMake 3.25 writes for nvcc 13 (CMAKE_CUDA_ARCHITECTURES 80).
  writeDatabase("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 -O3 -DNDEBUG "
                "--generate-code=arch=compute_80,code=[compute_80,sm_80] -maxrregcount=64 --use_fast_math "
                "-lineinfo --expt-relaxed-constexpr -std=c++17 -x cu -c launch.cu -o CMakeFiles/a.dir/launch.cu.o");
  CommandResult R = occlint("-p " + shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("launch.cu:3:29: warning: block of 100 threads"), std::string::npos) << R.output;
  EXPECT_EQ(R.output.find("host.cpp"), std::string::npos) << R.output; // not a CUDA translation unit
  EXPECT_EQ(R.output.find("error:"), std::string::npos) << R.output;
}

TEST_F(ProjectDatabase, ADatabaseWithoutCudaIsAnInputError) {
  std::ofstream(Dir / "compile_commands.json") << "[{\"directory\": \"" << Dir.string()
                                               << "\", \"command\": \"g++ -c host.cpp\", \"file\": \"host.cpp\"}]\n";
  CommandResult R = occlint("-p " + shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("has no CUDA translation unit"), std::string::npos) << R.output;
}

TEST(ProjectDatabaseErrors, MissingDirectoryAndMissingFile) {
  CommandResult NoDir = runCommand(shellQuote(OCCLINT_BINARY) + " -p /nonexistent/build");
  EXPECT_EQ(NoDir.exitCode, 2) << NoDir.output;
  EXPECT_NE(NoDir.output.find("/nonexistent/build: no compile_commands.json"), std::string::npos) << NoDir.output;
  CommandResult NoFile = runCommand(shellQuote(OCCLINT_BINARY) + " /nonexistent/k.cu --");
  EXPECT_EQ(NoFile.exitCode, 2) << NoFile.output;
  EXPECT_NE(NoFile.output.find("/nonexistent/k.cu: no such file"), std::string::npos) << NoFile.output;
}

TEST(LintErrors, AFileClangCannotParseIsAnInputError) {
  const fs::path Bad = fs::path(::testing::TempDir()) / "occlint-broken.cu";
  std::ofstream(Bad) << "__global__ void k( { }\n";
  CommandResult R = runCommand(shellQuote(OCCLINT_BINARY) + " " + shellQuote(Bad.string()) + " --");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("error:"), std::string::npos) << R.output;
  fs::remove(Bad);
}

} // namespace
