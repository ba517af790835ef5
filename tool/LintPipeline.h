// One lint run from settings to findings: resolves the GPUs, the toolkit and
// the configuration, checks the inputs, wires the resource reports and the
// per-arch parses, and runs the checks (LintRun). Shared by the plain lint
// command, `occlint report` and `occlint lsp`; what to print is theirs.
#pragma once

#include "DiagnosticRecords.h"
#include "FactsRecords.h"
#include "LintSettings.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace occlint {

/// The default checks: every cuda-* check but the per-launch remark.
inline constexpr const char DefaultChecks[] = "-*,cuda-*,-cuda-occupancy-report";

struct LintResult {
  /// ExitOk when the run happened; ExitUsageOrInput when the settings or the
  /// inputs were wrong (`error` says why, one line, naming the file/option).
  int setupExitCode = 0;
  std::string error;

  std::vector<clang::tidy::ClangTidyError> errors;       // sorted, repeats dropped
  std::vector<DiagnosticRecord> diagnostics;             // the same, with lines and columns
  std::vector<clang::tidy::occlint::TranslationUnitRecord> units;
  size_t fileCount = 0;
  bool sourceOnly = false;                               // no CUDA toolkit found

  /// A context with the first file's options, for clang-tidy's handleErrors
  /// (colours, fixes) and exportReplacements.
  std::unique_ptr<clang::tidy::ClangTidyContext> context;
  std::string firstFile;

  bool compilerErrors() const; // clang-diagnostic-error: the file did not parse
  bool checkErrors() const;    // a check's error, or a warning promoted by WarningsAsErrors
  /// ExitOk, ExitFindings (errors from checks or promoted warnings) or
  /// ExitUsageOrInput (the code did not parse).
  int exitCode() const;
};

/// The options provider the settings describe (defaults, .clang-tidy files,
/// --config/--config-file, then the command-line overrides); null with
/// `Error` set for an unreadable or invalid configuration.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> createOptionsProvider(const LintSettings &Settings,
                                                                            std::string &Error);

/// Runs the checks on `Files` with the commands of `Database` (the user's:
/// compile_commands.json or `-- flags`). `Argv0` locates the built-in CUDA
/// headers. Notes (source-only mode, --verbose) go to `Log`.
LintResult runLint(const LintSettings &Settings, const clang::tooling::CompilationDatabase &Database,
                   const std::vector<std::string> &Files, const char *Argv0, llvm::raw_ostream &Log);

/// The CUDA translation units of a compilation database (.cu, -x cu/cuda),
/// absolute, in order, without those another one #includes (they go to
/// `Included`, and their diagnostics come from the includer's parse).
std::vector<std::string> cudaTranslationUnits(const clang::tooling::CompilationDatabase &Database,
                                              std::vector<std::string> &Included, llvm::raw_ostream *Verbose);

} // namespace occlint
