// Runs the enabled checks over a list of files with clang-tidy's engine, one
// file at a time per worker thread (--jobs), and gathers what they found: the
// diagnostics of every parse (each file is parsed once per target arch) and
// the facts records of every translation unit and arch.
#pragma once

#include "facts/FactsRecords.h"
#include "lint/ProgressLine.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <memory>
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
  unsigned jobs = 1;
  bool quiet = false;
  ProgressLine *progress = nullptr; // optional
};

struct LintOutcome {
  /// Sorted by file, offset, check and message; exact repeats (the same
  /// finding from two archs, or from a header two files include) dropped,
  /// as clang-tidy's own consumer does within one run.
  std::vector<clang::tidy::ClangTidyError> errors;
  /// One per translation unit and arch that a cuda-* check computed facts
  /// for, sorted by file and arch.
  std::vector<clang::tidy::occlint::TranslationUnitRecord> units;
};

LintOutcome runLintJob(const LintJob &Job);

} // namespace occlint
