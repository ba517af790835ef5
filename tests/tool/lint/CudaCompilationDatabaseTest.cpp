// The lint command's compile commands: one Clang command per target arch
// (--gpu / Targets, else the command's archs, else sm_90), the Targets option
// from the configuration, and .cu files that other translation units include.
#include "lint/CudaCompilationDatabase.h"
#include "lint/IncludedTranslationUnits.h"
#include "lint/LintPipeline.h"
#include "lint/TargetsOption.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace occlint;
using occlint::testing::ScratchDir;

namespace {

std::unique_ptr<clang::tooling::CompilationDatabase> database(const std::string &Json) {
  std::string Error;
  auto Db =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(Json, Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  EXPECT_TRUE(Db) << Error;
  return Db;
}

std::string entry(const std::string &Dir, const std::string &Command, const std::string &File) {
  return "{\"directory\": \"" + Dir + "\", \"command\": \"" + Command + "\", \"file\": \"" + File + "\"}";
}

std::vector<std::string> argsWithPrefix(const std::vector<std::string> &Args, const std::string &Prefix) {
  std::vector<std::string> Out;
  std::copy_if(Args.begin(), Args.end(), std::back_inserter(Out),
               [&](const std::string &A) { return A.rfind(Prefix, 0) == 0; });
  return Out;
}

std::vector<std::string> archsOf(const std::vector<clang::tooling::CompileCommand> &Commands) {
  std::vector<std::string> Archs;
  for (const clang::tooling::CompileCommand &C : Commands) {
    std::vector<std::string> A = argsWithPrefix(C.CommandLine, "--cuda-gpu-arch=");
    EXPECT_EQ(A.size(), 1u) << "exactly one arch per command";
    EXPECT_TRUE(argsWithPrefix(C.CommandLine, "--offload-arch").empty());
    EXPECT_EQ(argsWithPrefix(C.CommandLine, "--cuda-device-only").size(), 1u);
    EXPECT_TRUE(argsWithPrefix(C.CommandLine, "--cuda-host-only").empty());
    Archs.push_back(A.empty() ? "" : A.front().substr(16));
  }
  return Archs;
}

CudaParseSettings settings() {
  CudaParseSettings S;
  S.cudaPath = "/usr/local/cuda";
  return S;
}

TEST(ParseArchs, NamedArchsThenTheCommandsThenTheDefault) {
  ParseArchs Named = chooseParseArchs({{"sm_80", "sm_90", "sm_80"}, "--gpu"}, {"sm_75"}, std::nullopt, "sm_90");
  EXPECT_EQ(Named.archs, (std::vector<std::string>{"sm_80", "sm_90"}));
  EXPECT_EQ(Named.origin, "--gpu");
  ParseArchs FromCommand = chooseParseArchs({}, {"sm_75", "sm_100f"}, std::nullopt, "sm_90");
  EXPECT_EQ(FromCommand.archs, (std::vector<std::string>{"sm_75", "sm_100a"})); // Clang 22 has no sm_100f
  EXPECT_EQ(FromCommand.origin, "the compile command");
  ParseArchs Default = chooseParseArchs({}, {}, std::nullopt, "sm_90");
  EXPECT_EQ(Default.archs, (std::vector<std::string>{"sm_90"}));
  EXPECT_TRUE(Default.notes.empty());
  ParseArchs Native = chooseParseArchs({}, {}, std::string("native"), "sm_90");
  EXPECT_EQ(Native.archs, (std::vector<std::string>{"sm_90"}));
  ASSERT_EQ(Native.notes.size(), 1u);
  EXPECT_NE(Native.notes[0].find("-arch=native"), std::string::npos) << Native.notes[0];
}

TEST(CudaParseCommand, ExactlyOneArchAndDeviceOnly) {
  std::vector<std::string> Args = {
      "clang++", "--cuda-gpu-arch=sm_70", "--offload-arch=sm_75", "--cuda-host-only", "-DX", "--no-cuda-gpu-arch=sm_52",
      "a.cu"};
  std::vector<std::string> Out = cudaParseCommand(Args, settings(), "sm_86");
  EXPECT_EQ(archsOf({clang::tooling::CompileCommand(".", "a.cu", Out, "")}), std::vector<std::string>{"sm_86"});
  EXPECT_EQ(Out.front(), "clang++");
  EXPECT_EQ(Out.back(), "a.cu");
  EXPECT_EQ(argsWithPrefix(Out, "-DX").size(), 1u);
  EXPECT_EQ(argsWithPrefix(Out, "--cuda-path=/usr/local/cuda").size(), 1u);
  EXPECT_TRUE(argsWithPrefix(Out, "--no-cuda-gpu-arch").empty());
}

TEST(CudaCompilationDatabase, OneCommandPerArchOfAnNvccCommand) {
  auto Inner = database("[" +
                        entry("/src",
                              "/usr/local/cuda/bin/nvcc -DFOO=1 "
                              "--generate-code=arch=compute_80,code=[compute_80,sm_80] "
                              "--generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo -c a.cu -o a.o",
                              "a.cu") +
                        "]");
  std::string Verbose;
  llvm::raw_string_ostream VerboseStream(Verbose);
  CudaCompilationDatabase Db(*Inner, settings(), nullptr, &VerboseStream);
  std::vector<clang::tooling::CompileCommand> Commands = Db.getCompileCommands("/src/a.cu");
  EXPECT_EQ(archsOf(Commands), (std::vector<std::string>{"sm_80", "sm_90"}));
  for (const auto &C : Commands) {
    EXPECT_EQ(C.CommandLine.front(), "clang++"); // translated from nvcc
    EXPECT_EQ(argsWithPrefix(C.CommandLine, "-DFOO=1").size(), 1u);
    EXPECT_TRUE(argsWithPrefix(C.CommandLine, "-lineinfo").empty());
  }
  EXPECT_NE(Verbose.find("occlint: a.cu: parse archs sm_80, sm_90 (from the compile command)\n"), std::string::npos)
      << Verbose;
  EXPECT_NE(Verbose.find("occlint: a.cu [sm_80]: clang command: clang++ "), std::string::npos) << Verbose;
  EXPECT_NE(Verbose.find("occlint: a.cu [sm_90]: clang command: clang++ "), std::string::npos) << Verbose;
  EXPECT_NE(Verbose.find("occlint: a.cu: dropped by the nvcc translation: -lineinfo\n"), std::string::npos) << Verbose;
  // Reported once per file, however often the commands are asked for.
  const std::string Once = Verbose;
  Db.getCompileCommands("/src/a.cu");
  EXPECT_EQ(Verbose, Once);
  EXPECT_EQ(Db.getAllCompileCommands().size(), 2u);
}

TEST(CudaCompilationDatabase, NamedArchsReplaceTheCommandsAndClangCommandsKeepTheirOwn) {
  auto Inner = database("[" + entry("/src", "clang++ --cuda-gpu-arch=sm_75 --offload-arch=sm_86 -c b.cu", "b.cu") +
                        "," + entry("/src", "nvcc -arch=native -c c.cu", "c.cu") + "]");
  CudaCompilationDatabase Own(*Inner, settings(), nullptr);
  EXPECT_EQ(archsOf(Own.getCompileCommands("/src/b.cu")), (std::vector<std::string>{"sm_75", "sm_86"}));
  EXPECT_EQ(archsOf(Own.getCompileCommands("/src/c.cu")), std::vector<std::string>{"sm_90"});
  std::string Verbose;
  llvm::raw_string_ostream VerboseStream(Verbose);
  CudaCompilationDatabase Named(
      *Inner, settings(), [](llvm::StringRef) { return NamedArchs{{"sm_89", "sm_120"}, "--gpu"}; }, &VerboseStream);
  EXPECT_EQ(archsOf(Named.getCompileCommands("/src/b.cu")), (std::vector<std::string>{"sm_89", "sm_120"}));
  EXPECT_NE(Verbose.find("parse archs sm_89, sm_120 (from --gpu)"), std::string::npos) << Verbose;
}

TEST(CudaCompilationDatabase, SymbolicArchFallsBackToTheDefaultWithANote) {
  auto Inner = database("[" + entry("/src", "nvcc -arch=all -c c.cu", "c.cu") + "]");
  std::string Verbose;
  llvm::raw_string_ostream VerboseStream(Verbose);
  CudaCompilationDatabase Db(*Inner, settings(), nullptr, &VerboseStream);
  EXPECT_EQ(archsOf(Db.getCompileCommands("/src/c.cu")), std::vector<std::string>{"sm_90"});
  EXPECT_NE(Verbose.find("(from the default)"), std::string::npos) << Verbose;
  EXPECT_NE(Verbose.find("occlint: c.cu: note: -arch=all names no arch"), std::string::npos) << Verbose;
}

TEST(TargetsOption, FromTheOverrideOrAClangTidyFile) {
  ScratchDir D;
  D.write(".clang-tidy", "CheckOptions:\n  Targets: 'A100, H100;sm_80:20'\n");
  D.write("bad/.clang-tidy", "CheckOptions:\n  Targets: 'H100, NoSuchGpu'\n");
  const std::string File = D.write("a.cu", "");
  const std::string Bad = D.write("bad/b.cu", "");
  clang::tidy::FileOptionsProvider Provider({}, {}, {});
  TargetsOption Targets(Provider, "");
  std::string Error;
  NamedArchs Archs = Targets.archsFor(File, Error);
  EXPECT_EQ(Error, "");
  EXPECT_EQ(Archs.archs, (std::vector<std::string>{"sm_80", "sm_90"}));
  EXPECT_EQ(Archs.origin, "Targets in " + (D.path() / ".clang-tidy").string());
  Targets.archsFor(Bad, Error);
  EXPECT_EQ(Error.rfind("CheckOptions Targets in " + (D.path() / "bad" / ".clang-tidy").string() +
                            ": unknown GPU 'NoSuchGpu'",
                        0),
            0u)
      << Error;

  clang::tidy::ClangTidyOptions Override;
  Override.CheckOptions[TargetsOptionName] = clang::tidy::ClangTidyOptions::ClangTidyValue("RTX 4090");
  clang::tidy::FileOptionsProvider WithGpu({}, {}, Override);
  TargetsOption FromGpu(WithGpu, "");
  Archs = FromGpu.archsFor(Bad, Error); // --gpu wins over the bad configuration
  EXPECT_EQ(Error, "");
  EXPECT_EQ(Archs.archs, std::vector<std::string>{"sm_89"});
  EXPECT_EQ(Archs.origin, "--gpu");
}

TEST(TargetsOption, SplitsLikeTheChecks) {
  EXPECT_EQ(splitTargets(" H100 , RTX 4090;sm_90:132,, "), (std::vector<std::string>{"H100", "RTX 4090", "sm_90:132"}));
  std::string Error;
  EXPECT_EQ(archsOfGpus({"H100", "sm_90", "A100"}, Error), (std::vector<std::string>{"sm_90", "sm_80"}));
  EXPECT_EQ(Error, "");
}

// A file the database names twice ("./a.cu", "a.cu", "sub/../a.cu") is one
// translation unit of the run.
TEST(CudaTranslationUnits, AFileIsListedOnceWhateverItsSpelling) {
  ScratchDir D;
  D.write("a.cu", "__global__ void k() {}\n");
  D.write("b.cu", "__global__ void k() {}\n");
  std::filesystem::create_directories(D.path() / "sub");
  const std::string Dir = D.path().string();
  std::string Json = "[";
  for (const char *Spelling : {"./a.cu", "a.cu", "sub/../a.cu", "b.cu"})
    Json += std::string(Json.size() > 1 ? "," : "") + "{\"directory\": \"" + Dir + "\", \"file\": \"" + Spelling +
            "\", \"command\": \"nvcc -c " + Spelling + "\"}";
  Json += "]";
  std::string Error;
  auto Database =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(Json, Error, clang::tooling::JSONCommandLineSyntax::Gnu);
  ASSERT_TRUE(Database) << Error;
  std::vector<std::string> Included;
  EXPECT_EQ(occlint::cudaTranslationUnits(*Database, Included, nullptr),
            (std::vector<std::string>{Dir + "/a.cu", Dir + "/b.cu"}));
  EXPECT_TRUE(Included.empty());
}

TEST(IncludedTranslationUnits, ACuFileAnotherIncludesIsSkipped) {
  ScratchDir D;
  const std::string A = D.write("a.cu", "#include \"b.cu\"\n  #  include <sub/c.cu>\n#include \"b.cuh\"\n");
  const std::string B = D.write("b.cu", "__global__ void b() {}\n");
  const std::string C = D.write("inc/sub/c.cu", "__global__ void c() {}\n");
  const std::string E = D.write("e.cu", "#include \"f.cu\"\n");
  const std::string F = D.write("f.cu", "#include \"e.cu\"\n"); // each other: the first stays
  const std::string G = D.write("g.cu", "// #include \"a.cu\" is a comment, but the scan is textual\n");
  const std::string Dir = D.path().string();
  auto Db = database("[" + entry(Dir, "nvcc -I inc -c a.cu", "a.cu") + "," + entry(Dir, "nvcc -c b.cu", "b.cu") + "," +
                     entry(Dir, "nvcc -c inc/sub/c.cu", "inc/sub/c.cu") + "," + entry(Dir, "nvcc -c e.cu", "e.cu") +
                     "," + entry(Dir, "nvcc -c f.cu", "f.cu") + "," + entry(Dir, "nvcc -c g.cu", "g.cu") + "]");
  std::vector<SkippedTranslationUnit> Skipped;
  std::vector<std::string> Kept = withoutIncludedTranslationUnits({A, B, C, E, F, G}, *Db, Skipped);
  EXPECT_EQ(Kept, (std::vector<std::string>{A, E, G}));
  ASSERT_EQ(Skipped.size(), 3u);
  EXPECT_EQ(Skipped[0].file, B);
  EXPECT_EQ(Skipped[0].includedBy, A);
  EXPECT_EQ(Skipped[1].file, C);
  EXPECT_EQ(Skipped[1].includedBy, A);
  EXPECT_EQ(Skipped[2].file, F);
  EXPECT_EQ(Skipped[2].includedBy, E);
}

} // namespace
