// Each file analysed in a process of its own, so that a crash or a memory
// blow-up in the analysis of one file costs that file only: the others are
// analysed and printed normally, and the failed one gets a diagnostic that
// says what happened. Why a forked process and not a recovered crash in a
// thread: docs/crash-isolation.md.
//
// The child is a fork of occlint at the moment of the call (no exec): it has
// the settings, the database and the resource reports already, analyses its
// file, sends the findings back as JSON (lint/WorkerMessages.h) and leaves
// with _exit. POSIX only.
#pragma once

#include "lint/ProgressLine.h"
#include "lint/WorkerMessages.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct ChildFailure {
  std::string what;         // "crashed (Segmentation fault)", "used more than 8192 MB of memory (--max-memory)"
  std::string check;        // the check that was running, when the crash report names one
  std::string crashLog;     // the child's stack dump, for the crash file
  bool outOfMemory = false; // killed at --max-memory (not necessarily a bug: a huge file)
};

struct IsolatedFile {
  std::string file;
  std::optional<WorkerResult> result; // null when the child failed: see failure
  ChildFailure failure;
  /// What the child wrote on stderr (Clang's "N warnings generated.", its
  /// "Error while processing"), a crash's stack dump left out, as it wrote
  /// it: the result cache keeps it to say it again on a hit.
  std::string said;
};

struct IsolationLimits {
  unsigned jobs = 1;        // children at a time
  uint64_t maxMemoryMB = 0; // resident memory per child; 0 = no limit
};

/// Runs `Analyse` on each file in a child process, up to `jobs` at a time,
/// and calls `Done` in this process for each file as its child ends (in the
/// order they end). What a child writes on stderr is passed on to `Errs` when
/// it ends (a crash's stack dump is not: it goes to ChildFailure::crashLog).
/// `Analyse` runs in the child only; its exceptions become failures.
void analyseInChildren(const std::vector<std::string> &Files, const IsolationLimits &Limits,
                       const std::function<WorkerResult(const std::string &File)> &Analyse,
                       const std::function<void(IsolatedFile)> &Done, ProgressLine *Progress, llvm::raw_ostream &Errs);

} // namespace occlint
