#include "gpu/PipelineStaircase.h"

#include <algorithm>

namespace occlint {

std::vector<PipelineDepthPoint> pipelineStaircase(const TargetGpu &Gpu, const KernelResources &Kernel,
                                                  const LaunchShape &Launch, int64_t BytesPerStage, int MaxStages) {
  std::vector<PipelineDepthPoint> Out;
  if (BytesPerStage <= 0 || Kernel.staticSharedMem < 0)
    return Out;
  // A ring over the 48 KB default per block lives in dynamic shared memory
  // with the opt-in attribute (static shared memory cannot exceed it): every
  // depth is counted as opted in, up to the arch's per-block maximum.
  LaunchShape OptedIn = Launch;
  OptedIn.optinDynamicSharedMem =
      std::max<int64_t>(Launch.optinDynamicSharedMem.value_or(0), Gpu.arch.sharedMemPerBlockOptin);
  for (int Stages = 1; Stages <= MaxStages; ++Stages) {
    KernelResources AtDepth = Kernel;
    AtDepth.staticSharedMem = Kernel.staticSharedMem + int64_t(Stages) * BytesPerStage;
    const OccupancyResult R = computeOccupancyLimits(Gpu, AtDepth, OptedIn);
    PipelineDepthPoint P;
    P.stages = Stages;
    P.sharedBytes = AtDepth.staticSharedMem;
    P.fits = R.failure == LaunchFailure::None && R.blocksPerSM > 0;
    P.blocksPerSM = P.fits ? R.blocksPerSM : 0;
    P.occupancy = P.fits ? R.occupancy : 0;
    P.bindingLimiters = P.fits ? R.bindingLimiters : 0;
    Out.push_back(P);
    if (!P.fits)
      break;
  }
  return Out;
}

std::string describeStaircase(const std::vector<PipelineDepthPoint> &Points) {
  std::string Out;
  for (const PipelineDepthPoint &P : Points) {
    if (!Out.empty())
      Out += ' ';
    Out += std::to_string(P.stages) + ":" + (P.fits ? std::to_string(P.blocksPerSM) : std::string("-"));
  }
  return Out;
}

} // namespace occlint
