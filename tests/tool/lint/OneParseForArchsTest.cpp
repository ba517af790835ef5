// One parse for the archs of a compile command (lint/CheckParse.h,
// lint/ArchTestRecorder.h): when nothing in the project's own files can
// differ between the archs, occlint parses once and runs the checks for each
// arch; otherwise once per arch, and --verbose says why. Either way the
// output is the one --parse-each-arch gives.
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

class OneParseForArchs : public ::testing::Test {
protected:
  // --verbose output and the JSON report of one run over `Source`.
  struct Run {
    CommandResult result;
    nlohmann::json json;
  };
  Run lint(const std::string &Source, const std::string &Gpus, const std::string &Extra = "") {
    const fs::path File = Dir / "k.cu";
    writeFile(File, Source);
    const fs::path Out = Dir / ("out" + std::to_string(Runs++) + ".json");
    Run R;
    R.result =
        runCommand(shellQuote(OCCLINT_BINARY) + " --verbose --no-compile --checks=-*,cuda-* " + Gpus + " " + Extra +
                   " --format=json --output=" + shellQuote(Out.string()) + " " + shellQuote(File.string()) + " --");
    R.json = nlohmann::json::parse(readFile(Out), nullptr, /*allow_exceptions=*/false);
    return R;
  }
  // The line --verbose prints about the parses of k.cu.
  static std::string parseLine(const CommandResult &R) {
    for (size_t At = R.output.find("k.cu: one parse "); At != std::string::npos;)
      return R.output.substr(At, R.output.find('\n', At) - At);
    return "";
  }
  // The same run with --parse-each-arch gives the same report.
  void expectSameAsEachArch(const std::string &Source, const std::string &Gpus, const Run &One) {
    Run Each = lint(Source, Gpus, "--parse-each-arch");
    EXPECT_EQ(One.result.exitCode, Each.result.exitCode) << One.result.output << Each.result.output;
    EXPECT_EQ(One.json, Each.json);
    EXPECT_EQ(parseLine(Each.result), "") << Each.result.output;
  }
  ScratchDir Scratch;
  const fs::path Dir = Scratch.path();
  int Runs = 0;
};

const std::string Plain =
    "#include <cuda_runtime.h>\n"
    "__global__ void k(float *p) {\n"
    "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 4096; i += gridDim.x * blockDim.x) p[i] = 0;\n"
    "}\n"
    "void run(float *p) { k<<<8, 96>>>(p); }\n";

TEST_F(OneParseForArchs, AFileThatNeverTestsTheArchIsParsedOnceForAll) {
  Run R = lint(Plain, "--gpu A100 --gpu H100");
  EXPECT_EQ(R.result.exitCode, 0) << R.result.output;
  EXPECT_EQ(parseLine(R.result), "k.cu: one parse for sm_80, sm_90: its own files never depend on the arch")
      << R.result.output;
  // Clang ran once: its summary line is printed once.
  EXPECT_EQ(R.result.output.find("generated when compiling for sm_90"), std::string::npos) << R.result.output;
  // Both archs' GPUs have the launch, each with its own findings.
  std::set<std::string> Gpus;
  for (const nlohmann::json &L : R.json.at("launches"))
    Gpus.insert(L.at("gpu").at("name").get<std::string>());
  EXPECT_EQ(Gpus.size(), 2u) << R.json.dump(1);
  std::set<std::string> TinyGridOn;
  for (const nlohmann::json &D : R.json.at("diagnostics"))
    if (D.at("check") == "cuda-launch-tiny-grid")
      TinyGridOn.insert(D.at("message").get<std::string>().substr(0, 40));
  EXPECT_EQ(TinyGridOn.size(), 2u) << R.json.dump(1);
  expectSameAsEachArch(Plain, "--gpu A100 --gpu H100", R);
}

TEST_F(OneParseForArchs, AConditionTheSameForEveryArchDoesNotCount) {
  // Both archs are >= 700; `#ifdef __CUDA_ARCH__` is true in every device parse.
  const std::string Source = "__global__ void k(float *p) {\n"
                             "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700\n"
                             "  p[threadIdx.x] = 1;\n"
                             "#endif\n"
                             "#ifdef __CUDA_ARCH__\n"
                             "  p[threadIdx.x] += 1;\n"
                             "#endif\n"
                             "}\n"
                             "void run(float *p) { k<<<8, 96>>>(p); }\n";
  Run R = lint(Source, "--gpu A100 --gpu H100");
  EXPECT_EQ(parseLine(R.result), "k.cu: one parse for sm_80, sm_90: its own files never depend on the arch")
      << R.result.output;
  expectSameAsEachArch(Source, "--gpu A100 --gpu H100", R);
}

