// occlint -p DIR: compile_commands.json written for nvcc (as CMake writes it)
// is translated for Clang, and with no files every CUDA translation unit runs.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

class ProjectDatabase : public ::testing::Test {
protected:
  void SetUp() override {
    std::ofstream(Dir / "launch.cu") << "#include <cuda_runtime.h>\n"
                                        "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n"
                                        "void run(float *p) { k<<<8, 100>>>(p); }\n";
    std::ofstream(Dir / "host.cpp") << "int main() { return 0; }\n";
  }
  void writeDatabase(const std::string &CudaCommand) {
    std::ofstream(Dir / "compile_commands.json")
        << "[{\"directory\": \"" << Dir.string() << "\", \"command\": \"" << CudaCommand << "\", \"file\": \""
        << (Dir / "launch.cu").string() << "\"},\n"
        << " {\"directory\": \"" << Dir.string() << "\", \"command\": \"g++ -c host.cpp -o host.o\", \"file\": \""
        << (Dir / "host.cpp").string() << "\"}]\n";
  }

  // compile_commands.json with one entry per (command, file), run in Dir.
  void writeEntries(const std::vector<std::pair<std::string, std::string>> &Entries) {
    std::ofstream Out(Dir / "compile_commands.json");
    Out << "[";
    for (size_t I = 0; I < Entries.size(); ++I)
      Out << (I ? ",\n" : "") << "{\"directory\": \"" << Dir.string() << "\", \"command\": \"" << Entries[I].first
          << "\", \"file\": \"" << (Dir / Entries[I].second).string() << "\"}";
    Out << "]\n";
  }

  CommandResult occlint(const std::string &Args) { return runCommand(shellQuote(OCCLINT_BINARY) + " " + Args); }

