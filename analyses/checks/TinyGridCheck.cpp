#include "checks/TinyGridCheck.h"

#include "ast/CudaIndexPatterns.h"
#include "gpu/FindingShares.h"

#include <map>
#include <optional>
#include <string>

namespace clang::tidy::occlint {

TinyGridCheck::TinyGridCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), MinIdlePercent(Options.get("MinIdlePercent", 10U)) {}

void TinyGridCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "MinIdlePercent", MinIdlePercent);
}

// A launch read in several contexts (a grid swept with an array's elements,
// LaunchSites.h values.gridSweep; a helper its callers give different sizes,
// `bit_permute(10)` ... `bit_permute(28)` from main) is judged by the largest
// grid it gets: each smaller one is the program's choice of a smaller
// problem, and a GPU that the largest fills is not left idle by the launch.
// The finding is made once, at the variant with the largest grid, and only
// when even that one leaves SMs idle; not at all when some variant's grid is
// not bounded. Per launch site and GPU, in one pass over the launches.
struct LargestVariant {
  const LaunchOnTarget *variant = nullptr;
  int64_t grid = 0;
  bool bounded = true;
  unsigned count = 0;
};
static std::map<std::pair<const CallExpr *, const ::occlint::TargetGpu *>, LargestVariant>
largestVariants(const TranslationUnitFacts &Facts) {
  std::map<std::pair<const CallExpr *, const ::occlint::TargetGpu *>, LargestVariant> Out;
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    LargestVariant &Largest = Out[{L.site->call, L.gpu}];
    ++Largest.count;
    const EvaluatedValue Grid = L.site->grid.product();
    if (!Grid.max || *Grid.max <= 0)
      Largest.bounded = false;
    else if (!Largest.variant || *Grid.max > Largest.grid)
      Largest = {&L, *Grid.max, Largest.bounded, Largest.count};
  }
  return Out;
}

// Why more blocks could take a share of the kernel's work, as the end of the
// message; nullopt when they could not (facts/GridStrideLoops.h). A kernel
// that spreads its work over the grid (a grid-stride loop) could use more
// blocks unless the launch passes an extent that its grid already covers in
// one pass; one whose threads loop over an extent the launch passes does
// work that grows with it. A kernel with neither does a fixed amount of work
// per thread: its grid is as large as its problem, and a small grid is a
// small problem, not a finding. So is a kernel occlint cannot see.
static std::optional<std::string> whyMoreBlocksHelp(const LaunchOnTarget &L, int64_t GridBlocks, ASTContext &Ctx) {
  if (!L.kernel)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  auto LineOf = [&SM](const Stmt *S) {
    return std::to_string(SM.getPresumedLineNumber(SM.getExpansionLoc(S->getBeginLoc())));
  };
  const std::string Kernel = "'" + L.kernel->displayName + "'";
  if (const KernelLoop &Loop = L.kernel->gridStrideLoop) {
    const EvaluatedValue Threads = L.site->block.product();
    if (Loop.extent && Threads.isExact()) {
      const unsigned Index = Loop.extent->getFunctionScopeIndex();
      if (Index < L.site->argumentValues.size())
        if (const std::optional<int64_t> Extent = L.site->argumentValues[Index];
            Extent && *Extent <= GridBlocks * Threads.exactValue())
          return std::nullopt; // one pass of the grid covers it
    }
    return "; " + Kernel + " spreads its work over the grid (grid-stride loop at line " + LineOf(Loop.loop) +
           "): more blocks would share it";
  }
  if (const KernelLoop &Loop = L.kernel->runtimeExtentLoop)
    return "; each thread of " + Kernel + " loops while '" + resize::spellingOf(Loop.condition, Ctx) + "' (line " +
           LineOf(Loop.loop) + "): more blocks could share that work";
  return std::nullopt;
}

void TinyGridCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  const auto Largest = largestVariants(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    const EvaluatedValue Grid = L.site->grid.product();
    if (!Grid.max || *Grid.max <= 0)
      continue; // unknown or unbounded grids are never guessed
    const LargestVariant &Variants = Largest.at({L.site->call, L.gpu});
    if (!Variants.bounded || Variants.variant != &L)
      continue; // reported once, at the largest grid the launch gets
    const bool Swept = Variants.count > 1;
    const int64_t Max = *Grid.max;
    if (Max >= L.gpu->smCount || isDeliberateSerialLaunch(*L.site))
      continue;
    const bool Exact = Grid.isExact() && !Swept; // else the largest the launch can get
    const int64_t Sms = L.gpu->smCount;
    const int64_t Idle = Sms - Max; // at least this many (a bounded grid may be smaller)
    // 128 blocks on 132 SMs leave 3 % idle: not worth a change of the grid.
    if (Idle * 100 < int64_t(MinIdlePercent) * Sms)
      continue;
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch: its error is the finding
    const std::optional<std::string> Why = whyMoreBlocksHelp(L, Max, Ctx);
    if (!Why)
      continue;
    if (isSilencedAtCaller(*L.site))
      continue;
    diag(L.site->loc, "grid of %0%1 block%s2 on %3 leaves %4%5 of its %6 SMs idle (%7)%8")
        << (Exact ? "" : "at most ") << static_cast<unsigned>(Max) << static_cast<unsigned>(Max) << gpuName(*L.gpu)
        << (Exact ? "" : "at least ") << static_cast<unsigned>(Idle) << static_cast<unsigned>(Sms)
        << percent(::occlint::idleSmShare(Max, Sms)) << *Why << L.site->range;
    noteDerivation(L.site->grid.derivation());
  }
}

// The SMs the grid leaves idle: the message's share.
FindingLoss TinyGridCheck::launchLoss(const LaunchRecord &L) {
  FindingLoss Out;
  if (L.shape && L.shape->gridBlocks && L.gpu.smCount > 0) {
    const int64_t Grid = *L.shape->gridBlocks, Sms = L.gpu.smCount;
    if (Grid > 0 && Grid < Sms) {
      Out.kind = FindingLoss::Kind::Estimated;
      Out.loss = ::occlint::idleSmShare(Grid, Sms);
      Out.what = "SMs idle";
    }
  }
  return Out;
}

} // namespace clang::tidy::occlint
