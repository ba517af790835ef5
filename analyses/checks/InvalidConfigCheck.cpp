#include "checks/InvalidConfigCheck.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

InvalidConfigCheck::InvalidConfigCheck(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {}

void InvalidConfigCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

namespace {
// CUDA's limits on launch dimensions, the same on every compute capability
// occlint knows (CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability"): block 1024 x 1024 x 64 and 1024 threads in all, grid
// (2^31 - 1) x 65535 x 65535.
constexpr int64_t MaxBlockDim[3] = {::occlint::kMaxBlockDimX, ::occlint::kMaxBlockDimY, ::occlint::kMaxBlockDimZ};
constexpr int64_t MaxGridDim[3] = {2147483647, 65535, 65535};
constexpr const char *Axis[3] = {"x", "y", "z"};
} // namespace

// The configuration problems that do not depend on the GPU; true when one was reported.
bool InvalidConfigCheck::reportShapeErrors(const LaunchSite &Site, const KernelInfo *Kernel) {
  bool Reported = false;
  auto Error = [&](const std::string &Message) {
    diag(Site.loc, "%0", DiagnosticIDs::Error) << Message << Site.range;
    Reported = true;
  };
  // The total first: `k<<<g, 2048>>>` is "a block of 2048 threads", not "dimension x of 2048".
  const EvaluatedValue Threads = Site.block.product();
  if (Threads.min && *Threads.min > 1024)
    Error(llvm::formatv("the launch cannot start: a block of {0}{1} threads exceeds the limit of 1024 threads "
                        "per block",
                        Threads.isExact() ? "" : "at least ", *Threads.min));
  for (int I = 0; I < 3 && !Reported; ++I) {
    const EvaluatedValue &B = Site.block.xyz[I];
    if (B.isExact() && B.exactValue() == 0)
      Error(llvm::formatv("the launch cannot start: block dimension {0} is 0", Axis[I]));
    else if (B.min && *B.min > MaxBlockDim[I])
      Error(llvm::formatv("the launch cannot start: block dimension {0} of {1}{2} exceeds the limit of {3}", Axis[I],
                          B.isExact() ? "" : "at least ", *B.min, MaxBlockDim[I]));
  }
  if (!Reported && Threads.min && Kernel && Kernel->launchBoundsMaxThreads &&
      *Threads.min > *Kernel->launchBoundsMaxThreads) {
    Error(llvm::formatv("the launch cannot start: a block of {0}{1} threads exceeds the maximum of {2} that "
                        "'{3}' declares with __launch_bounds__",
                        Threads.isExact() ? "" : "at least ", *Threads.min, *Kernel->launchBoundsMaxThreads,
                        Kernel->displayName));
    diag(Kernel->launchBoundsLoc, "__launch_bounds__ declared here", DiagnosticIDs::Note);
  }
  for (int I = 0; I < 3; ++I) {
    const EvaluatedValue &G = Site.grid.xyz[I];
    if (G.isExact() && G.exactValue() == 0)
      Error(llvm::formatv("the launch cannot start: grid dimension {0} is 0", Axis[I]));
    else if (G.min && *G.min > MaxGridDim[I])
      Error(llvm::formatv("the launch cannot start: grid dimension {0} of {1}{2} exceeds the limit of {3}", Axis[I],
                          G.isExact() ? "" : "at least ", *G.min, MaxGridDim[I]));
  }
  // Clusters: the grid must be a whole number of clusters.
  std::optional<std::array<int64_t, 3>> Cluster = Site.clusterDims;
  if (!Cluster && Kernel)
    Cluster = Kernel->clusterDims;
  if (Cluster && Site.grid.isExact()) {
    const std::array<int64_t, 3> Grid = Site.grid.exactValues();
    for (int I = 0; I < 3; ++I)
      if ((*Cluster)[I] > 0 && Grid[I] % (*Cluster)[I] != 0) {
        Error(llvm::formatv("the launch cannot start: grid dimension {0} of {1} is not a multiple of the "
                            "cluster dimension {2}",
                            Axis[I], Grid[I], (*Cluster)[I]));
        break;
      }
  }
  if (Reported) {
    noteDerivation(Site.block.derivation());
    noteDerivation(Site.grid.derivation());
  }
  return Reported;
}

void InvalidConfigCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  for (const LaunchSite &Site : Facts.launches)
    ShapeErrors[&Site] = reportShapeErrors(Site, Facts.kernelFor(Site.kernel));
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (ShapeErrors[L.site] || !L.occupancy)
      continue;
    const ::occlint::OccupancyResult &R = *L.occupancy;
    const bool Estimate = !L.resources->registersKnown();
    using ::occlint::LaunchFailure;
    switch (R.failure) {
    case LaunchFailure::None:
      break;
    case LaunchFailure::TooManyThreads:
    case LaunchFailure::InvalidBlockSize:
      continue; // reported above, GPU-independent
    case LaunchFailure::DynamicSharedMemoryNeedsOptin:
      diag(L.site->loc, "the launch cannot start on %0: %1 bytes of dynamic shared memory exceed the default "
                        "limit of %2 bytes per block, and '%3' does not opt in with cudaFuncSetAttribute(%3, "
                        "cudaFuncAttributeMaxDynamicSharedMemorySize, ...) in this file",
           DiagnosticIDs::Error)
          << gpuName(*L.gpu) << static_cast<unsigned>(L.shape->dynamicSharedMem)
          << static_cast<unsigned>(L.gpu->arch.sharedMemPerBlock) << L.kernel->displayName << L.site->range;
      noteDerivation(L.site->dynamicSharedMem.derivation);
      continue;
    default:
      diag(L.site->loc, "the launch cannot start on %0: %1%2", DiagnosticIDs::Error)
          << gpuName(*L.gpu) << R.failureReason
          << (Estimate && R.failure == LaunchFailure::TooMuchSharedMemory
                  ? " (static shared memory estimated from the source)"
                  : "")
          << L.site->range;
      noteResources(L);
      noteDerivation(L.site->block.derivation());
      continue;
    }
    // A cooperative grid must be co-resident. With registers unknown the
    // blocks per SM are an upper bound, so a grid above it is still too big.
    const EvaluatedValue Grid = L.site->grid.product();
    const int64_t CoResident = int64_t(R.blocksPerSM) * L.gpu->smCount;
    if (L.site->cooperative && Grid.min && *Grid.min > CoResident) {
      diag(L.site->loc, "the cooperative launch cannot start on %0: a grid of %1%2 blocks exceeds the %3 blocks "
                        "that can be resident at once (%4%5 per SM x %6 SMs)",
           DiagnosticIDs::Error)
          << gpuName(*L.gpu) << (Grid.isExact() ? "" : "at least ") << static_cast<unsigned>(*Grid.min)
          << static_cast<unsigned>(CoResident) << (Estimate ? "at most " : "") << R.blocksPerSM
          << L.gpu->smCount << L.site->range;
      noteResources(L);
      noteDerivation(L.site->grid.derivation());
    }
  }
  ShapeErrors.clear();
}

} // namespace clang::tidy::occlint
