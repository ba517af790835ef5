#include "checks/DivergenceBranchCheck.h"

#include <algorithm>
#include <bit>
#include <map>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

// (Bools through OcclintCheck::boolOption: see there why not get<bool>.)
DivergenceBranchCheck::DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context, bool DataSplits)
    : DivergenceCheck(Name, Context), DataSplits(DataSplits),
      ReportBoundaryGuards(boolOption("ReportBoundaryGuards", false)),
      ReportSingleLane(boolOption("ReportSingleLane", false)), MinOperations(Options.get("MinOperations", int64_t(10))),
      MinLossPercent(Options.get("MinLossPercent", int64_t(DefaultMinLossPercent))) {}

void DivergenceBranchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  DivergenceCheck::storeOptions(Opts);
  Options.store(Opts, "ReportBoundaryGuards", ReportBoundaryGuards ? "true" : "false");
  Options.store(Opts, "ReportSingleLane", ReportSingleLane ? "true" : "false");
  Options.store(Opts, "MinOperations", std::to_string(MinOperations));
  Options.store(Opts, "MinLossPercent", std::to_string(MinLossPercent));
}

namespace {

enum class Shape { Split, Boundary, SingleLane };

/// Edge lanes: one side of the split does nothing and fewer than half of the
/// lanes take it (the halo columns of a tile, the last lane of a row without
/// a peer). The warp runs the work once with those lanes idle: no
/// serialization, a loss under half of that path, the price of the tiling;
/// reported with the boundary guards.
bool edgeLanes(const DivergenceBranch &B, uint32_t TrueLanes) {
  const int True = std::popcount(TrueLanes);
  if (B.WorkOther == 0) // the false side is empty: the lanes there idle
    return 32 - True < 16;
  if (B.WorkTaken == 0)
    return True < 16;
  return false;
}

Shape shapeOf(const DivergenceBranch &B) {
  const ThreadValue C = toBool(B.Cond);
  if (auto M = C.trueLanes()) {
    const int N = std::popcount(*M);
    if (N == 1 || N == 31)
      return Shape::SingleLane;
    return !B.Loop && edgeLanes(B, *M) ? Shape::Boundary : Shape::Split;
  }
  switch (C.Split) {
  case SplitKind::Boundary:
    // A lane pattern narrowed by a boundary guard: its sure lanes say the rest.
    if (C.SureOther != 0 && !(!B.Loop && edgeLanes(B, ~C.SureOther)))
      return Shape::Split;
    return Shape::Boundary;
  case SplitKind::SingleLane:
  case SplitKind::SingleThread:
    return Shape::SingleLane;
  default:
    return Shape::Split;
  }
}

/// "about 18 %", "under 1 %": the estimate is rough, its wording says so.
std::string describeLoss(double Loss) {
  const double Percent = Loss * 100.0;
  if (Percent < 1.0)
    return "under 1 %";
  return "about " + std::to_string(static_cast<int>(Percent + 0.5)) + " %";
}

} // namespace

void DivergenceBranchCheck::checkDivergence(const DivergenceResults &R, ASTContext &) {
  // Per place (instantiations and calling contexts give several records):
  // the costliest record of the branches this check reports.
  std::map<SourceLocation::UIntTy, const DivergenceBranch *> Costliest;
  std::vector<SourceLocation::UIntTy> Order;
  for (const DivergenceBranch &B : R.Branches) {
    // Which of the two checks: a split decided by data (a switch on loaded
    // values too) or by the thread index.
    if (B.Cond.FromData != DataSplits)
      continue;
    // Too little work on the split paths, over all the branch's runs in a
    // call, to matter whatever its share: a store or two, a swap, a running
    // minimum (a share of a tiny kernel; the compiler predicates such paths).
    const int64_t Work = B.WorkTaken + B.WorkOther;
    if (double(Work) * B.Repeat < double(MinOperations))
      continue;
    const Shape S = B.What == "switch" ? Shape::Split : shapeOf(B);
    const bool AtAnyLoss =
        (S == Shape::Boundary && ReportBoundaryGuards) || (S == Shape::SingleLane && ReportSingleLane);
    if (S == Shape::Boundary && !ReportBoundaryGuards)
      continue;
    if (!AtAnyLoss && B.Loss * 100.0 < double(MinLossPercent))
      continue;
    auto [It, New] = Costliest.try_emplace(B.Loc.getRawEncoding(), &B);
    if (New)
      Order.push_back(It->first);
    else if (B.Loss > It->second->Loss)
      It->second = &B;
  }
  for (SourceLocation::UIntTy Place : Order) {
    const DivergenceBranch &B = *Costliest[Place];
    const int64_t Work = B.WorkTaken + B.WorkOther;
    std::string Split = B.What == "switch" ? "lanes take different cases" : describeSplit(B.Cond, B.WarpLanes);
    if (Split.empty())
      Split = "lanes take different paths";
    const std::string Assumed = assumption(B.Cond.Assumed, B.Kernel);
    if (B.Loop)
      diag(B.Loc, "the trip count of this loop differs between the lanes of a warp (%0 on '%1'): the warp repeats "
                  "the body (~%2 operations a trip) until its last lane is done, with the finished lanes masked off; "
                  "estimated loss: %3 of the kernel's lane-slots idle here%4")
          << Split << B.CondText << static_cast<unsigned>(std::min(double(B.WorkTaken) / B.Trips + 0.5, 4e9))
          << describeLoss(B.Loss) << Assumed;
    else
      diag(B.Loc, "this %0 splits warps: %1 on '%2'; each split warp runs both paths one after the other (~%3 "
                  "operations on one path, ~%4 on the other: ~%5 serialized); estimated loss: %6 of the kernel's "
                  "lane-slots idle here%7")
          << B.What << Split << B.CondText << static_cast<unsigned>(B.WorkTaken) << static_cast<unsigned>(B.WorkOther)
          << static_cast<unsigned>(Work) << describeLoss(B.Loss) << Assumed;
  }
}

} // namespace clang::tidy::occlint