TEST_F(OneParseForArchs, AConditionThatDiffersBetweenTheArchsParsesEach) {
  const std::string Source = "#define NEW_ENOUGH (__CUDA_ARCH__ >= 900)\n"
                             "__global__ void k(float *p) {\n"
                             "#if NEW_ENOUGH\n"
                             "  p[threadIdx.x] = 1;\n"
                             "#endif\n"
                             "}\n"
                             "void run(float *p) { k<<<8, 96>>>(p); }\n";
  Run R = lint(Source, "--gpu A100 --gpu H100");
  EXPECT_NE(parseLine(R.result).find("k.cu: one parse per arch: "), std::string::npos) << R.result.output;
  EXPECT_NE(parseLine(R.result).find("k.cu:3 has a conditional that depends on the arch"), std::string::npos)
      << R.result.output;
  expectSameAsEachArch(Source, "--gpu A100 --gpu H100", R);
  // For sm_90 and sm_100 the same condition is true for both.
  R = lint(Source, "--gpu H100 --gpu B200");
  EXPECT_NE(parseLine(R.result).find("one parse for sm_90, sm_100"), std::string::npos) << R.result.output;
}

TEST_F(OneParseForArchs, TheArchsValueInCodeParsesEach) {
  const std::string Source = "__global__ void k(int *p) { p[threadIdx.x] = __CUDA_ARCH__; }\n"
                             "void run(int *p) { k<<<8, 96>>>(p); }\n";
  Run R = lint(Source, "--gpu A100 --gpu H100");
  EXPECT_NE(parseLine(R.result).find("k.cu:1 uses __CUDA_ARCH__"), std::string::npos) << R.result.output;
  // The same use in a branch an #elif that is never evaluated follows.
  const std::string BeforeElif = "__global__ void k(int *p) {\n"
                                 "#if 1\n"
                                 "  p[threadIdx.x] = __CUDA_ARCH__;\n"
                                 "#elif SOMETHING\n"
                                 "  p[threadIdx.x] = 0;\n"
                                 "#endif\n"
                                 "}\n"
                                 "void run(int *p) { k<<<8, 96>>>(p); }\n";
  R = lint(BeforeElif, "--gpu A100 --gpu H100");
  EXPECT_NE(parseLine(R.result).find("k.cu:3 uses __CUDA_ARCH__"), std::string::npos) << R.result.output;
}

TEST_F(OneParseForArchs, AMacroTheArchDefinesParsesEach) {
  // nv/target selects NV_IF_TARGET's branch through macros defined per arch.
  const std::string Source = "#include <cuda_runtime.h>\n"
                             "#include <nv/target>\n"
                             "__global__ void k(float *p) {\n"
                             "  NV_IF_TARGET(NV_PROVIDES_SM_90, (p[threadIdx.x] = 1;), (p[threadIdx.x] = 0;))\n"
                             "}\n"
                             "void run(float *p) { k<<<8, 96>>>(p); }\n";
  Run R = lint(Source, "--gpu A100 --gpu H100");
  EXPECT_NE(parseLine(R.result).find("k.cu:4 uses NV_IF_TARGET (through "), std::string::npos) << R.result.output;
  expectSameAsEachArch(Source, "--gpu A100 --gpu H100", R);
}

TEST_F(OneParseForArchs, ADeclarationOnlySomeArchsHaveParsesEach) {
  // Clang's headers declare __reduce_add_sync from sm_80 on: the sm_75
  // parse has an error the sm_80 parse cannot show.
  const std::string Source =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(unsigned *p) { p[threadIdx.x] = __reduce_add_sync(0xffffffffu, p[threadIdx.x]); }\n"
      "void run(unsigned *p) { k<<<8, 96>>>(p); }\n";
  Run R = lint(Source, "--gpu A100 --gpu T4");
  EXPECT_NE(parseLine(R.result).find("k.cu:2 uses '__reduce_add_sync', which "), std::string::npos) << R.result.output;
  EXPECT_NE(R.json.dump().find("use of undeclared identifier '__reduce_add_sync'"), std::string::npos)
      << R.json.dump(1);
  expectSameAsEachArch(Source, "--gpu A100 --gpu T4", R);
  // Parsed for sm_75 first: the error itself keeps the other parse.
  R = lint(Source, "--gpu T4 --gpu A100");
  EXPECT_EQ(parseLine(R.result), "k.cu: one parse per arch: the parse has errors") << R.result.output;
  // Both archs declare it: one parse.
  R = lint(Source, "--gpu A100 --gpu H100");
  EXPECT_NE(parseLine(R.result).find("one parse for sm_80, sm_90"), std::string::npos) << R.result.output;
}

TEST_F(OneParseForArchs, ParseEachArchIsDocumented) {
  CommandResult R = runCommand(shellQuote(OCCLINT_BINARY) + " --help");
  EXPECT_NE(R.output.find("--parse-each-arch"), std::string::npos) << R.output;
}

} // namespace
