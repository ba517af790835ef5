// One lint run from settings to findings: resolves the GPUs, the toolkit and
// the configuration, checks the inputs, wires the resource reports and the
// per-arch parses, and runs the checks (LintRun). Shared by the plain lint
// command, `occlint report` and `occlint lsp`; what to print is theirs.
#pragma once

#include "lint/LintSettings.h"
#include "outputs/LintResult.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace occlint {

/// The default checks: every cuda-* check but those declared off by default
/// (checks/CheckRegistry.h).
std::string defaultChecks();

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

/// A CUDA command: its file ends in .cu, or it says -x cu / -x cuda.
bool isCudaCommand(const clang::tooling::CompileCommand &Command);

/// The CUDA translation units of a compilation database (.cu, -x cu/cuda),
/// absolute, in order, each once whatever its spelling (`.` and `..`
/// removed), without those another one #includes (they go to
/// `Included`, and their diagnostics come from the includer's parse).
std::vector<std::string> cudaTranslationUnits(const clang::tooling::CompilationDatabase &Database,
                                              std::vector<std::string> &Included, llvm::raw_ostream *Verbose);

} // namespace occlint
