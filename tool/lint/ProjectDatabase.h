// The compile database of `-p DIR`, with an error that tells a missing
// compile_commands.json from a broken one (Clang's auto-detection says "no
// compilation database found" for both).
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>

namespace occlint {

/// DIR/compile_commands.json when it exists (an error naming that file and
/// what is wrong with it when it is malformed), else the database Clang finds
/// for DIR or a parent. Null with `Error` set (one line, naming DIR or the
/// file) when there is none.
std::unique_ptr<clang::tooling::CompilationDatabase> loadProjectDatabase(const std::string &BuildPath,
                                                                         std::string &Error);

} // namespace occlint
