#include "checks/DivergenceBranchCheck.h"

#include <bit>
#include <set>

namespace clang::tidy::occlint {

// (Bools through OcclintCheck::boolOption: see there why not get<bool>.)
DivergenceBranchCheck::DivergenceBranchCheck(StringRef Name, ClangTidyContext *Context, bool DataSplits)
    : DivergenceCheck(Name, Context), DataSplits(DataSplits), ReportBoundaryGuards(boolOption("ReportBoundaryGuards", false)),
      ReportSingleLane(boolOption("ReportSingleLane", false)),
      MinOperations(Options.get("MinOperations", int64_t(10))),
      MinLoopShare(Options.get("MinLoopShare", int64_t(25))),
      HeavySingleLane(Options.get("HeavySingleLaneOperations", int64_t(64))) {}

void DivergenceBranchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  DivergenceCheck::storeOptions(Opts);
  Options.store(Opts, "ReportBoundaryGuards", ReportBoundaryGuards ? "true" : "false");
  Options.store(Opts, "ReportSingleLane", ReportSingleLane ? "true" : "false");
  Options.store(Opts, "MinOperations", std::to_string(MinOperations));
  Options.store(Opts, "MinLoopShare", std::to_string(MinLoopShare));
  Options.store(Opts, "HeavySingleLaneOperations", std::to_string(HeavySingleLane));
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
  case SplitKind::SingleThread: return Shape::SingleLane;
  default: return Shape::Split;
  }
}

} // namespace

void DivergenceBranchCheck::checkDivergence(const DivergenceResults &R, ASTContext &) {
  std::set<SourceLocation::UIntTy> Done;
  for (const DivergenceBranch &B : R.Branches) {
    const int64_t Work = B.WorkTaken + B.WorkOther;
    // Worth a warning: real work on the split paths each time, or, inside a
    // loop, a split that is a large part of the loop's iteration (the
    // interleaved reduction `if (tid % (2*s) == 0) s[tid] += s[tid + s]`)
    // and adds up over the loop to real work. Not: one or two stores, a
    // swap, a running minimum, a write-out by some lanes after a long loop.
    const bool RealWork = Work >= MinOperations;
    const bool DominatesItsLoop = B.Repeat > 1 && double(Work) * B.Repeat >= double(MinOperations) &&
                                  double(Work) * 100.0 >= double(MinLoopShare) * B.LevelWork;
    if (!RealWork && !DominatesItsLoop)
      continue;
    // Which of the two checks: a split decided by data (a switch on loaded
    // values too) or by the thread index.
    if (B.Cond.FromData != DataSplits)
      continue;
    const Shape S = B.What == "switch" ? Shape::Split : shapeOf(B);
    if (S == Shape::Boundary && !ReportBoundaryGuards)
      continue;
    if (S == Shape::SingleLane && !ReportSingleLane && Work < HeavySingleLane)
      continue;
    if (!Done.insert(B.Loc.getRawEncoding()).second) // once per place (instantiations, calling contexts)
      continue;
    std::string Split = B.What == "switch" ? "lanes take different cases" : describeSplit(B.Cond, B.WarpLanes);
    if (Split.empty())
      Split = "lanes take different paths";
    const std::string Assumed = assumption(B.Cond.Assumed, B.Kernel);
    if (B.Loop)
      diag(B.Loc, "the trip count of this loop differs between the lanes of a warp (%0 on '%1'): the warp repeats "
                  "the body (~%2 operations) until its last lane is done, with the finished lanes masked off%3")
          << Split << B.CondText << static_cast<unsigned>(B.WorkTaken) << Assumed;
    else
      diag(B.Loc, "this %0 splits warps: %1 on '%2'; each split warp runs both paths one after the other (~%3 "
                  "operations on one path, ~%4 on the other: ~%5 serialized)%6")
          << B.What << Split << B.CondText << static_cast<unsigned>(B.WorkTaken)
          << static_cast<unsigned>(B.WorkOther) << static_cast<unsigned>(Work) << Assumed;
  }
}

} // namespace clang::tidy::occlint
