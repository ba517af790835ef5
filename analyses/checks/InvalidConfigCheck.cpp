#include "checks/InvalidConfigCheck.h"

#include "checks/LaunchConfigErrors.h"

namespace clang::tidy::occlint {

InvalidConfigCheck::InvalidConfigCheck(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {}

void InvalidConfigCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

// The configuration problems that do not depend on the GPU; true when one was reported.
bool InvalidConfigCheck::reportShapeErrors(const LaunchSite &Site, const KernelInfo *Kernel) {
  const std::vector<ShapeError> Errors = launchShapeErrors(Site, Kernel);
  for (const ShapeError &E : Errors) {
    diag(Site.loc, "%0", DiagnosticIDs::Error) << E.message << Site.range;
    if (E.fromLaunchBounds)
      diag(Kernel->launchBoundsLoc, "__launch_bounds__ declared here", DiagnosticIDs::Note);
  }
  if (!Errors.empty()) {
    noteDerivation(Site.block.derivation());
    noteDerivation(Site.grid.derivation());
  }
  return !Errors.empty();
}

void InvalidConfigCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  for (const LaunchSite &Site : Facts.launches)
    ShapeErrors[&Site] = reportShapeErrors(Site, Facts.kernelFor(Site.kernel));
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (ShapeErrors[L.site])
      continue;
    const bool Estimate = L.resources && !L.resources->registersKnown();
    switch (targetError(L)) {
    case TargetError::None:
      break;
    case TargetError::DynamicSharedMemoryNeedsOptin:
      diag(L.site->loc,
           "the launch cannot start on %0: %1 bytes of dynamic shared memory exceed the default "
           "limit of %2 bytes per block, and '%3' does not opt in with cudaFuncSetAttribute(%3, "
           "cudaFuncAttributeMaxDynamicSharedMemorySize, ...) in this file",
           DiagnosticIDs::Error)
          << gpuName(*L.gpu) << static_cast<unsigned>(L.shape->dynamicSharedMem)
          << static_cast<unsigned>(L.gpu->arch.sharedMemPerBlock) << L.kernel->displayName << L.site->range;
      noteDerivation(L.site->dynamicSharedMem.derivation);
      break;
    case TargetError::CannotStart:
      diag(L.site->loc, "the launch cannot start on %0: %1%2", DiagnosticIDs::Error)
          << gpuName(*L.gpu) << L.occupancy->failureReason
          << (Estimate && L.occupancy->failure == ::occlint::LaunchFailure::TooMuchSharedMemory
                  ? " (static shared memory estimated from the source)"
                  : "")
          << L.site->range;
      noteResources(L);
      noteDerivation(L.site->block.derivation());
      break;
    case TargetError::CooperativeGridTooLarge: {
      const EvaluatedValue Grid = L.site->grid.product();
      diag(L.site->loc,
           "the cooperative launch cannot start on %0: a grid of %1%2 blocks exceeds the %3 blocks "
           "that can be resident at once (%4%5 per SM x %6 SMs)",
           DiagnosticIDs::Error)
          << gpuName(*L.gpu) << (Grid.isExact() ? "" : "at least ") << static_cast<unsigned>(*Grid.min)
          << static_cast<unsigned>(coResidentBlocks(L)) << (Estimate ? "at most " : "") << L.occupancy->blocksPerSM
          << L.gpu->smCount << L.site->range;
      noteResources(L);
      noteDerivation(L.site->grid.derivation());
      break;
    }
    }
  }
  ShapeErrors.clear();
}

FindingLoss InvalidConfigCheck::launchLoss(const LaunchRecord &) {
  FindingLoss Out;
  Out.kind = FindingLoss::Kind::CannotStart;
  Out.loss = 1.0;
  Out.what = "cannot start";
  return Out;
}

} // namespace clang::tidy::occlint
