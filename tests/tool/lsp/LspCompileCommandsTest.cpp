// Where `occlint lsp` takes a file's compile command from
// (tool/lsp/LspCompileCommands.h): the configured build directory, the
// compile_commands.json above the file, or the fallback `-x cuda -I<dir>`,
// with a reason the editor can show.
#include "lsp/LspCompileCommands.h"

#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace occlint::lsp;
using occlint::testing::ScratchDir;

namespace {

std::string database(const std::string &Directory, const std::string &File, const std::string &Define) {
  return nlohmann::json::array({{{"directory", Directory},
                                 {"file", File},
                                 {"arguments", {"clang++", "-x", "cuda", "-D" + Define, "-c", File}}}})
      .dump();
}

bool hasArgument(const CompileCommandsForFile &C, const std::string &File, const std::string &Argument) {
  const auto Commands = C.database->getCompileCommands(File);
  return !Commands.empty() && std::find(Commands.front().CommandLine.begin(), Commands.front().CommandLine.end(),
                                        Argument) != Commands.front().CommandLine.end();
}

TEST(LspCompileCommands, TheDatabaseAboveTheFile) {
  ScratchDir Dir;
  const std::string File = Dir.write("src/a.cu", "");
  Dir.write("compile_commands.json", database(Dir.path().string(), File, "FROM_ABOVE"));
  const CompileCommandsForFile C = compileCommandsFor(File, "");
  EXPECT_FALSE(C.fallback);
  EXPECT_TRUE(hasArgument(C, File, "-DFROM_ABOVE"));
}

TEST(LspCompileCommands, TheConfiguredDirectoryWinsAndInfersUnlistedFiles) {
  ScratchDir Dir;
  const std::string File = Dir.write("src/a.cu", "");
  const std::string Neighbour = Dir.write("src/b.cu", "");
  Dir.write("compile_commands.json", database(Dir.path().string(), File, "FROM_ABOVE"));
  Dir.write("build/compile_commands.json", database((Dir.path() / "build").string(), File, "FROM_BUILD"));
  const std::string Build = (Dir.path() / "build").string();
  EXPECT_TRUE(hasArgument(compileCommandsFor(File, Build), File, "-DFROM_BUILD"));
  // b.cu is not listed: its command is inferred from a.cu's, as clangd does.
  const CompileCommandsForFile Inferred = compileCommandsFor(Neighbour, Build);
  EXPECT_FALSE(Inferred.fallback);
  EXPECT_TRUE(hasArgument(Inferred, Neighbour, "-DFROM_BUILD"));
}

TEST(LspCompileCommands, FallbackWithTheReason) {
  ScratchDir Dir;
  const std::string File = Dir.write("src/k.cuh", "");
  const CompileCommandsForFile C = compileCommandsFor(File, "");
  EXPECT_TRUE(C.fallback);
  EXPECT_NE(C.why.find("no compile_commands.json found for " + File), std::string::npos) << C.why;
  // A header is parsed as CUDA, with its directory on the include path.
  EXPECT_TRUE(hasArgument(C, File, "cuda"));
  EXPECT_TRUE(hasArgument(C, File, "-I" + (Dir.path() / "src").string()));

  const std::string Nowhere = (Dir.path() / "no-build-here").string();
  const CompileCommandsForFile Configured = compileCommandsFor(File, Nowhere);
  EXPECT_TRUE(Configured.fallback);
  EXPECT_NE(Configured.why.find(Nowhere), std::string::npos) << Configured.why;
}

// The database above the file is loaded as `occlint -p` loads one: a
// response file of a sensible size is expanded, a larger one (a program named
// as `@file`) is not read; a malformed database is named, not passed over.
TEST(LspCompileCommands, TheDatabaseAboveTheFileReadsOnlySmallResponseFiles) {
  ScratchDir Dir;
  const std::string File = Dir.write("src/a.cu", "");
  Dir.write("small.rsp", "-DFROM_RSP=1\n");
  Dir.write("huge.rsp", std::string(5u << 20, 'x'));
  Dir.write("compile_commands.json",
            nlohmann::json::array({{{"directory", Dir.path().string()},
                                    {"file", File},
                                    {"arguments", {"clang++", "@small.rsp", "@huge.rsp", "-x", "cuda", "-c", File}}}})
                .dump());
  const CompileCommandsForFile C = compileCommandsFor(File, "");
  EXPECT_FALSE(C.fallback) << C.why;
  EXPECT_TRUE(hasArgument(C, File, "-DFROM_RSP=1"));
  EXPECT_TRUE(hasArgument(C, File, "@huge.rsp"))
      << llvm::join(C.database->getCompileCommands(File).front().CommandLine, " ");
}

TEST(LspCompileCommands, AMalformedDatabaseAboveTheFileIsNamed) {
  ScratchDir Dir;
  const std::string File = Dir.write("src/a.cu", "");
  const std::string Json = Dir.write("compile_commands.json", "[{\"file\": ");
  const CompileCommandsForFile C = compileCommandsFor(File, "");
  EXPECT_TRUE(C.fallback);
  EXPECT_NE(C.why.find(Json + ": not a valid compile database"), std::string::npos) << C.why;
}

} // namespace
