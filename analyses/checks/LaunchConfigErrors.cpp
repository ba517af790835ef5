#include "checks/LaunchConfigErrors.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

namespace {
// CUDA's limits on launch dimensions, the same on every compute capability
// occlint knows (CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability"): block 1024 x 1024 x 64 and 1024 threads in all, grid
// (2^31 - 1) x 65535 x 65535.
constexpr int64_t MaxBlockDim[3] = {::occlint::kMaxBlockDimX, ::occlint::kMaxBlockDimY, ::occlint::kMaxBlockDimZ};
constexpr int64_t MaxGridDim[3] = {2147483647, 65535, 65535};
constexpr const char *Axis[3] = {"x", "y", "z"};
} // namespace

std::vector<ShapeError> launchShapeErrors(const LaunchSite &Site, const KernelInfo *Kernel) {
  std::vector<ShapeError> Errors;
  auto Error = [&](const std::string &Message, bool FromLaunchBounds = false) {
    Errors.push_back({Message, FromLaunchBounds});
  };
  // The total first: `k<<<g, 2048>>>` is "a block of 2048 threads", not "dimension x of 2048".
  const EvaluatedValue Threads = Site.block.product();
  if (Threads.min && *Threads.min > 1024)
    Error(llvm::formatv("the launch cannot start: a block of {0}{1} threads exceeds the limit of 1024 threads "
                        "per block",
                        Threads.isExact() ? "" : "at least ", *Threads.min));
  // A zero or oversized dimension of the block or the grid; `FirstOnly`:
  // stop at the first error found so far (a block's total says it already).
  auto Dimensions = [&](const EvaluatedDim3 &D, const char *What, const int64_t (&Max)[3], bool FirstOnly) {
    for (int I = 0; I < 3 && !(FirstOnly && !Errors.empty()); ++I) {
      const EvaluatedValue &V = D.xyz[I];
      if (V.isExact() && V.exactValue() == 0)
        Error(llvm::formatv("the launch cannot start: {0} dimension {1} is 0", What, Axis[I]));
      else if (V.min && *V.min > Max[I])
        Error(llvm::formatv("the launch cannot start: {0} dimension {1} of {2}{3} exceeds the limit of {4}", What,
                            Axis[I], V.isExact() ? "" : "at least ", *V.min, Max[I]));
    }
  };
  Dimensions(Site.block, "block", MaxBlockDim, /*FirstOnly=*/true);
  if (Errors.empty() && Threads.min && Kernel && Kernel->launchBoundsMaxThreads &&
      *Threads.min > *Kernel->launchBoundsMaxThreads)
    Error(llvm::formatv("the launch cannot start: a block of {0}{1} threads exceeds the maximum of {2} that "
                        "'{3}' declares with __launch_bounds__",
                        Threads.isExact() ? "" : "at least ", *Threads.min, *Kernel->launchBoundsMaxThreads,
                        Kernel->displayName),
          /*FromLaunchBounds=*/true);
  Dimensions(Site.grid, "grid", MaxGridDim, /*FirstOnly=*/false);
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
  return Errors;
}

int64_t coResidentBlocks(const LaunchOnTarget &L) {
  return L.occupancy ? int64_t(L.occupancy->blocksPerSM) * L.gpu->smCount : 0;
}

TargetError targetError(const LaunchOnTarget &L) {
  if (!L.occupancy)
    return TargetError::None;
  using ::occlint::LaunchFailure;
  switch (L.occupancy->failure) {
  case LaunchFailure::None:
    break;
  case LaunchFailure::TooManyThreads:
  case LaunchFailure::InvalidBlockSize:
  case LaunchFailure::InvalidGridSize:
    return TargetError::None; // shape errors, the same on every GPU
  case LaunchFailure::DynamicSharedMemoryNeedsOptin:
    return TargetError::DynamicSharedMemoryNeedsOptin;
  default:
    return TargetError::CannotStart;
  }
  // A cooperative grid must be co-resident. With registers unknown the
  // blocks per SM are an upper bound, so a grid above it is still too big.
  const EvaluatedValue Grid = L.site->grid.product();
  if (L.site->cooperative && Grid.min && *Grid.min > coResidentBlocks(L))
    return TargetError::CooperativeGridTooLarge;
  return TargetError::None;
}

} // namespace clang::tidy::occlint
