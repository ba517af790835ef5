// Where `occlint lsp` takes a file's compile command from: the
// compile_commands.json of the configured build directory (-p DIR,
// initializationOptions.compilationDatabasePath), else the one found by
// walking up from the file, else a fallback command (`-x cuda -I<file's dir>`).
#pragma once

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace occlint::lsp {

struct CompileCommandsForFile {
  std::unique_ptr<clang::tooling::CompilationDatabase> database; // never null
  /// The fallback command is used: no compile_commands.json applies.
  bool fallback = false;
  /// With the fallback: why, one line naming the file (and the configured
  /// directory), for the editor.
  std::string why;
};

/// `File` is absolute. `BuildDirectory` ("" for none) is the configured one.
CompileCommandsForFile compileCommandsFor(llvm::StringRef File, llvm::StringRef BuildDirectory);

} // namespace occlint::lsp
