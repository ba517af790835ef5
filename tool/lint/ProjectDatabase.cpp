#include "lint/ProjectDatabase.h"

#include "toolchain/CompileCommandTranslator.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace occlint {

namespace {

// Clang's expansion of `@file` arguments reads any file whole: a command
// naming `@/usr/local/cuda/bin/nvcc` had its 30 MB read and split into words,
// 6 s per command (found by fuzz-compile-database). Seen through this file
// system a file over kMaxResponseFileBytes does not exist, so the argument
// stays as written: the nvcc translator then says the file is too large
// (ResponseFiles.cpp, the same limit), and the Clang driver that it is not an
// input it can read.
class ResponseFileSizeLimit : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override {
    llvm::ErrorOr<llvm::vfs::Status> S = ProxyFileSystem::status(Path);
    if (S && S->isRegularFile() && S->getSize() > kMaxResponseFileBytes)
      return std::make_error_code(std::errc::file_too_large);
    return S;
  }
  bool exists(const llvm::Twine &Path) override { return static_cast<bool>(status(Path)); }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override {
    if (llvm::ErrorOr<llvm::vfs::Status> S = status(Path); !S)
      return S.getError();
    return ProxyFileSystem::openFileForRead(Path);
  }
};

// A compile_commands.json as Clang's own plugin loads it (response files
// expanded, commands inferred for files the database does not list, as
// clang-tidy -p does), with response files of a sensible size only.
std::unique_ptr<clang::tooling::CompilationDatabase> loadJsonDatabase(llvm::StringRef Json, std::string &Error) {
  std::string Reason;
  auto Base = clang::tooling::JSONCompilationDatabase::loadFromFile(Json, Reason,
                                                                    clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Base) {
    Error = Json.str() + ": not a valid compile database: " + llvm::StringRef(Reason).trim().str();
    return nullptr;
  }
  return clang::tooling::inferTargetAndDriverMode(
      clang::tooling::inferMissingCompileCommands(clang::tooling::expandResponseFiles(
          std::move(Base), llvm::makeIntrusiveRefCnt<ResponseFileSizeLimit>(llvm::vfs::getRealFileSystem()))));
}

} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase> projectDatabaseInOrAbove(llvm::StringRef Start,
                                                                              std::string &Error) {
  // Clang's autoDetectFromDirectory searches the same way, but would load a
  // compile_commands.json with unbounded response files.
  llvm::SmallString<256> Directory(Start);
  llvm::sys::fs::make_absolute(Directory);
  llvm::sys::path::remove_dots(Directory, /*remove_dot_dot=*/true);
  while (!Directory.empty()) {
    llvm::SmallString<256> Json(Directory);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::is_regular_file(Json))
      return loadJsonDatabase(Json, Error);
    std::string Why;
    if (auto Database = clang::tooling::CompilationDatabase::loadFromDirectory(Directory, Why))
      return Database;
    const std::string Parent = llvm::sys::path::parent_path(Directory).str();
    if (Parent == Directory)
      break;
    Directory = Parent;
  }
  return nullptr;
}

std::unique_ptr<clang::tooling::CompilationDatabase> loadProjectDatabase(const std::string &BuildPath,
                                                                         std::string &Error) {
  if (auto Database = projectDatabaseInOrAbove(BuildPath, Error))
    return Database;
  if (Error.empty())
    Error = BuildPath + ": no compile_commands.json there or in a parent directory";
  return nullptr;
}

std::unique_ptr<clang::tooling::CompilationDatabase> findProjectDatabaseFor(const std::string &SourceFile,
                                                                            std::string &Error) {
  if (auto Database = projectDatabaseInOrAbove(llvm::sys::path::parent_path(SourceFile), Error))
    return Database;
  if (Error.empty())
    Error = "no compile_commands.json found for " + SourceFile + " (searched its directory and the ones above it)";
  return nullptr;
}

} // namespace occlint
