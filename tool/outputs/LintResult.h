// What one lint run produced: clang-tidy's errors, the same as plain records
// with lines and columns, and the facts of each translation unit. The lint
// pipeline (lint/LintPipeline.h) fills it; the outputs (text, JSON, SARIF),
// the report and the language server read it.
#pragma once

#include "facts/FactsRecords.h"
#include "outputs/Baseline.h"
#include "outputs/DiagnosticRecords.h"
#include "outputs/PathRoots.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

/// A parse whose Clang errors were not reported because nvcc compiled the
/// same file for the same arch: occlint's gap, not the user's bug
/// (docs/nvcc-parity.md). A warning on stderr, a tool notification in JSON
/// and SARIF.
struct ParseGapNotice {
  std::string file; // the translation unit
  std::string arch;
  DiagnosticRecord firstError;                  // Clang's first error, with line and column
  std::optional<unsigned> functionsNotAnalysed; // unknown when no cuda-* check ran
  unsigned findingsDropped = 0;
  /// "a.cu: Clang cannot parse code that nvcc accepts (sm_90): <error>
  /// (a.cu:12); 2 functions with errors were not analysed".
  std::string message() const;
};

struct LintResult {
  /// ExitOk when the run happened; ExitUsageOrInput when the settings or the
  /// inputs were wrong (`error` says why, one line, naming the file/option).
  int setupExitCode = 0;
  std::string error;

  std::vector<clang::tidy::ClangTidyError> errors; // sorted, repeats dropped
  std::vector<DiagnosticRecord> diagnostics;       // the same, with lines and columns
  std::vector<clang::tidy::occlint::TranslationUnitRecord> units;
  size_t fileCount = 0;
  bool sourceOnly = false; // no CUDA toolkit found
  /// How paths are shown in the report, JSON and SARIF (outputs/PathRoots.h).
  PathRoots roots;
  /// --baseline: which findings are new and which saved ones are fixed.
  std::optional<BaselineComparison> baseline;
  /// The parses whose compiler errors were hidden, by file and arch; their
  /// errors are not in `errors` and do not count in exitCode().
  std::vector<ParseGapNotice> parseGaps;

  /// A context with the first file's options, for clang-tidy's handleErrors
  /// (colours, fixes) and exportReplacements.
  std::unique_ptr<clang::tidy::ClangTidyContext> context;
  std::string firstFile;

  bool compilerErrors() const; // clang-diagnostic-error: the file did not parse
  bool checkErrors() const;    // a check's error, or a warning promoted by WarningsAsErrors
  /// The analysis of a file crashed or ran out of memory (occlint-internal-error).
  bool internalErrors() const;
  /// ExitOk, ExitFindings (errors from checks or promoted warnings),
  /// ExitUsageOrInput (the code did not parse) or ExitInternal (the analysis
  /// of a file crashed or ran out of memory; the others were analysed).
  int exitCode() const;
};

} // namespace occlint
