// The commands of the occlint binary, one function each (main.cpp picks one
// by the first argument). Each lives in its own place: the lint command (and
// compdb, which writes the lint command's Clang commands) in lint/, report in
// report/, lsp in lsp/, merge (and `wrap --lint`) in buildlint/, occupancy and
// resources here.
#pragma once

namespace occlint {

int runLintCommand(int Argc, const char **Argv);
int runOccupancyCommand(int Argc, const char **Argv);
int runResourcesCommand(int Argc, const char **Argv);
int runReportCommand(int Argc, const char **Argv);
int runLspCommand(int Argc, const char **Argv);
int runCompdbCommand(int Argc, const char **Argv);
int runMergeCommand(int Argc, const char **Argv); // buildlint/: the findings a linted build kept

// `occlint wrap --lint [--gpu GPU]... [--checks GLOBS] [launcher options] [--]
// <compile command>` (buildlint/WrapLint.cpp): the compiler launcher
// (toolchain/CompilerLauncher.h) that also lints the translation unit in its build
// step once the compile succeeded, with the ptxas report that compile just
// captured: findings in clang's layout on stderr (the build log) and in the
// sidecar's "lint" for `occlint merge`. The exit status stays the
// compiler's. docs/build-integration.md.
/// True when the arguments after "wrap" ask for it (`--lint` among the options before the command).
bool wrapAsksForLint(int Argc, const char **Argv);
/// Argv[0] is "wrap"; `Argv0` is occlint's own argv[0] (the built-in headers are found next to it).
int runWrapLintCommand(int Argc, const char **Argv, const char *Argv0);

} // namespace occlint
