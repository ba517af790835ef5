#include "lsp/LspCompileCommands.h"

#include "lint/ProjectDatabase.h"

#include "llvm/Support/Path.h"

namespace occlint::lsp {

CompileCommandsForFile compileCommandsFor(llvm::StringRef File, llvm::StringRef BuildDirectory) {
  CompileCommandsForFile Result;
  std::string Error;
  // Clang's JSON database infers a command for a file it does not list from
  // its neighbours (InterpolatingCompilationDatabase), as clangd does.
  if (!BuildDirectory.empty())
    Result.database = loadProjectDatabase(BuildDirectory.str(), Error);
  else
    Result.database = findProjectDatabaseFor(File.str(), Error);
  if (Result.database && !Result.database->getCompileCommands(File).empty())
    return Result;

  if (Result.database)
    Result.why = "the compile_commands.json found has no command for " + File.str();
  else if (!BuildDirectory.empty())
    Result.why = Error + " (the configured build directory)";
  else
    Result.why = Error;

  // The file's own directory as include path, as a project without a build
  // system would compile it; `-x cuda` so that a .cuh is parsed as CUDA too.
  const std::string Directory = llvm::sys::path::parent_path(File).str();
  Result.database = std::make_unique<clang::tooling::FixedCompilationDatabase>(
      Directory, std::vector<std::string>{"-x", "cuda", "-I" + Directory});
  Result.fallback = true;
  return Result;
}

} // namespace occlint::lsp
