// Graceful degradation for code nvcc compiles and Clang cannot parse
// (docs/nvcc-parity.md). When a parse has compiler errors and nvcc compiled
// the same file for the same arch, the errors are occlint's gap, not the
// user's bug: they are not reported, the cuda-* findings that lie in a
// function with an error are dropped (Clang's error recovery gives wrong
// values, not only missing ones), and the run says so once per parse.
#pragma once

#include "facts/FunctionExtents.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <optional>
#include <string>
#include <vector>

namespace occlint {

/// What one degraded parse hid.
struct ParseGap {
  std::string file; // the translation unit, as linted
  std::string arch; // of the parse
  /// Clang's first error (by file and offset), as it would have been reported.
  clang::tidy::ClangTidyError firstError{"clang-diagnostic-error", clang::tidy::ClangTidyError::Error, "", false};
  /// Functions with an error in them; unknown when no cuda-* check ran (the
  /// extents come from the checks' shared facts).
  std::optional<unsigned> functionsNotAnalysed;
  unsigned findingsDropped = 0;
};

/// A compiler error of Clang's (clang-diagnostic-*, at error level).
bool isCompilerError(const clang::tidy::ClangTidyError &E);

/// The arch of a per-arch parse command: its --cuda-gpu-arch= value ("" if none).
std::string parseArchOf(const std::vector<std::string> &CommandLine);

/// Removes the compiler errors of one parse from `Errors`, and the cuda-*
/// findings inside a function (of `Extents`, when known) that has one;
/// returns what it did. In time O((F + E) log(F + E)) for F functions and E
/// diagnostics. `Errors` must have at least one compiler error.
ParseGap degradeParse(std::vector<clang::tidy::ClangTidyError> &Errors,
                      const std::optional<std::vector<clang::tidy::occlint::FunctionExtent>> &Extents);

} // namespace occlint
