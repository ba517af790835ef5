// test-inputs/project's compile_commands.json, as CMake wrote it for nvcc,
// is kept as a template (compile_commands.json.in); the tests instantiate it
// for a scratch build directory. Shared by BundledProjectTest and ReportTest.
#pragma once

#include "TestFiles.h"

#include <filesystem>
#include <string>

namespace occlint::testing {

inline const std::filesystem::path &bundledProjectDir() {
  static const std::filesystem::path Dir =
      (std::filesystem::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "project").lexically_normal();
  return Dir;
}

inline std::string replaceAll(std::string Text, const std::string &From, const std::string &To) {
  for (size_t Pos = Text.find(From); Pos != std::string::npos; Pos = Text.find(From, Pos + To.size()))
    Text.replace(Pos, From.size(), To);
  return Text;
}

/// A path inside a JSON string literal.
inline std::string jsonEscape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// The template with its placeholders filled in for `Build`; "" when the
/// template cannot be read. The nvcc it names need not exist (occlint only
/// reads the command).
inline std::string bundledProjectDatabase(const std::filesystem::path &Build) {
  const std::string Template = readFile(bundledProjectDir() / "compile_commands.json.in");
  if (Template.empty())
    return "";
  const std::string Nvcc = (std::filesystem::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc").string();
  std::string Database = replaceAll(Template, "@PROJECT_SOURCE@", jsonEscape(bundledProjectDir().string()));
  Database = replaceAll(Database, "@PROJECT_BUILD@", jsonEscape(Build.string()));
  return replaceAll(Database, "@NVCC@", jsonEscape(Nvcc));
}

} // namespace occlint::testing
