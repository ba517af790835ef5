// cuda-divergence-branch: a condition (if, switch, ?:, loop) that splits the
// lanes of a warp with real work on the split paths, so that each split warp
// runs both paths one after the other. Boundary guards and single-lane
// sections are left out unless the options ask for them.
// docs/checks/cuda-divergence-branch.md
#pragma once

#include "checks/DivergenceCheck.h"

namespace clang::tidy::occlint {

class DivergenceBranchCheck : public DivergenceCheck {
public:
  DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context) : DivergenceBranchCheck(Name, Context, false) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// `DataSplits`: report the splits decided by data (loaded values, atomics)
  /// instead of those decided by the thread index (cuda-divergence-data-branch).
  DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context, bool DataSplits);
  void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) override;

private:
  const bool DataSplits;
  const bool ReportBoundaryGuards;   // `if (i < n)`, early return of out-of-range threads, grid-stride loops
  const bool ReportSingleLane;       // `if (threadIdx.x == 0)`, `lane == 0`
  const int64_t MinOperations;       // less work than this on the paths each time: not reported, unless it dominates its loop
  const int64_t MinLoopShare;        // percent of a loop iteration's work from which a small split inside the loop counts
  const int64_t HeavySingleLane;     // single-lane sections at least this heavy are reported anyway
};

/// cuda-divergence-data-branch: the same for splits decided by data (escape
/// tests, CSR row lengths, tree walks): real, but a property of the input
/// more than of the code; not in occlint's default check set.
/// docs/checks/cuda-divergence-data-branch.md
class DivergenceDataBranchCheck : public DivergenceBranchCheck {
public:
  DivergenceDataBranchCheck(StringRef Name, ClangTidyContext *Context)
      : DivergenceBranchCheck(Name, Context, true) {}
};

} // namespace clang::tidy::occlint
