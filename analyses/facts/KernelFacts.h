// What the source says about one kernel (a __global__ function definition, or
// one instantiation of a kernel template): its name as ptxas prints it, its
// launch-bound attributes, and the static shared memory it declares (an
// estimate, used only when there is no ptxas report).
#pragma once

#include "facts/GridStrideLoops.h"
#include "pipelines/AsyncPipeline.h"
#include "pipelines/AsyncPipelineHazards.h"
#include "values/ValueEvaluator.h"

#include "clang/AST/Decl.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::occlint {

struct KernelInfo {
  const FunctionDecl *decl = nullptr; // the definition (the instantiation for templates)
  std::string mangledName;            // "_Z4fillPf", as ptxas names the entry
  std::string displayName;            // "fill", "reduce<256>"

  // __launch_bounds__(maxThreads, minBlocks, maxBlocksPerCluster)
  std::optional<int64_t> launchBoundsMaxThreads, launchBoundsMinBlocks, launchBoundsMaxBlocksPerCluster;
  SourceLocation launchBoundsLoc;
  // __maxnreg__(N): Clang 22 does not know the attribute (it warns and drops
  // it), so it is read from the declaration's text; only a literal N counts.
  std::optional<int64_t> maxRegisters;
  SourceLocation maxRegistersLoc;
  // __cluster_dims__(x, y, z)
  std::optional<std::array<int64_t, 3>> clusterDims;

  /// Bytes of the __shared__ variables of constant size declared in the
  /// kernel's body (not those of functions it calls, nor extern __shared__).
  int64_t staticSharedMemEstimate = 0;

  /// cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)
  /// seen anywhere in the translation unit: the largest n (an upper bound
  /// when n is a range; INT64_MAX when it is not known). A call whose kernel
  /// is not resolved here (a function pointer) counts for every kernel.
  std::optional<int64_t> dynamicSharedMemOptin;
  SourceLocation dynamicSharedMemOptinLoc;

  /// The body's grid-stride loop (facts/GridStrideLoops.h), if any: its
  /// work is spread over whatever grid it gets.
  KernelLoop gridStrideLoop;
  /// A loop of the body over an extent the launch passes (a parameter), if
  /// any: each thread's work grows with it.
  KernelLoop runtimeExtentLoop;
  /// A loop whose trip count depends on the block, if any: the blocks do
  /// unequal work.
  const Stmt *blockDependentTripLoop = nullptr;

  /// The async copies into shared memory its body (or a function it calls)
  /// makes, and their ring (pipelines/AsyncPipeline.h); null when it makes none.
  std::optional<AsyncPipelineFacts> pipeline;
  /// Early reads and premature reuse in that ring (pipelines/AsyncPipelineHazards.h).
  std::vector<PipelineHazard> pipelineHazards;
};

/// Reads the facts of a kernel definition (FD must be a __global__ function
/// with a body, not a dependent template pattern).
KernelInfo describeKernel(const FunctionDecl &FD, ASTContext &Ctx, ValueEvaluator &Values);

} // namespace clang::tidy::occlint
