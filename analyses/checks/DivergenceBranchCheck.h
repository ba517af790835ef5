// cuda-divergence-branch: a condition (if, switch, ?:, loop) that splits the
// lanes of a warp, so that each split warp runs both paths one after the
// other, where the estimated loss (the share of the kernel's lane-slots it
// leaves idle, divergence/BranchLoss.h) is at least MinLossPercent. Boundary
// guards are left out, and single-lane sections below the threshold, unless
// the options ask for them.
// docs/checks/cuda-divergence-branch.md
#pragma once

#include "checks/DivergenceCheck.h"

namespace clang::tidy::occlint {

class DivergenceBranchCheck : public DivergenceCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-divergence-branch", CheckSeverity::Warning, OnByDefault};
  DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context) : DivergenceBranchCheck(Name, Context, false) {}
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  /// MinLossPercent's default, chosen on the tuning corpus
  /// (docs/divergence-precision.md, "The loss threshold").
  static constexpr int64_t DefaultMinLossPercent = 10;

protected:
  /// `DataSplits`: report the splits decided by data (loaded values, atomics)
  /// instead of those decided by the thread index (cuda-divergence-data-branch).
  DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context, bool DataSplits);
  void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) override;

private:
  const bool DataSplits;
  const bool ReportBoundaryGuards; // `if (i < n)`, early return of out-of-range threads, grid-stride loops: at any loss
  const bool ReportSingleLane;     // `if (threadIdx.x == 0)`, `lane == 0`: at any loss
  const int64_t MinOperations;     // fewer operations on the split paths over all the runs in a call: not reported
  const int64_t MinLossPercent;    // estimated share of the kernel's lane-slots idle from which a split is reported
};

/// cuda-divergence-data-branch: the same for splits decided by data (escape
/// tests, CSR row lengths, tree walks): real, but a property of the input
/// more than of the code; not in occlint's default check set.
/// docs/checks/cuda-divergence-data-branch.md
class DivergenceDataBranchCheck : public DivergenceBranchCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-divergence-data-branch", CheckSeverity::Warning, OffByDefault};
  DivergenceDataBranchCheck(StringRef Name, ClangTidyContext *Context) : DivergenceBranchCheck(Name, Context, true) {}
};

} // namespace clang::tidy::occlint
