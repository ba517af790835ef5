#include "checks/BlockNotWarpMultipleCheck.h"

#include "checks/fixes/BlockResizeSafety.h"
#include "checks/fixes/BlockSizeLiteral.h"
#include "gpu/FindingShares.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

// Every arch occlint knows has 32-lane warps (cuda_occupancy.h: warpSize).
constexpr uint64_t WarpSize = 32;

// "rounding the block up to 128 threads launches 28 more threads per block:
// ...; safe here: <why>" with the edits, or "...; no fix-it: <the condition
// that failed>".
void BlockNotWarpMultipleCheck::noteResize(const LaunchSite &Site, const IntegerLiteral &Literal, uint64_t Threads,
                                           uint64_t Lanes, const TranslationUnitFacts &Facts, ASTContext &Ctx,
                                           SourceLocation Loc) {
  BlockResizeVerdict Verdict;
  const KernelInfo *Kernel = Facts.kernelFor(Site.kernel);
  if (Kernel && Kernel->launchBoundsMaxThreads && int64_t(Lanes) > *Kernel->launchBoundsMaxThreads)
    Verdict.why = "'" + Kernel->displayName + "' has __launch_bounds__(" +
                  std::to_string(*Kernel->launchBoundsMaxThreads) + "), which a larger block would exceed";
  else
    Verdict = checkBlockResize(Site, Threads, Lanes, Ctx);
  auto Note = diag(Loc,
                   "rounding the block up to %0 threads launches %1 more thread%s1 per block: the kernel must "
                   "ignore them and the grid must be recomputed; %2",
                   DiagnosticIDs::Note)
              << static_cast<unsigned>(Lanes) << static_cast<unsigned>(Lanes - Threads)
              << ((Verdict.safe ? "safe here: " : "no fix-it: ") + Verdict.why);
  if (!Verdict.safe)
    return;
  // One fix-it, both edits: the block and, where it must change with it, the grid.
  Note << FixItHint::CreateReplacement(Literal.getSourceRange(), std::to_string(Lanes));
  if (Verdict.grid)
    Note << FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Verdict.grid->getSourceRange()),
                                         Verdict.newGrid);
}

void BlockNotWarpMultipleCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchSite &Site : Facts.launches) {
    const EvaluatedValue Block = Site.block.product();
    if (!Block.isExact() || blockIsDeliberate(Site))
      continue;
    const uint64_t Threads = Block.exactValue();
    if (Threads == 0 || Threads % WarpSize == 0)
      continue; // zero threads is an invalid configuration, not this check's finding
    if (isMootAtSite(Table, Site))
      continue; // the launch cannot start: its error is the finding
    if (isSilencedAtCaller(Site))
      continue;

    const uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    const uint64_t Lanes = Warps * WarpSize;
    // Nsight Compute's estimate: the share of issued lanes that are masked off.
    const double LossPercent = 100.0 * ::occlint::maskedLaneShare(int64_t(Threads), int64_t(WarpSize));

    SourceLocation Loc = Site.loc;
    SourceRange Range = Site.range;
    if (Site.kind == LaunchKind::TripleChevron && Site.blockExpr) {
      Loc = SM.getExpansionLoc(Site.blockExpr->getBeginLoc());
      Range = SM.getExpansionRange(Site.blockExpr->getSourceRange()).getAsRange();
    }
    // The masked lanes hold warp slots too, which cost resident warps, but
    // not where the grid leaves each SM at most one block (cuda-launch-tiny-
    // grid's row of the precedence table): then the lanes are the whole cost.
    diag(Loc, "block of %0 thread%s0 is not a multiple of the warp size (%1): "
              "%2 of the %3 lanes in its %4 warp%s4 are masked off "
              "(estimated loss %5%%)%6")
        << static_cast<unsigned>(Threads) << static_cast<unsigned>(WarpSize) << static_cast<unsigned>(Lanes - Threads)
        << static_cast<unsigned>(Lanes) << static_cast<unsigned>(Warps) << llvm::formatv("{0:F2}", LossPercent).str()
        << (Table.atMostOneBlockPerSM(Site) ? "; the grid puts at most one block on each SM, so the masked lanes "
                                              "are the whole cost: no SM runs short of warp slots"
                                            : "")
        << Range;
    // The warning carries no fix-it (--fix applies those): a larger block
    // changes what the launch runs. The change is a note, with a fix-it only
    // where the block-resize safety rule proves it safe (--fix-notes).
    if (Site.blockExpr)
      if (const IntegerLiteral *Literal = getBlockSizeLiteral(*Site.blockExpr);
          Literal && !Literal->getBeginLoc().isMacroID())
        noteResize(Site, *Literal, Threads, Lanes, Facts, Ctx, Loc);
    noteDerivation(Site.block.derivation());
  }
}

// The share of issued lanes that are masked off: the message's estimated loss.
FindingLoss BlockNotWarpMultipleCheck::launchLoss(const LaunchRecord &L) {
  FindingLoss Out;
  if (L.shape && L.shape->threadsPerBlock() > 0) {
    Out.kind = FindingLoss::Kind::Estimated;
    Out.loss = ::occlint::maskedLaneShare(L.shape->threadsPerBlock());
    Out.what = "lanes masked off";
  }
  return Out;
}

} // namespace clang::tidy::occlint
