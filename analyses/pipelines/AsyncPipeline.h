// What a kernel's source says about its asynchronous copies into shared
// memory: which forms it uses, each copy, commit and wait, and the ring of
// buffers the copies fill (its stage count S and the bytes of one stage).
//
// -- The forms --------------------------------------------------------------
//   primitives   __pipeline_memcpy_async / __pipeline_commit /
//                __pipeline_wait_prior(N)                 (cuda_pipeline.h)
//   cuda::pipeline  cuda::memcpy_async(..., pipe); producer_acquire/commit,
//                consumer_wait/release, pipeline_consumer_wait_prior<N>
//   cuda::barrier   cuda::memcpy_async(..., bar); arrive, wait,
//                arrive_and_wait
//   cooperative groups  cg::memcpy_async; cg::wait, cg::wait_prior<N>
//   cp.async     inline PTX cp.async.ca/cg.shared.global, cp.async.commit_group,
//                cp.async.wait_group N, cp.async.wait_all (macros included:
//                the AST holds the expanded asm statement)
//   bulk (TMA)   cp.async.bulk[.tensor] into shared memory in PTX,
//                cuda::device::memcpy_async_tx, cuda::ptx::cp_async_bulk*:
//                the ring and its bytes read as for the other forms; their
//                completion on an mbarrier (expect_tx, try_wait.parity) is not
//                modelled, so their hazards are not checked
//
// -- The ring ---------------------------------------------------------------
// A copy's destination is followed back to the __shared__ variable it writes
// (through &, subscripts, pointer offsets, __cvta_generic_to_shared and a
// local pointer's initializer). A variable that is an array of arrays, and
// that the copies index in its first dimension with a runtime value or with
// more than one constant, is a ring of that dimension's size: S stages of
// sizeof(variable) / S bytes each. Where every ring variable agrees on S,
// S and the bytes per stage (the sum over the ring variables) are facts;
// otherwise, or where the destination is not readable (dynamic shared memory
// at computed offsets), the stage count is unknown and the reason says why.
// A cuda::pipeline_shared_state<scope, N> gives S = N where the buffers do
// not (its stage count is the ring's depth by construction).
#pragma once

#include "pipelines/AsyncOperations.h"
#include "pipelines/AsyncPipelineWork.h"

#include "clang/AST/Decl.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

struct AsyncCopyEvent {
  AsyncEventKind kind = AsyncEventKind::Copy;
  AsyncCopyForm form = AsyncCopyForm::Primitives;
  SourceLocation loc;
  std::optional<int64_t> pending; // Wait: AsyncOperation::pending
  /// Copy: the shared variable it writes (null when not readable), the
  /// first-dimension index when constant, and whether it is a runtime value.
  const VarDecl *buffer = nullptr;
  std::optional<int64_t> constantStage;
  bool runtimeStage = false;
  bool threadIndexed = false;   // the first index depends on the thread: a row, not a stage
  std::optional<int64_t> bytes; // Copy: its size in bytes, when exact
};

/// A copy's destination followed back to the shared variable it writes, and
/// the subscript of that variable's first dimension (null when none).
struct CopyDestination {
  const VarDecl *buffer = nullptr;
  const Expr *firstIndex = nullptr;
};
CopyDestination copyDestinationOf(const Expr *Address);

/// offsetRingStride of a one-stage ring in a buffer of no constant size: every
/// offset at or past the ring's base is the stage.
constexpr int64_t WholeBufferStage = INT64_MAX / 4;

struct AsyncPipelineFacts {
  std::vector<AsyncCopyForm> forms;   // each form once, in order of first use
  std::vector<AsyncCopyEvent> events; // in source order (the kernel's body, then the functions it calls)
  SourceLocation firstCopy;
  /// The ring: S and the bytes of one stage, when readable.
  std::optional<int> stages;
  /// 0 when not readable. A one-stage ring in a buffer of no constant size
  /// gets its bytes from the launches: the bytes one trip's copies span for
  /// the block every launch of the kernel in the translation unit gives
  /// (oneStageSpan in pipelines/AsyncPipelineOffsets.h; facts/TranslationUnitFacts).
  int64_t bytesPerStage = 0;
  std::vector<const VarDecl *> ringVariables;
  /// A ring at computed offsets instead (section 3 of docs/async-pipelines.md):
  /// the buffers its copies write, and the uniform byte offset of its first
  /// stage, and the distance between two stages in one buffer; stage k of a
  /// buffer spans [base + k * offsetRingStride, base + (k + 1) * offsetRingStride)
  /// (bytesPerStage sums that stride over the buffers).
  std::vector<const VarDecl *> offsetRingBuffers;
  int64_t offsetRingBase = 0;
  int64_t offsetRingStride = 0; // WholeBufferStage: one stage of no constant size
  /// The ring lives in dynamic shared memory (extern __shared__): its bytes
  /// are part of the launch's dynamic amount, which may also hold other data
  /// that reuses the ring's space after the loop.
  bool ringInDynamicSharedMemory = false;
  std::string stagesFrom;    // "'As' and 'Bs' (2 x 4096 B)" / "pipeline_shared_state<..., 3>"
  std::string stagesUnknown; // why S is not known ("" when it is)
  /// "all threads", or "threads under a condition (line N)": who issues the
  /// copies (a copy inside a branch on the thread's index: warp-specialised).
  std::string producer;
  /// Why the ring's hazards were not looked for ("" when they were;
  /// pipelines/AsyncPipelineHazards.h).
  std::string hazardsNotModelled;
  /// The pipelined loop: one tile's arithmetic, and whether the copies
  /// overlap any work (pipelines/AsyncPipelineWork.h).
  PipelineLoopWork loopWork;
};

/// The async-copy facts of a kernel; nullopt when it makes no async copy.
std::optional<AsyncPipelineFacts> describeAsyncPipeline(const FunctionDecl &Kernel, ASTContext &Ctx);

} // namespace clang::tidy::occlint
