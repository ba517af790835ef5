#include "checks/BlockNotWarpMultipleCheck.h"

#include "checks/BlockSizeLiteral.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

// Every arch occlint knows has 32-lane warps (cuda_occupancy.h: warpSize).
constexpr uint64_t WarpSize = 32;

void BlockNotWarpMultipleCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const LaunchSite &Site : Facts.launches) {
    const EvaluatedValue Block = Site.block.product();
    if (!Block.isExact())
      continue;
    const uint64_t Threads = Block.exactValue();
    if (Threads == 0 || Threads % WarpSize == 0)
      continue; // zero threads is an invalid configuration, not this check's finding

    const uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
    const uint64_t Lanes = Warps * WarpSize;
    // Nsight Compute's estimate: the share of issued lanes that are masked off.
    const double LossPercent = 100.0 * double(Lanes - Threads) / double(Lanes);

    SourceLocation Loc = Site.loc;
    SourceRange Range = Site.range;
    if (Site.kind == LaunchKind::TripleChevron && Site.blockExpr) {
      Loc = SM.getExpansionLoc(Site.blockExpr->getBeginLoc());
      Range = SM.getExpansionRange(Site.blockExpr->getSourceRange()).getAsRange();
    }
    {
      auto Diag = diag(Loc, "block of %0 thread%s0 is not a multiple of the warp size (%1): "
                            "%2 of the %3 lanes in its %4 warp%s4 are masked off "
                            "(estimated loss %5%%)")
                  << static_cast<unsigned>(Threads) << static_cast<unsigned>(WarpSize)
                  << static_cast<unsigned>(Lanes - Threads) << static_cast<unsigned>(Lanes)
                  << static_cast<unsigned>(Warps) << llvm::formatv("{0:F2}", LossPercent).str() << Range;
      const KernelInfo *Kernel = Facts.kernelFor(Site.kernel);
      const bool FitsBounds = !Kernel || !Kernel->launchBoundsMaxThreads ||
                              int64_t(Lanes) <= *Kernel->launchBoundsMaxThreads;
      if (Site.blockExpr && FitsBounds)
        if (const IntegerLiteral *Literal = getBlockSizeLiteral(*Site.blockExpr);
            Literal && !Literal->getBeginLoc().isMacroID())
          Diag << FixItHint::CreateReplacement(Literal->getSourceRange(), std::to_string(Lanes));
    }
    noteDerivation(Site.block.derivation());
  }
}

} // namespace clang::tidy::occlint
