// Early reads and premature reuse in an async-copy ring, found by running the
// kernel's pipeline in its steady state.
//
// -- The model ----------------------------------------------------------------
// The kernel's body is executed symbolically, in source order, with the
// integer locals it assigns (the loop counter, `cur = k % S`, `next = 1 - cur`,
// `stage = (stage + 1) % S`): a loop whose condition is a constant runs its
// trips (a prologue `for (s = 0; s < S - 1; ++s)`), a loop whose condition is
// not known runs 2 S + 3 trips (the steady state, every guard such as
// `k + 1 < tiles` taken), and a loop without async operations or barriers (the
// compute loop) is read once. Each region of the ring is (variable, stage);
// the state is:
//   * the batches: copies join the open batch; a commit closes it
//     (__pipeline_commit, cp.async.commit_group, producer_commit); a
//     cooperative_groups::memcpy_async is a batch of its own;
//   * what is complete: a wait with N pending (__pipeline_wait_prior(N),
//     cp.async.wait_group N, cg::wait_prior<N>, pipeline_consumer_wait_prior<N>)
//     completes every batch but the N most recent; cp.async.wait_all, cg::wait
//     complete all;
//   * what every thread sees: a block barrier (__syncthreads, a thread
//     block's sync, and cg::wait / cg::wait_prior, which synchronise the
//     group) makes the completed copies visible to all threads;
//   * per region, the reads since the last block barrier.
// A ring at computed offsets (AsyncPipelineFacts::offsetRingBuffers) has the
// same regions, (buffer, stage), with the stage of a place its uniform byte
// offset (pipelines/AsyncPipelineRun.h, UniformAddresses) less the ring's base,
// divided by the bytes of a stage, modulo S. Its reads are subscripts and
// dereferences of the buffer and the address operands of inline PTX
// shared-memory loads (ldmatrix, ld.shared); every one counts as a read of
// other threads' copies (the thread parts are not compared).
// A read of a region is early when the batch of the region's last copy is not
// complete (the wait is too loose, or missing), or when the copy was made by
// other threads and no block barrier came between its completion and the
// read. A copy into a region is premature when other threads read the region
// after the last block barrier. "Other threads": the copy's or the read's
// address past the stage index differs in its text (`[threadIdx.x]` read
// after `[threadIdx.x]` copied is the thread's own element; `[i]` is not), or
// the copy is a whole group's (cooperative groups, cuda::memcpy_async with a
// group).
//
// -- What it does not model (no finding, never a guess) ----------------------
// cuda::pipeline with producer_acquire / consumer_wait (block scope) and
// cuda::barrier completions; bulk (TMA) copies; copies or waits in called
// functions; a wait, commit or barrier under a condition that is not known;
// stores into a stage by plain assignments;
// a stage index that is not an integer expression of the kernel's locals.
// The reason is kept (hazardsNotModelled) and the remark says it.
#pragma once

#include "pipelines/AsyncPipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

struct PipelineHazard {
  enum Kind { EarlyRead, BufferReuse } kind = EarlyRead;
  const VarDecl *buffer = nullptr;
  int64_t stage = 0;
  SourceLocation at;    // the read (early read) or the refilling copy (reuse)
  SourceLocation other; // the copy still in flight (early read) or the read not yet fenced (reuse)
  SourceLocation wait;  // where the fix goes: the last wait before an early read, the release before a
                        // reused stage's read (invalid: at the finding)
  std::string why;      // the cause, one clause
  std::string fix;      // what would fix it, one clause
  /// The launches whose argument values make it certain
  /// (pipelineHazardsForLaunch found it in an exact run), and what they pass.
  struct CertainLaunch {
    SourceLocation at;
    std::string arguments; // "with tiles = 8 the pipelined loop"
  };
  std::vector<CertainLaunch> certainFor;
};

/// The hazards of Kernel's ring (Pipeline.ringVariables, Pipeline.stages),
/// or none; Pipeline.hazardsNotModelled says why none were looked for.
std::vector<PipelineHazard> findPipelineHazards(const FunctionDecl &Kernel, AsyncPipelineFacts &Pipeline,
                                                ASTContext &Ctx);

/// The hazards of the same run with the kernel's integer parameters bound to
/// a launch's Arguments (LaunchSite::argumentValues), when that run knew every
/// condition it met (PipelineRun::exact): then each of them happens in every
/// run of that launch. nullopt when the run was not exact or not modelled.
std::optional<std::vector<PipelineHazard>>
pipelineHazardsForLaunch(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline,
                         const std::vector<std::optional<int64_t>> &Arguments, ASTContext &Ctx);

} // namespace clang::tidy::occlint
