// Running a program from an argv vector -- never through a shell -- with its
// stdout and stderr captured and an optional timeout. POSIX only. This is the
// one place occlint starts a process, and it starts only the programs of the
// process's allowlist (toolchain/ProgramAllowlist.h, docs/security.md). The one
// exception is the compiler launcher (toolchain/CompilerLauncher.h: occlint-wrap
// runs the build's own compile command).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace occlint {

struct SubprocessOptions {
  /// Directory the child starts in; empty = ours.
  std::string workingDirectory;
  /// Wall-clock limit; zero = none. On expiry the child's whole process group
  /// gets SIGKILL (the child is started as the leader of a new group, so the
  /// compiler's own children -- cicc, ptxas -- go too).
  std::chrono::milliseconds timeout{0};
  /// Output kept per stream; more is read and discarded (never blocks the child).
  size_t maxOutputBytes = size_t(64) << 20;
};

struct SubprocessResult {
  bool started = false;  // false: could not start it (missing binary, ...): see error
  bool refused = false;  // not started: the program is not on the allowlist (see error)
  bool timedOut = false; // killed because the timeout expired
  int exitCode = -1;     // exit status when it exited normally
  int termSignal = 0;    // the signal that ended it, if one did
  std::string out, err;  // captured stdout / stderr
  std::string error;     // why it did not start, or why it failed to run to the end
  bool ok() const { return started && !timedOut && termSignal == 0 && exitCode == 0; }
  /// A one-line description of how it ended: "exit status 2", "timed out after 1s"...
  std::string describe() const;
};

/// Runs argv[0] (searched in $PATH's absolute entries when it has no '/';
/// a relative path is taken from our working directory) with argv as its
/// arguments and our environment, if processAllowlist() allows the file it
/// resolves to: that realpath is what runs (argv[0] is passed as given). Both pipes are read with poll(), so large
/// outputs do not deadlock. Never throws.
SubprocessResult runSubprocess(const std::vector<std::string> &argv, const SubprocessOptions &options = {});

/// How many children runSubprocess has started in this process (for tests that
/// must prove that no compiler ran, e.g. on a cache hit).
uint64_t subprocessSpawnCount();

} // namespace occlint
