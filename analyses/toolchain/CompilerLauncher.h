// The compiler launcher: `occlint-wrap [options] [--] <compiler> <args...>`
// and `occlint wrap ...` (docs/build-integration.md). It runs the build's own
// compile command with ptxas's report turned on, passes stdout, stderr (less
// the report lines it added) and the exit status through, and keeps the
// report of every arch in the sidecar `<object>.occlint.json` (BuildCapture.h)
// and in occlint's result cache (latestReportKey, ResourceCompiler.h).
//
// This is the one place occlint starts a program that the allowlist
// (ProgramAllowlist.h) does not govern: the user's build invoked it with the
// command the build runs anyway (docs/security.md, "The exception").
#pragma once

#include <string>
#include <vector>

namespace occlint {

struct LauncherStreams {
  int stdoutFd = 1; // the compiler's stdout (inherited: never read by the launcher)
  int stderrFd = 2; // where the compiler's filtered stderr and the launcher's messages go
};

struct LauncherOutcome {
  int exitCode = 0;   // the compiler's exit status (or the launcher's: 2 usage, 126/127 cannot run)
  int termSignal = 0; // the signal that ended the compiler, if one did
};

/// Runs the launcher. `args` is everything after the program name: the
/// launcher's options (--no-sidecar, --no-cache, --help), an optional `--`,
/// then the command. With `execWhenUnchanged`, a command it does not capture
/// (not nvcc/clang, no CUDA source, -E, -M, a link step...) replaces this
/// process (execvp) instead of running as a child. Never throws.
LauncherOutcome runCompilerLauncher(const std::vector<std::string> &args, const LauncherStreams &io = {},
                                    bool execWhenUnchanged = false);

/// main() of occlint-wrap and of `occlint wrap` (argv[0] is the program or
/// "wrap"): runs the launcher and ends the way the compiler ended (its exit
/// status, or the same signal, re-raised without a core file).
int compilerLauncherMain(int argc, const char **argv);

/// The launcher's exit status, or, when a signal ended the compiler, the
/// same signal raised again (default action, no core file; this returns only
/// if the signal does not end the process).
int endLikeTheCompiler(const LauncherOutcome &outcome);

} // namespace occlint
