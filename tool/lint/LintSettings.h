// What one lint run is asked to do, independent of where the request comes
// from: the command line (LintCommand), `occlint report` or `occlint lsp`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct LintSettings {
  // clang-tidy's options, same names and meanings. Unset: the configuration's
  // (.clang-tidy files) or occlint's default.
  std::optional<std::string> checks;
  std::optional<std::string> warningsAsErrors;
  std::optional<std::string> headerFilter;
  std::optional<bool> systemHeaders;
  std::optional<std::string> config;     // YAML text
  std::optional<std::string> configFile; // a file with the YAML
  std::string lineFilter;                // JSON, as clang-tidy's --line-filter
  std::optional<bool> color;             // --color=always/never; unset: auto
  bool quiet = false;

  // occlint's own.
  std::vector<std::string> gpus; // --gpu: the Targets option, and the archs parsed
  std::string cudaPath;          // --cuda-path ("" = $CUDA_PATH, /usr/local/cuda)
  std::string root;              // --root: the project root paths are shown from ("" = chosen, PathRoots.h)
  std::string baseline;          // --baseline: a saved JSON output to compare with ("" = none)
  std::vector<std::string> ptxasLogs;
  bool noCompile = false;
  /// --strict-parse: Clang's errors in code nvcc compiled are reported as
  /// errors (exit 2) instead of a warning (lint/ParseGaps.h).
  bool strictParse = false;
  /// --parse-each-arch: one parse per arch even when the file's own files
  /// never depend on the arch (lint/CheckParse.h).
  bool parseEachArch = false;
  bool verbose = false;
  /// --allow-compiler globs from the user's command line (the user config
  /// file and $OCCLINT_ALLOW_COMPILER are read by runLint itself).
  std::vector<std::string> allowCompilers;
  /// The toolkit whose programs are allowed, as the user named it (""
  /// = $CUDA_PATH or /usr/local/cuda). The lint and report commands set it to
  /// --cuda-path; the language server to its own --cuda-path only, since
  /// initializationOptions can come from a workspace's settings.
  std::string trustedCudaPath;
  /// false: start no process at all (the language server in a workspace the
  /// user has not trusted): resources from the cache, else estimated.
  bool startProcesses = true;
  unsigned jobs = 1;
  /// --compile-timeout: seconds one compiler process may run before it is
  /// killed (with its process group); the file then has no resource report.
  unsigned compileTimeoutSeconds = 120;
  /// --max-memory: megabytes of resident memory the analysis of one file may
  /// use; past it that file gets an internal-error diagnostic.
  uint64_t maxMemoryMB = 8192;
  /// Each file analysed in a process of its own (docs/crash-isolation.md), so
  /// that a crash or a memory blow-up costs that file only. Off only inside
  /// that process itself.
  bool isolateFiles = true;
  bool progress = false; // the progress line (caller decides: terminal and not --quiet)
  /// Each file's findings and facts kept in occlint's cache and reused while
  /// nothing they depend on changed (lint/UnitResultCache.h). Off with
  /// --no-result-cache, and in the language server (it analyses the open
  /// buffer). Used where files are analysed in processes of their own.
  bool resultCache = true;

  /// Files (.cu linted inside another translation unit) whose diagnostics are
  /// shown although they are headers of that translation unit.
  std::vector<std::string> showDiagnosticsIn;
};

} // namespace occlint
