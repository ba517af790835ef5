// The reads of a block-scope cuda::pipeline's ring, judged once the hazard
// run (pipelines/AsyncPipelineHazards.cpp) has seen every batch: a faster thread,
// or the producer side of a split kernel, may be ahead of the read. A private
// header of the hazard run.
#pragma once

#include "pipelines/AsyncPipelineHazards.h"
#include "pipelines/AsyncPipelineReads.h"

#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::occlint {

struct Batch {
  std::vector<std::pair<Region, SourceLocation>> copies;
  size_t epoch = 0; // block barriers run before its first copy
};

struct PipelineRead {
  Region region;
  SourceLocation loc;
  size_t complete = 0;    // batches waited for (consumer_wait)
  size_t releases = 0;    // stages released (consumer_release)
  size_t issued = 0;      // batches this side had begun
  size_t epoch = 0;       // block barriers run before the read
  SourceLocation release; // the last consumer_release before the read
};

/// The race of read R with the pipeline's Batches (in commit order), or none.
/// With `complete` stages waited for and `releases` released, every batch up
/// to releases + PipelineStages - 1 may have been acquired by then (a
/// producer acquires batch b once every thread has released batch
/// b - PipelineStages). A batch in [complete, that bound) that writes R's
/// stage races with the read: an early read when the read holds no completed
/// copy of the stage, or when its own side had begun that batch; otherwise a
/// refill of a stage the read may still be reading (it was released first,
/// or the pipeline has more stages than the ring, RingStages, has buffers).
/// A batch begun after a block barrier that follows the read is fenced.
std::optional<PipelineHazard> judgeBlockPipelineRead(const PipelineRead &R, const std::vector<Batch> &Batches,
                                                     int64_t PipelineStages, int RingStages);

} // namespace clang::tidy::occlint