  ScratchDir Scratch;
  const fs::path Dir = Scratch.path();
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

static size_t count(const std::string &Text, const std::string &Part) {
  size_t N = 0;
  for (size_t At = Text.find(Part); At != std::string::npos; At = Text.find(Part, At + 1))
    ++N;
  return N;
}

TEST_F(ProjectDatabase, VerboseShowsEachArchsClangCommandAndWhatTheTranslationDropped) {
  writeDatabase("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 "
                "--generate-code=arch=compute_75,code=[compute_75,sm_75] "
                "--generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr "
                "-x cu -c launch.cu -o launch.o");
  CommandResult R = occlint("--verbose -p " + shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  const std::string File = (Dir / "launch.cu").string();
  EXPECT_NE(R.output.find("occlint: " + File + ": parse archs sm_75, sm_90 (from the compile command)\n"),
            std::string::npos)
      << R.output;
  for (const char *Arch : {"sm_75", "sm_90"})
    EXPECT_NE(R.output.find("occlint: " + File + " [" + Arch + "]: clang command: clang++ "), std::string::npos)
        << Arch << "\n"
        << R.output;
  const std::string Dropped = "dropped by the nvcc translation: -lineinfo, --expt-relaxed-constexpr\n";
  EXPECT_NE(R.output.find("occlint: " + File + ": " + Dropped), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("occlint: " + File + ": note: --expt-relaxed-constexpr"), std::string::npos) << R.output;
  // Two parses, one warning: identical diagnostics of the two passes are merged.
  EXPECT_EQ(count(R.output, "launch.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
}

TEST_F(ProjectDatabase, SymbolicArchIsParsedForTheDefaultWithANote) {
  writeDatabase("nvcc -arch=native -c launch.cu -o launch.o");
  CommandResult R = occlint("--verbose -p " + shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("parse archs sm_90 (from the default)"), std::string::npos) << R.output;
  EXPECT_NE(R.output.find("note: -arch=native names no arch occlint can know; parsing for sm_90"), std::string::npos)
      << R.output;
}

TEST_F(ProjectDatabase, ACuFileThatAnotherIncludesIsAnalysedOnlyThere) {
  std::ofstream(Dir / "unity.cu") << "#include \"launch.cu\"\n";
  writeEntries({{"nvcc -arch=sm_80 -c unity.cu", "unity.cu"}, {"nvcc -arch=sm_80 -c launch.cu", "launch.cu"}});
  CommandResult R = occlint("--checks=-*,cuda-launch-block-not-warp-multiple --verbose -p " + shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_NE(R.output.find("occlint: " + (Dir / "launch.cu").string() + ": skipped: #included by " +
                          (Dir / "unity.cu").string() + "\n"),
            std::string::npos)
      << R.output;
  EXPECT_EQ(count(R.output, "clang command: "), 1u) << R.output; // only unity.cu is parsed
  EXPECT_EQ(count(R.output, "launch.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
  EXPECT_NE(R.output.find("1 diagnostic in 1 file"), std::string::npos) << R.output;
  // For Clang launch.cu is a header of unity.cu's parse: shown whatever the header filter.
  R = occlint("--checks=-*,cuda-launch-block-not-warp-multiple --header-filter='^$' -p " + shellQuote(Dir.string()));
  EXPECT_EQ(count(R.output, "launch.cu:3:29: warning: block of 100 threads"), 1u) << R.output;
}

TEST_F(ProjectDatabase, AHeaderSeveralFilesIncludeReportsItsLaunchOnce) {
  std::ofstream(Dir / "launch.cuh") << "#pragma once\n"
                                       "__global__ void hk(float *p) { p[threadIdx.x] = 0; }\n"
                                       "inline void launchIt(float *p) { hk<<<2, 100>>>(p); }\n";
  std::ofstream(Dir / "a.cu") << "#include \"launch.cuh\"\nvoid a(float *p) { launchIt(p); }\n";
  std::ofstream(Dir / "b.cu") << "#include \"launch.cuh\"\nvoid b(float *p) { launchIt(p); }\n";
  writeEntries({{"nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -c a.cu", "a.cu"},
                {"nvcc -arch=sm_80 -c b.cu", "b.cu"}});
  CommandResult R = occlint("--checks=-*,cuda-launch-block-not-warp-multiple --verbose --header-filter='.*' -p " +
                            shellQuote(Dir.string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(count(R.output, "clang command: "), 2u + 1u) << R.output; // a.cu twice, b.cu once
  EXPECT_EQ(count(R.output, "launch.cuh:3:42: warning: block of 100 threads"), 1u) << R.output;
  EXPECT_NE(R.output.find("1 diagnostic in 2 files"), std::string::npos) << R.output;
}

TEST_F(ProjectDatabase, ADatabaseWithoutCudaIsAnInputError) {
  std::ofstream(Dir / "compile_commands.json")
      << "[{\"directory\": \"" << Dir.string() << "\", \"command\": \"g++ -c host.cpp\", \"file\": \"host.cpp\"}]\n";
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

// A response file larger than any real one (a program named as `@file`) is
// not read by Clang's expansion of the database's commands either: before,
// its megabytes were split into words for every command (6 s each; found by
// fuzz-compile-database). The argument stays, and the nvcc translator says
// what is wrong with it; a small response file is still expanded.
TEST_F(ProjectDatabase, AHugeResponseFileIsNotReadButNamed) {
  std::ofstream(Dir / "small.rsp") << "-DFROM_RSP=1\n";
  {
    std::ofstream Huge(Dir / "huge.rsp");
    const std::string Line(1023, 'x');
    for (int I = 0; I < 5 * 1024; ++I)
      Huge << Line << '\n';
  }
  writeDatabase("/usr/local/cuda/bin/nvcc @small.rsp @huge.rsp -O3 -x cu -c launch.cu -o launch.o");
  // The database of -p alone, of -p with the file, found above -p's
  // directory, and found above the file: all loaded with the same limit.
  const std::string File = shellQuote((Dir / "launch.cu").string());
  fs::create_directories(Dir / "sub");
  for (const std::string &Where : {"-p " + shellQuote(Dir.string()), "-p " + shellQuote(Dir.string()) + " " + File,
                                   "-p " + shellQuote((Dir / "sub").string()), File}) {
    SCOPED_TRACE(Where);
    CommandResult R = occlint(Where + " --no-compile --verbose");
    EXPECT_NE(R.output.find("response file 'huge.rsp'"), std::string::npos) << R.output.substr(0, 4000);
    EXPECT_NE(R.output.find("more than the 4 MB"), std::string::npos) << R.output.substr(0, 4000);
    EXPECT_EQ(R.output.find("xxxxxxxx"), std::string::npos) << R.output.substr(0, 4000);
    EXPECT_NE(R.output.find("-DFROM_RSP=1"), std::string::npos) << R.output.substr(0, 4000);
  }
}

// The database is the program (facts/ProgramTranslationUnits.h): a helper with
// external linkage, declared only in its own file, that no other translation
// unit names has all its callers in that file, so its values make a complete
// set; one that another file names (and may call) stays open, naming it.
TEST_F(ProjectDatabase, AHelperNoOtherTranslationUnitNamesHasACompleteSetOfValues) {
  std::ofstream(Dir / "launch.cu") << "#include <cuda_runtime.h>\n"
                                      "__global__ void k(float *p) { p[threadIdx.x] = 0; }\n"
                                      "void launchMine(float *p, int t) { k<<<8, t>>>(p); }\n"
                                      "void launchShared(float *p, int t) { k<<<8, t>>>(p); }\n"
                                      "void run(float *p) { launchMine(p, 128); launchShared(p, 256); }\n";
  std::ofstream(Dir / "other.cu") << "void launchShared(float *p, int t);\n"
                                     "void more(float *p) { launchShared(p, 64); }\n";
  writeEntries({{"nvcc -arch=sm_90 -c launch.cu -o launch.o", "launch.cu"},
                {"nvcc -arch=sm_90 -c other.cu -o other.o", "other.cu"}});
  auto valuesAt = [](const std::string &Json, int Line) {
    const nlohmann::json J = nlohmann::json::parse(Json, nullptr, /*allow_exceptions=*/false);
    if (J.is_object() && J.contains("launches"))
      for (const auto &L : J["launches"])
        if (L["line"] == Line && L["file"].get<std::string>().find("launch.cu") != std::string::npos)
          return L["values"];
    return nlohmann::json::object({{"complete", nullptr}, {"incompleteBecause", ""}});
  };
  auto json = [&](const std::string &Args) {
    return runCommand(shellQuote(OCCLINT_BINARY) + " --no-compile --quiet --format=json --gpu=sm_90 " + Args,
                      /*MergeStderr=*/false);
  };
  CommandResult R = json("-p " + shellQuote(Dir.string()));
  ASSERT_LE(R.exitCode, 1) << R.output;
  const nlohmann::json Mine = valuesAt(R.output, 3), Shared = valuesAt(R.output, 4);
  EXPECT_EQ(Mine["complete"], true) << Mine.dump() << R.output.substr(0, 3000);
  EXPECT_EQ(Shared["complete"], false) << Shared.dump();
  EXPECT_NE(Shared["incompleteBecause"].get<std::string>().find("other.cu names it"), std::string::npos)
      << Shared.dump();
  // The same file without a database: nothing is known of other files.
  R = json(shellQuote((Dir / "launch.cu").string()) + " -- --cuda-gpu-arch=sm_90");
  ASSERT_LE(R.exitCode, 1) << R.output;
  EXPECT_EQ(valuesAt(R.output, 3)["incompleteBecause"], "'launchMine' can be called from other files");
}
