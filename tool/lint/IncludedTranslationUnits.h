// Some projects compile one .cu that #includes others (a "unity" file) while
// the included .cu files are also in compile_commands.json. Linting both would
// analyse the included file twice; the included one is skipped.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace occlint {

struct SkippedTranslationUnit {
  std::string file;       // the translation unit not linted on its own
  std::string includedBy; // the translation unit that #includes it
};

/// The files of `Files` (CUDA translation units of `Database`) that no other
/// one of them #includes, in order; the others go to `Skipped`. The scan is
/// textual: `#include "x.cu"` / `<x.cu>` lines of each file (not of its
/// headers), resolved against the including file's directory and the -I,
/// -iquote, -isystem, -idirafter directories of its command (nvcc commands
/// translated first). When files include each other, the first one in order
/// is kept.
std::vector<std::string> withoutIncludedTranslationUnits(const std::vector<std::string> &Files,
                                                         const clang::tooling::CompilationDatabase &Database,
                                                         std::vector<SkippedTranslationUnit> &Skipped);

} // namespace occlint
