// `occlint compdb -p BUILD -o DIR` (lint/CompdbCommand.cpp, docs/editors.md):
// the nvcc database translated for Clang, read by clang-tidy with occlint's
// plugin as occlint reads the nvcc one; bad inputs are exit 2 with nothing
// written.
#include "BundledProjectDatabase.h"
#include "CommandRunner.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;

namespace {

CommandResult compdb(const std::string &Arguments) {
  return runCommand(shellQuote(OCCLINT_BINARY) + " compdb " + Arguments);
}

// The cuda-* findings (warnings and errors) and every compiler error of a
// clang-style output, as "file:line:column: level [check]", without repeats.
// (Not the messages: inside clang-tidy the spills check cannot name the
// build's -maxrregcount as the cause, which occlint reads from the nvcc
// command; the findings are the same.)
std::set<std::string> findings(const std::string &Output) {
  static const std::regex Line(R"(^(.*):(\d+):(\d+): (warning|error): (.*) \[([\w.,-]+)\]$)");
  std::set<std::string> Out;
  std::istringstream In(Output);
  std::string L;
  while (std::getline(In, L)) {
    std::smatch M;
    if (std::regex_match(L, M, Line) && (std::string(M[6]).rfind("cuda-", 0) == 0 || M[4] == "error"))
      Out.insert(std::string(M[1]) + ":" + std::string(M[2]) + ":" + std::string(M[3]) + ": " + std::string(M[4]) +
                 " [" + std::string(M[6]) + "]");
  }
  return Out;
}

TEST(Compdb, TheBundledProjectReadsInClangTidyAsInOcclint) {
  ScratchDir Scratch;
  const fs::path Build = Scratch.path() / "build", Out = Scratch.path() / "clang";
  writeFile(Build / "compile_commands.json", bundledProjectDatabase(Build));

  CommandResult R = compdb("--gpu H100 -p " + shellQuote(Build.string()) + " -o " + shellQuote(Out.string()));
  ASSERT_EQ(R.exitCode, 0) << R.output;
  const nlohmann::json Entries = nlohmann::json::parse(readFile(Out / "compile_commands.json"));
  ASSERT_EQ(Entries.size(), 5u) << Entries.dump(2); // 5 CUDA commands, one arch each (--gpu H100)
  for (const nlohmann::json &E : Entries) {
    const std::vector<std::string> Args = E["arguments"];
    ASSERT_FALSE(Args.empty());
    EXPECT_TRUE(fs::path(Args.front()).is_absolute()) << Args.front();
    EXPECT_NE(fs::path(Args.front()).filename().string().find("clang++"), std::string::npos) << Args.front();
    EXPECT_EQ(std::count(Args.begin(), Args.end(), "--cuda-gpu-arch=sm_90"), 1) << E.dump();
    EXPECT_EQ(
        std::count_if(Args.begin(), Args.end(), [](const std::string &A) { return A.rfind("-resource-dir", 0) == 0; }),
        1)
        << E.dump();
    for (const std::string &A : Args)
      EXPECT_TRUE(A.rfind("--generate-code", 0) != 0 && A != "-forward-unknown-to-host-compiler") << A;
  }

  // occlint on the nvcc database first: it compiles each file and leaves the
  // ptxas reports in the cache, where the plugin reads them (ReadCache).
  const CommandResult Occlint =
      runCommand(shellQuote(OCCLINT_BINARY) + " --quiet --gpu H100 -p " + shellQuote(Build.string()));
  ASSERT_TRUE(Occlint.exitCode == 0 || Occlint.exitCode == 1) << Occlint.output;
  // The translation units occlint lints (src/stencil_impl.cu is #included by src/stencil.cu).
  std::string Files;
  for (const char *File : {"main.cu", "src/reduce.cu", "src/saxpy.cu", "src/stencil.cu"})
    Files += " " + shellQuote((bundledProjectDir() / File).string());
  const CommandResult Tidy =
      runCommand(shellQuote(OCCLINT_CLANG_TIDY) + " --quiet --load=" + shellQuote(OCCLINT_PLUGIN) +
                 " --checks='-*,cuda-*,-cuda-occupancy-report' --config='{CheckOptions: "
                 "{Targets: H100}}' -p " +
                 shellQuote(Out.string()) + Files);
  const std::set<std::string> Expected = findings(Occlint.output), Actual = findings(Tidy.output);
  EXPECT_FALSE(Expected.empty()) << Occlint.output;
  EXPECT_EQ(Actual, Expected) << "clang-tidy:\n" << Tidy.output << "\nocclint:\n" << Occlint.output;
  EXPECT_EQ(Tidy.output.find("clang-diagnostic-error"), std::string::npos) << Tidy.output;
}

TEST(Compdb, AMissingOrMalformedDatabaseIsAnInputErrorAndWritesNothing) {
  ScratchDir Scratch;
  const fs::path Out = Scratch.path() / "out";
  CommandResult R = compdb("-p " + shellQuote((Scratch.path() / "none").string()) + " -o " + shellQuote(Out.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("no compile_commands.json there or in a parent directory"), std::string::npos) << R.output;
  EXPECT_FALSE(fs::exists(Out / "compile_commands.json"));

  Scratch.write("bad/compile_commands.json", "[{\"directory\": ");
  R = compdb("-p " + shellQuote((Scratch.path() / "bad").string()) + " -o " + shellQuote(Out.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("not a valid compile database"), std::string::npos) << R.output;
  EXPECT_FALSE(fs::exists(Out / "compile_commands.json"));
}

TEST(Compdb, AnUnwritableDirectoryOrTheBuildDirectoryItselfIsAnInputError) {
  ScratchDir Scratch;
  const fs::path Build = Scratch.path() / "build";
  writeFile(Build / "compile_commands.json", bundledProjectDatabase(Build));
  const std::string Original = readFile(Build / "compile_commands.json");
  const std::string Blocker = Scratch.write("file", "not a directory");
  CommandResult R = compdb("-p " + shellQuote(Build.string()) + " -o " + shellQuote(Blocker + "/out"));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("occlint compdb: error: -o: cannot create"), std::string::npos) << R.output;

  R = compdb("-p " + shellQuote(Build.string()) + " -o " + shellQuote(Build.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("is the database being read"), std::string::npos) << R.output;
  EXPECT_EQ(readFile(Build / "compile_commands.json"), Original);

  R = compdb("-p " + shellQuote(Build.string()));
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_NE(R.output.find("-o DIR is required"), std::string::npos) << R.output;
}

TEST(Compdb, ADatabaseNamingAnUnknownCompilerRunsNothing) {
  // The compiler would leave a marker if it ran; compdb only reads the command.
  ScratchDir Scratch;
  const std::string Marker = (Scratch.path() / "ran").string();
  const std::string Compiler = Scratch.write("evil-nvcc", "#!/bin/sh\ntouch " + shellQuote(Marker) + "\n");
  fs::permissions(Compiler, fs::perms::owner_all);
  const std::string Source = Scratch.write("k.cu", "__global__ void k() {}\n");
  Scratch.write("build/compile_commands.json",
                "[{\"directory\": \"" + jsonEscape(Scratch.path().string()) + "\", \"command\": \"" +
                    jsonEscape(Compiler) + " -arch=sm_80 -c k.cu\", \"file\": \"" + jsonEscape(Source) + "\"}]");
  CommandResult R = compdb("--quiet -p " + shellQuote((Scratch.path() / "build").string()) + " -o " +
                           shellQuote((Scratch.path() / "out").string()));
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_FALSE(fs::exists(Marker));
  const nlohmann::json Entries = nlohmann::json::parse(readFile(Scratch.path() / "out/compile_commands.json"));
  ASSERT_EQ(Entries.size(), 1u);
  EXPECT_NE(Entries[0]["arguments"][0].get<std::string>(), Compiler);
}

} // namespace
