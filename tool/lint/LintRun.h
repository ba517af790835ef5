// Runs the enabled checks over a list of files with clang-tidy's engine, one
// file at a time per worker thread (--jobs), and gathers what they found: the
// diagnostics of every parse and the facts records of every translation unit
// and arch. A file is parsed once for all the archs of its command when its
// own files never depend on the arch, else once per arch (CheckParse.h).
#pragma once

#include "facts/FactsRecords.h"
#include "lint/ParseGaps.h"
#include "lint/ProgressLine.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct LintJob {
  std::vector<std::string> files;
  /// The per-arch CUDA database (CudaCompilationDatabase). Thread-safe.
  const clang::tooling::CompilationDatabase *compilations = nullptr;
  /// A fresh options provider per parse: clang-tidy's providers cache per
  /// directory and are not thread-safe.
  std::function<std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>()> makeOptionsProvider;
  /// One parse for the archs of a command when the project's own files
  /// never depend on the arch (lint/CheckParse.h); false: one per arch.
  bool oneParseForArchs = true;
  /// Called (from any worker) with one line per file of several archs:
  /// whether one parse stood for them all, or why not (--verbose).
  std::function<void(const std::string &)> parseNote;
  unsigned jobs = 1;
  bool quiet = false;
  ProgressLine *progress = nullptr; // optional

  /// Each file in a process of its own (lint/IsolatedAnalysis.h), at most
  /// `maxMemoryMB` of resident memory each (0: no limit).
  bool isolate = false;
  uint64_t maxMemoryMB = 0;
  /// With `isolate`: called in the child before its analysis, and after it
  /// for the notes it kept (sent back); `parentNotes` gets them in occlint.
  std::function<void()> childStarts;
  std::function<nlohmann::json()> childNotes;
  std::function<void(const nlohmann::json &)> parentNotes;

  /// With `isolate`: a file's findings and facts from the result cache
  /// while nothing they depend on changed, else analysed and stored there
  /// (lint/UnitResultCache.h).
  struct ResultCacheUse {
    std::string directory; // "": occlint's cache directory
    /// The run's settings that change findings, as text.
    std::string runSettings;
    std::function<void(const std::string &Line)> verbose; // hit or miss per file (--verbose); optional
    std::function<void(const std::string &Line)> notice;  // a corrupt entry ignored, a failed store
  };
  std::optional<ResultCacheUse> resultCache;

  /// Whether nvcc compiled a file for an arch (ToolResourceReports::
  /// nvccAccepted), asked only for a parse with compiler errors: true makes
  /// them occlint's gap (lint/ParseGaps.h). Unset (--strict-parse), or an
  /// unknown verdict: the errors are reported as they are.
  std::function<std::optional<bool>(const std::string &File, const std::string &Arch)> nvccAccepted;
};

/// The check name of the diagnostic a file gets when its analysis crashed or
/// ran out of memory (LintResult::exitCode: 3).
inline constexpr const char InternalErrorCheckName[] = "occlint-internal-error";

struct LintOutcome {
  /// Sorted by file, offset, check and message; exact repeats (the same
  /// finding from two archs, or from a header two files include) dropped,
  /// as clang-tidy's own consumer does within one run.
  std::vector<clang::tidy::ClangTidyError> errors;
  /// One per translation unit and arch that a cuda-* check computed facts
  /// for, sorted by file and arch.
  std::vector<clang::tidy::occlint::TranslationUnitRecord> units;
  /// The parses whose compiler errors were hidden (nvcc compiled the file),
  /// sorted by file and arch.
  std::vector<ParseGap> parseGaps;
};

LintOutcome runLintJob(const LintJob &Job);

} // namespace occlint
