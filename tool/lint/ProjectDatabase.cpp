#include "lint/ProjectDatabase.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace occlint {

std::unique_ptr<clang::tooling::CompilationDatabase> loadProjectDatabase(const std::string &BuildPath,
                                                                         std::string &Error) {
  // Clang's own loading (with its response-file expansion and the commands it
  // infers for files the database does not list), as clang-tidy -p does.
  std::string Why;
  if (auto Database = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Why))
    return Database;
  // It says "no compilation database found" for a broken file too: read the
  // file again to say what is wrong with it.
  llvm::SmallString<256> Json(BuildPath);
  llvm::sys::path::append(Json, "compile_commands.json");
  if (llvm::sys::fs::exists(Json)) {
    std::string Reason;
    if (!clang::tooling::JSONCompilationDatabase::loadFromFile(Json, Reason,
                                                               clang::tooling::JSONCommandLineSyntax::AutoDetect)) {
      Error = std::string(Json) + ": not a valid compile database: " + llvm::StringRef(Reason).trim().str();
      return nullptr;
    }
  }
  Error = BuildPath + ": no compile_commands.json there or in a parent directory";
  return nullptr;
}

} // namespace occlint
