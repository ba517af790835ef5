#include "checks/BlockCapCheck.h"

namespace clang::tidy::occlint {

BlockCapCheck::BlockCapCheck(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {}

void BlockCapCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

// The most registers per thread for which the register limit still admits
// `Blocks` blocks: the condition under which an estimate (registers unknown)
// is right that the block cap binds.
static int registersThatKeepBlocks(const ::occlint::TargetGpu &Gpu, ::occlint::KernelResources Kernel,
                                   const ::occlint::LaunchShape &Shape, int Blocks) {
  for (int Regs = ::occlint::kMaxRegistersPerThread; Regs > 0; --Regs) {
    Kernel.registersPerThread = Regs;
    if (::occlint::computeOccupancyLimits(Gpu, Kernel, Shape).limitRegisters >= Blocks)
      return Regs;
  }
  return 0;
}

void BlockCapCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (!L.occupancy || L.occupancy->failure != ::occlint::LaunchFailure::None || blockIsDeliberate(*L.site))
      continue;
    const ::occlint::OccupancyResult &R = *L.occupancy;
    // Only the cap, and strictly before the warp limit: then bigger blocks
    // fill the empty warp slots.
    // (Barriers may tie with the cap: bigger blocks lift both.)
    using ::occlint::Limiter;
    const unsigned Others = unsigned(Limiter::Warps) | unsigned(Limiter::Registers) | unsigned(Limiter::SharedMemory);
    if (!(R.bindingLimiters & unsigned(Limiter::Blocks)) || (R.bindingLimiters & Others) ||
        R.limitBlocks >= R.limitWarps)
      continue;
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch, or a grid with at most one block per SM
    // A grid that one wave holds at the cap runs all at once: lifting the cap
    // cannot help it (a 3-block reduction, a 90-block wavefront).
    const std::optional<std::string> Condition = gridBeyondOneWave(L, R.blocksPerSM);
    if (!Condition)
      continue;
    if (isSilencedAtCaller(*L.site))
      continue;
    const ::occlint::ArchLimits &Arch = L.gpu->arch;
    const int WarpsPerBlockToLift = (Arch.maxWarpsPerSM + Arch.maxBlocksPerSM - 1) / Arch.maxBlocksPerSM;
    const int ThreadsToLift = WarpsPerBlockToLift * Arch.warpSize;
    diag(L.site->loc, "on %0, blocks of %1 thread%s1 hit the limit of %2 resident blocks per SM before the "
                      "warp limit: %3 of %4 warps, %5 occupancy; blocks of %6 threads or more lift it%7")
        << gpuName(*L.gpu) << L.shape->threadsPerBlock() << R.limitBlocks << R.activeWarpsPerSM << R.maxWarpsPerSM
        << percent(R.occupancy) << ThreadsToLift << *Condition << L.site->range;
    if (!L.resources->registersKnown())
      diag(L.site->loc,
           "assuming registers do not limit the blocks: true when '%0' uses at most %1 registers "
           "per thread (%2)",
           DiagnosticIDs::Note)
          << L.kernel->displayName << registersThatKeepBlocks(*L.gpu, L.resources->model, *L.shape, R.limitBlocks)
          << L.resources->source;
    else
      noteResources(L);
    noteGridFromCallers(L);
    noteDerivation(L.site->block.derivation());
  }
}

} // namespace clang::tidy::occlint
