#include "pipelines/BlockPipelineReads.h"

#include <algorithm>
#include <string>

namespace clang::tidy::occlint {

std::optional<PipelineHazard> judgeBlockPipelineRead(const PipelineRead &R, const std::vector<Batch> &Batches,
                                                     int64_t PipelineStages, int RingStages) {
  auto writes = [&](size_t B) -> const std::pair<Region, SourceLocation> * {
    for (const auto &Copy : Batches[B].copies)
      if (Copy.first.buffer == R.region.buffer && Copy.first.stage == R.region.stage)
        return &Copy;
    return nullptr;
  };
  std::optional<size_t> Held;
  for (size_t B = std::min(R.complete, Batches.size()); B-- > 0;)
    if (writes(B)) {
      Held = B;
      break;
    }
  const size_t End = std::min<size_t>(R.releases + size_t(PipelineStages), Batches.size());
  const std::pair<Region, SourceLocation> *Racing = nullptr;
  size_t RacingBatch = 0;
  for (size_t B = R.complete; B < End && !Racing; ++B)
    if (Batches[B].epoch <= R.epoch)
      if ((Racing = writes(B)))
        RacingBatch = B;
  if (!Racing)
    return std::nullopt;
  PipelineHazard H;
  H.buffer = R.region.buffer;
  H.stage = R.region.stage;
  if (Held && *Held >= R.releases) {
    H.kind = PipelineHazard::BufferReuse;
    H.why = "the pipeline has " + std::to_string(PipelineStages) + " stages and the ring " +
            std::to_string(RingStages) + " buffers, so a producer may acquire the stage while it is read";
    H.fix = "as many pipeline stages as buffers in the ring (pipeline_shared_state<..., " + std::to_string(RingStages) +
            ">)";
  } else if (!Held || RacingBatch < R.issued) {
    H.kind = PipelineHazard::EarlyRead;
    H.why = "no consumer_wait covers its stage";
    H.fix = "the pipeline's consumer_wait() before the read";
  } else {
    H.kind = PipelineHazard::BufferReuse;
    H.why = "the stage is released before that read, so a producer may acquire and refill it";
    H.fix = "consumer_release() after the last read of the stage";
    H.wait = R.release;
  }
  const bool Early = H.kind == PipelineHazard::EarlyRead;
  H.at = Early ? R.loc : Racing->second;
  H.other = Early ? Racing->second : R.loc;
  return H;
}

} // namespace clang::tidy::occlint
