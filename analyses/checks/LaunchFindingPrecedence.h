// One finding per root cause: the precedence table of the launch and
// occupancy checks (docs/launch-analysis.md, "One finding per root cause").
// Each check declares its row (CheckDeclaration::row, LaunchFindingRow).
// Each finding keeps its own check name (--checks, NOLINT and SARIF rule ids
// work as before); a finding the table makes moot is not printed, and is
// recorded on the launch as suppressed (LaunchOnTarget::suppressed, the JSON
// output's "suppressed").
//
//   1. cuda-launch-invalid-config: a launch it would report as unable to
//      start gets no other finding from cuda-launch-tiny-grid,
//      cuda-launch-block-not-warp-multiple, cuda-occupancy-block-cap,
//      cuda-occupancy-register-cliff, cuda-occupancy-pipeline-depth or
//      cuda-launch-tail-wave, whether
//      invalid-config is enabled or not (the launch cannot start either way),
//      nor from cuda-occupancy-report while invalid-config is enabled (without
//      it, the remark says `cannot launch` and why: the same root cause).
//   2. cuda-launch-tiny-grid: a grid of fewer blocks than the target has SMs
//      (exact, or bounded above) puts at most one block on each SM, so the
//      per-SM findings (block-cap, register-cliff, tail-wave) are moot, and
//      block-not-warp-multiple speaks of the masked lanes only, not of the
//      warp slots they hold (no SM runs short of them).
//   3. The per-SM findings.
//
// Row 2 applies only while its winning check is enabled in the run: turning
// tiny-grid off ends it (block-cap and register-cliff then stay quiet on such
// grids by their own rule, OcclintCheck::gridBeyondOneWave). (cuda-occupancy-pipeline-depth
// is in row 1 only: its "fewer stages, more blocks per SM" case asks for a
// grid larger than one wave itself, and its single-stage case does not depend
// on the grid.) cuda-occupancy-spills, a finding about a
// kernel rather than a launch, is in no row.
#pragma once

#include "checks/CheckDeclaration.h"
#include "facts/TranslationUnitFacts.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// Why a finding is moot; empty `by`: it is not.
struct MootVerdict {
  std::string by;     // the winning check
  std::string reason; // "the launch cannot start on H100 SXM"
  explicit operator bool() const { return !by.empty(); }
};

class LaunchFindingPrecedence {
public:
  /// `IsEnabled` says whether a check is enabled in this run
  /// (ClangTidyContext::isCheckEnabled); it is asked here, once per winner.
  LaunchFindingPrecedence(const TranslationUnitFacts &Facts, llvm::function_ref<bool(StringRef)> IsEnabled);

  /// Whether `Check`'s finding on this launch and target is moot, and why.
  MootVerdict mootOnTarget(StringRef Check, const LaunchOnTarget &L) const;
  /// The same for a check that reports once per launch site
  /// (block-not-warp-multiple): moot when invalid-config reports the launch,
  /// for its shape or on any target.
  MootVerdict mootAtSite(StringRef Check, const LaunchSite &Site) const;
  /// The site's launches on the targets (none when no target is analysed).
  const std::vector<const LaunchOnTarget *> &targetsOf(const LaunchSite &Site) const;
  /// Row 2 for block-not-warp-multiple: the grid puts at most one block on
  /// each SM of every target the launch is analysed for.
  bool atMostOneBlockPerSM(const LaunchSite &Site) const;

  /// The grid is known to be smaller than the target's SM count.
  static bool gridBelowSMCount(const LaunchOnTarget &L);

private:
  bool invalid(const LaunchOnTarget &L) const;

  StringRef InvalidConfig, TinyGrid; // the checks that win rows 1 and 2
  bool InvalidConfigOn, TinyGridOn;
  std::map<const LaunchSite *, bool> ShapeErrors;                            // invalid-config's shape errors per site
  std::map<const LaunchSite *, std::vector<const LaunchOnTarget *>> Targets; // each site's launches on targets
};

} // namespace clang::tidy::occlint
