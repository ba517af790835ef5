// The ring of an async-copy pipeline whose stages are offsets into one
// shared buffer rather than the first dimension of an array of arrays:
// `extern __shared__ half smem[][32]` with stage k at row k * 384, a 1-D array
// with `As + cur * BM * BK`, an address toggled with `off ^= 384`.
//
// The kernel's body is run in its steady state (pipelines/AsyncPipelineRun.h) for
// a fixed number of trips, and each copy's destination is taken apart into
// the buffer, a uniform byte offset (what every thread of the block adds the
// same: the stage) and a part that depends on the thread (its element in the
// stage; pipelines/KernelLocals.h LinearValue). A thread-dependent byte offset
// added to a converted shared address (a swizzle, `addr + ((lane % 8) ^ row) *
// 16`) is taken to stay within the stage. Per copy site, the uniform offsets
// over the trips are periodic: the period is S, and the distance between
// consecutive offsets is the bytes of a stage. Every site must agree on both;
// anything else (offsets not periodic, not evenly spaced, sites that disagree,
// an offset that is not a sum of known values and thread terms) leaves the
// ring unknown, with the reason.
#pragma once

#include "pipelines/AsyncPipeline.h"

#include <array>
#include <string>

namespace clang::tidy::occlint {

/// Reads the ring of Kernel from its copies' offsets into Pipeline (stages,
/// bytesPerStage, stagesFrom), or says in Pipeline.stagesUnknown why not.
/// Only for a kernel whose ring readRing did not find.
void readOffsetRing(const FunctionDecl &Kernel, AsyncPipelineFacts &Pipeline, ASTContext &Ctx);

/// A one-stage ring in a buffer of no declared size (readOffsetRing's
/// WholeBufferStage): the bytes one trip's copies span for a block of
/// Block[0] x Block[1] x Block[2] threads, from the lowest byte any thread's
/// copy writes to the highest (each thread term bounded by interval
/// arithmetic over threadIdx: KernelLocals::range; an index within a row of
/// `T smem[][W]` bounded by the row), rounded up to whole rows of an array of
/// rows. Padding at the end of a row counts: the stage holds whole rows.
/// nullopt, with the reason in Why, where a copy's thread part is not bounded.
std::optional<int64_t> oneStageSpan(const FunctionDecl &Kernel, std::array<int64_t, 3> Block, ASTContext &Ctx,
                                    std::string &Why);

} // namespace clang::tidy::occlint
