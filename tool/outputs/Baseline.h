// Comparing a run's findings with a saved run (`--baseline findings.json`, a
// `--format=json` output): which findings are new, and which of the saved
// ones are fixed, for CI comments (docs/output-formats.md, "Baseline").
//
// A finding is the same as a saved one when its check, its path (as every
// output shows it: outputs/PathRoots.h, so a baseline saved on another
// machine or checkout matches) and its message are; lines are not compared,
// since an edit above a finding moves it. Among equal findings, each saved
// one matches at most one current one, the nearest in line first.
#pragma once

#include "outputs/DiagnosticRecords.h"
#include "outputs/PathRoots.h"

#include <string>
#include <vector>

namespace occlint {

struct BaselineFinding {
  std::string check, severity, message;
  std::string path; // as outputs show it
  unsigned line = 0;
};

struct BaselineComparison {
  std::string file;                   // the baseline file, as given
  std::vector<bool> isNew;            // per current diagnostic: not in the baseline
  std::vector<BaselineFinding> fixed; // in the baseline, no longer found
  size_t newCount() const;
};

/// Reads the diagnostics of a saved JSON output. Returns "" or the problem,
/// naming the file: missing, unreadable, not JSON, not occlint's JSON.
std::string readBaseline(const std::string &Path, const PathRoots &Roots, std::vector<BaselineFinding> &Out);

/// Which current findings are new and which saved ones are fixed.
BaselineComparison compareWithBaseline(const std::vector<DiagnosticRecord> &Current, const PathRoots &Roots,
                                       const std::vector<BaselineFinding> &Saved);

} // namespace occlint
