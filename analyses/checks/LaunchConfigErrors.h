// What cuda-launch-invalid-config finds, as plain data: the errors of a
// launch's configuration that hold on every GPU (its shape) and the one it
// has on a target GPU. InvalidConfigCheck prints them; the precedence table
// (LaunchFindingPrecedence.h) asks whether there are any, so that an invalid
// launch gets no second finding. One definition serves both: what the table
// calls invalid is exactly what the check reports.
#pragma once

#include "facts/TranslationUnitFacts.h"

#include <string>
#include <vector>

namespace clang::tidy::occlint {

struct ShapeError {
  std::string message;           // "the launch cannot start: block dimension x is 0"
  bool fromLaunchBounds = false; // a note at the kernel's __launch_bounds__ goes with it
};

/// The configuration errors that do not depend on the GPU, in the order they
/// are reported: the block (its total first, then one dimension, then the
/// kernel's __launch_bounds__), the grid, the clusters.
std::vector<ShapeError> launchShapeErrors(const LaunchSite &Site, const KernelInfo *Kernel);

enum class TargetError {
  None,
  DynamicSharedMemoryNeedsOptin, // over the default limit, and the kernel does not opt in
  CannotStart,                   // another failure of the occupancy engine (registers, shared memory)
  CooperativeGridTooLarge,       // a cooperative grid larger than the blocks that can be co-resident
};

/// The error the launch has on its target besides its shape errors (a launch
/// with shape errors gets no second one). Block-size failures are shape
/// errors, reported once for all GPUs: here they are None.
TargetError targetError(const LaunchOnTarget &L);

/// The blocks that can be resident at once: blocks per SM x SMs.
int64_t coResidentBlocks(const LaunchOnTarget &L);

} // namespace clang::tidy::occlint
