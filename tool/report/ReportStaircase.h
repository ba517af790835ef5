// The occupancy staircases of `occlint report`: a launch's occupancy as one
// resource varies and the others stay as the launch has them — over registers
// per thread, threads per block and shared memory per block — computed with
// the occupancy engine (analyses/gpu/Occupancy.h) for the launch's GPU. Data
// only; tool/report/ReportSvg.h draws it, tool/report/ReportMarkdown.h summarises it.
#pragma once

#include "gpu/Occupancy.h"
#include "gpu/PipelineStaircase.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

enum class StaircaseAxis { Registers, BlockSize, SharedMemory, PipelineStages };

struct StaircasePoint {
  int64_t x = 0;        // registers per thread, threads per block or bytes per block
  double occupancy = 0; // 0 when the configuration cannot launch
  int blocksPerSM = 0;
  bool launches = true; // false: this configuration cannot start at all
};

/// A run of equal occupancy: every x in [from, to] gives `occupancy`.
struct StaircaseRun {
  int64_t from = 0, to = 0;
  double occupancy = 0;
  bool launches = true;
};

struct Staircase {
  StaircaseAxis axis = StaircaseAxis::Registers;
  /// The curve, ascending x. The value at a sample holds on (previous sample,
  /// sample]: registers are sampled one by one, block sizes per warp and
  /// shared memory per allocation unit, and each resource is rounded up to
  /// its unit by the engine, so nothing changes between samples.
  std::vector<StaircasePoint> curve;
  int64_t minX = 0, maxX = 0;
  /// The launch itself; absent on the register axis when the registers are
  /// not known (estimated from the source as 0: the curve still shows what
  /// each count would give).
  std::optional<StaircasePoint> current;
  /// The first of OccupancyResult::nextSteps on this axis that raises the
  /// occupancy (absent when there is none), and its text.
  std::optional<StaircasePoint> nextStep;
  std::string nextStepText;
  /// Shared memory only: above this many bytes per block the launch would
  /// need more dynamic shared memory than it may use without (or beyond) its
  /// cudaFuncAttributeMaxDynamicSharedMemorySize opt-in. The curve assumes
  /// the opt-in there.
  std::optional<int64_t> optinAbove;
  /// The registers are not known (estimated as 0): every value on the block
  /// size and shared memory axes is an upper bound.
  bool upperBound = false;

  /// The curve's value at x (the first sample >= x); nullopt outside [minX, maxX].
  std::optional<StaircasePoint> at(int64_t X) const;
  /// Consecutive samples of equal occupancy merged.
  std::vector<StaircaseRun> runs() const;
};

struct LaunchStaircases {
  Staircase registers, blockSize, sharedMemory;
  /// An async-copy pipeline's depth (gpu/PipelineStaircase.h): occupancy
  /// over its stages, the kernel's own depth as the launch. Absent for a
  /// kernel without a readable ring.
  std::optional<Staircase> pipelineStages;
};

/// The three staircases of one launch configuration on one GPU. `Kernel` and
/// `Shape` as the occupancy engine gets them (the launch record's);
/// `RegistersKnown` false when the registers are an estimate (0).
LaunchStaircases computeStaircases(const TargetGpu &Gpu, const KernelResources &Kernel, const LaunchShape &Shape,
                                   bool RegistersKnown);

/// The ring's staircase as a chart: one point per depth the lint computed
/// (LaunchRecord::pipelineDepths), the kernel's depth `Stages` marked.
Staircase pipelineStagesStaircase(const std::vector<PipelineDepthPoint> &Depths, int Stages);

/// "registers per thread", "threads per block", "shared memory per block (KiB)",
/// "async-copy stages".
std::string axisTitle(StaircaseAxis Axis);

} // namespace occlint
