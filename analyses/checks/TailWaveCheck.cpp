#include "checks/TailWaveCheck.h"

#include "gpu/FindingShares.h"
#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

TailWaveCheck::TailWaveCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), ThresholdPercent(Options.get("ThresholdPercent", 10U)) {}

void TailWaveCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "ThresholdPercent", ThresholdPercent);
}

void TailWaveCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    // Waves need the real blocks per SM: with registers unknown it is only an upper bound.
    if (!L.occupancy || L.occupancy->failure != ::occlint::LaunchFailure::None || !L.occupancy->fullWaves ||
        !L.resources->registersKnown() || blockIsDeliberate(*L.site) || gridIsDeliberate(*L.site))
      continue;
    // A grid-stride kernel spreads its work over any grid: the grid size is
    // a tuning choice, not a tail to trim.
    if (L.kernel && L.kernel->gridStrideLoop)
      continue;
    // Blocks of unequal work (a loop whose trip count depends on the block:
    // causal attention, triangular loops) do not run in waves of equal
    // length: later blocks take the slots short ones free, and the
    // imbalance, not the block count, sets the runtime.
    if (L.kernel && L.kernel->blockDependentTripLoop)
      continue;
    const ::occlint::OccupancyResult &R = *L.occupancy;
    const int64_t Full = *R.fullWaves, Tail = *R.tailBlocks;
    if (Full < 1 || Tail == 0)
      continue;
    const int64_t PerWave = int64_t(R.blocksPerSM) * L.gpu->smCount;
    // If every wave takes as long as a full one, the partial wave is one of
    // Full + 1 waves (Nsight Compute's "up to" figure); the share of SM time
    // left idle is what decides whether it is worth reporting.
    const double UpTo = ::occlint::tailWaveShareUpTo(Full);
    const double Idle = (1.0 - double(Tail) / double(PerWave)) * UpTo;
    if (100.0 * Idle < double(ThresholdPercent))
      continue;
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch (a tail needs a grid of at least one block per SM)
    if (isSilencedAtCaller(*L.site))
      continue;
    const int64_t Grid = *L.shape->gridBlocks;
    diag(L.site->loc, "on %0, the grid of %1 blocks runs as %2 full wave%s2 of %3 blocks and a partial wave of "
                      "%4 block%s4: the partial wave can cost up to %5 of the runtime")
        << gpuName(*L.gpu) << static_cast<unsigned>(Grid) << static_cast<unsigned>(Full)
        << static_cast<unsigned>(PerWave) << static_cast<unsigned>(Tail) << percent(UpTo) << L.site->range;
    diag(L.site->loc, "%0 or %1 blocks fill whole waves (%2 blocks per SM x %3 SMs)", DiagnosticIDs::Note)
        << static_cast<unsigned>(Full * PerWave) << static_cast<unsigned>((Full + 1) * PerWave) << R.blocksPerSM
        << L.gpu->smCount;
    noteResources(L);
    noteDerivation(L.site->grid.derivation());
  }
}

// The partial wave, if it takes as long as a full one: the message's "up to".
FindingLoss TailWaveCheck::launchLoss(const LaunchRecord &L) {
  FindingLoss Out;
  if (L.occupancy && L.occupancy->failure == ::occlint::LaunchFailure::None && L.occupancy->fullWaves &&
      L.occupancy->tailBlocks) {
    Out.kind = FindingLoss::Kind::Estimated;
    Out.loss = ::occlint::tailWaveShareUpTo(*L.occupancy->fullWaves);
    Out.what = "tail wave";
  }
  return Out;
}

} // namespace clang::tidy::occlint
