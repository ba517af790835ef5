#include "BlockNotWarpMultipleCheck.h"

#include "LaunchConfig.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang::ast_matchers;

namespace clang::tidy::occlint {

// Every arch occlint knows has 32-lane warps (cuda_occupancy.h: warpSize).
constexpr uint64_t WarpSize = 32;

void BlockNotWarpMultipleCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cudaKernelCallExpr().bind("launch"), this);
}

void BlockNotWarpMultipleCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  const LaunchConfigExprs Config = getLaunchConfigExprs(*Launch);
  if (!Config.block)
    return;
  const std::optional<Dim3Value> Block = evaluateDim3(*Config.block, *Result.Context);
  if (!Block)
    return;
  const uint64_t Threads = Block->product();
  if (Threads == 0 || Threads % WarpSize == 0)
    return; // zero threads is an invalid configuration, not this check's finding

  const uint64_t Warps = (Threads + WarpSize - 1) / WarpSize;
  const uint64_t Lanes = Warps * WarpSize;
  // Nsight Compute's estimate: the share of issued lanes that are masked off.
  const double LossPercent = 100.0 * double(Lanes - Threads) / double(Lanes);
  const uint64_t RoundedUp = Lanes;

  SourceLocation Loc = Config.block->getBeginLoc();
  if (Loc.isMacroID())
    Loc = Result.SourceManager->getExpansionLoc(Loc);
  auto Diag = diag(Loc, "block of %0 thread%s0 is not a multiple of the warp size (%1): "
                        "%2 of the %3 lanes in its %4 warp%s4 are masked off "
                        "(estimated loss %5%%)")
              << static_cast<unsigned>(Threads) << static_cast<unsigned>(WarpSize)
              << static_cast<unsigned>(Lanes - Threads) << static_cast<unsigned>(Lanes)
              << static_cast<unsigned>(Warps) << llvm::formatv("{0:F2}", LossPercent).str()
              << Config.block->getSourceRange();
  if (const IntegerLiteral *Literal = getBlockSizeLiteral(*Config.block);
      Literal && !Literal->getBeginLoc().isMacroID())
    Diag << FixItHint::CreateReplacement(Literal->getSourceRange(), std::to_string(RoundedUp));
}

} // namespace clang::tidy::occlint
