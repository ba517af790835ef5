// The compile database of `-p DIR`, or the one found above a source file,
// with an error that tells a missing compile_commands.json from a broken one
// (Clang's auto-detection says "no compilation database found" for both), and
// response files read only up to a sensible size. Every occlint command that
// reads a project's database loads it here.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>

namespace occlint {

/// The database in `Directory` or the nearest directory above it: in each
/// directory a compile_commands.json (response files in its commands read up
/// to kMaxResponseFileBytes; a malformed one is an error naming that file and
/// what is wrong with it, not passed over for a parent's), else what Clang's
/// other plugins read there (compile_flags.txt). Null with `Error` empty when
/// there is none.
std::unique_ptr<clang::tooling::CompilationDatabase> projectDatabaseInOrAbove(llvm::StringRef Directory,
                                                                              std::string &Error);

/// projectDatabaseInOrAbove(DIR), the search of Clang's
/// autoDetectFromDirectory. Null with `Error` set (one line, naming DIR or
/// the file) when there is none or it is malformed.
std::unique_ptr<clang::tooling::CompilationDatabase> loadProjectDatabase(const std::string &BuildPath,
                                                                         std::string &Error);

/// The database for a file given without -p: projectDatabaseInOrAbove(the
/// file's directory), the search of Clang's autoDetectFromSource. Null with
/// `Error` set when there is none or it is malformed.
std::unique_ptr<clang::tooling::CompilationDatabase> findProjectDatabaseFor(const std::string &SourceFile,
                                                                            std::string &Error);

} // namespace occlint
