// Plain copies of a translation unit's facts (no AST pointers), for the
// occlint binary's outputs that are not diagnostics: the per-launch occupancy
// facts of --format=json and the tables and staircases of `occlint report`.
//
// The occlint binary installs a FactsRecordSink before it runs the checks;
// TranslationUnitFacts hands it one record per translation unit and arch at
// the end of the translation unit, once every check has run (the records
// carry the findings the checks suppressed), when the facts were computed at
// all (that is, when any cuda-* check that works on launches or kernels is
// enabled). Inside clang-tidy --load nothing is installed and nothing is
// recorded.
#pragma once

#include "gpu/Occupancy.h"
#include "gpu/PipelineStaircase.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

struct SourcePoint {
  std::string file; // as the parse named it (absolute for files from a compilation database)
  unsigned line = 0, column = 0;
};

/// A kernel's async-copy pipeline (pipelines/AsyncPipeline.h), as plain values.
struct PipelineRecord {
  std::vector<std::string> forms;          // "cp.async", "cuda::pipeline", ...
  std::optional<int> stages;               // S, when readable
  int64_t bytesPerStage = 0;               // 0 when not readable
  std::optional<int64_t> otherSharedBytes; // the block's static shared memory outside the ring
  std::string stagesFrom, stagesUnknown, producer;
  std::string hazardsNotModelled; // why the hazard checks did not look ("" when they did)
  /// One trip of the pipelined loop (pipelines/AsyncPipelineWork.h): its arithmetic
  /// when counted, why not, and whether the copies overlap any work (null when
  /// the kernel's body has no pipelined loop).
  std::optional<double> fpOpsPerThread, tensorFlopsPerWarp;
  std::optional<std::string> workUnknown;
  std::optional<bool> nothingOverlaps;
};

struct KernelRecord {
  SourcePoint location;                    // the kernel's definition
  std::string name;                        // "reduce<256>"
  std::string mangledName;                 // "_Z6reduceILi256EEvPf"
  ::occlint::KernelResources resources;    // what the occupancy engine gets (registers 0 when unknown)
  bool registersKnown = false;             // false: estimated from the source
  std::string resourceSource;              // "ptxas, sm_90" or "estimate: ..."
  int64_t spillStores = 0, spillLoads = 0; // bytes (ptxas)
  std::optional<PipelineRecord> pipeline;  // null when it makes no async copy
  /// The divergence analysis's estimate (divergence/BranchLoss.h), present
  /// when a cuda-divergence-* check ran on the kernel: the share of its
  /// lane-slots that thread-dependent branches leave idle (0..1), and the
  /// average active threads per warp instruction it predicts (Nsight
  /// Compute's smsp__thread_inst_executed_per_inst_executed).
  std::optional<double> branchLoss, predictedActiveThreadsPerWarp;
};

/// A finding a launch or occupancy check did not report on a launch because
/// the precedence table made it moot (checks/LaunchFindingPrecedence.h,
/// docs/launch-analysis.md "One finding per root cause"): another finding on
/// the same launch has the same root cause.
struct SuppressedFinding {
  std::string check;        // the check that stayed quiet: "cuda-occupancy-block-cap"
  std::string suppressedBy; // the check whose finding wins: "cuda-launch-tiny-grid"
  std::string reason;       // why the finding is moot, one sentence without a final period
  bool operator==(const SuppressedFinding &) const = default;
};

struct LaunchRecord {
  SourcePoint location;   // where the launch is written (expansion site for macros)
  std::string launchKind; // "<<<>>>", "cudaLaunchKernel", ...
  std::string caller;     // the function the launch is written in
  std::string kernel;     // "" when the launched kernel is not known here
  std::string mangledName;
  ::occlint::TargetGpu gpu;
  std::string grid, block, dynamicSharedMem; // as evaluated: "1024", "[1, 64]", "unknown"
  /// The most blocks the grid can have, when that is known (the exact grid's
  /// count, or the upper end of its range): the report's launch size.
  std::optional<int64_t> gridBlocksAtMost;
  bool cooperative = false;
  std::optional<::occlint::KernelResources> resources; // null when the kernel is not known
  bool registersKnown = false;
  std::optional<::occlint::LaunchShape> shape;         // as LaunchOnTarget's
  std::optional<::occlint::OccupancyResult> occupancy; // with shape and resources
  // Which variant of the launch's values this is (LaunchVariants.h).
  unsigned variant = 0, variants = 1;
  bool valuesComplete = true;
  bool blockComplete = false;
  std::string incompleteBecause;
  // The array a loop walks that this variant's block (grid) is taken from
  // ("" when none): each element is deliberate (LaunchSites.h).
  std::string blockSweep, gridSweep;
  std::vector<SourcePoint> callChain; // the calls leading to this variant, innermost first
  // Why grid, block, dynamic shared memory are not exact ("" when they are,
  // or when there is nothing to say).
  std::string gridUnknown, blockUnknown, dynamicSharedMemUnknown;
  std::vector<SuppressedFinding> suppressed;                 // by check name
  std::vector<::occlint::PipelineDepthPoint> pipelineDepths; // LaunchOnTarget's
};

struct TranslationUnitRecord {
  std::string mainFile;
  std::string arch; // the arch of this parse, "sm_90"
  std::vector<::occlint::TargetGpu> targets;
  std::string resourceSource; // where the ptxas report came from, or why there is none
  std::vector<KernelRecord> kernels;
  std::vector<LaunchRecord> launches; // launches x targets, in source order
};

class FactsRecordSink {
public:
  virtual ~FactsRecordSink() = default;
  /// Called once per translation unit and arch, possibly from several threads
  /// at once (occlint --jobs): implementations synchronise.
  virtual void record(TranslationUnitRecord Record) = 0;
};

} // namespace clang::tidy::occlint
