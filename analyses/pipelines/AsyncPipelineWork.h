// What one trip of a kernel's pipelined loop computes, and whether its async
// copies overlap any of it: the source side of the overlap estimate
// (gpu/PipelineOverlap.h) and of cuda-occupancy-pipeline-depth.
//
// -- The pipelined loop -------------------------------------------------------
// The innermost loop of the kernel's own body that holds an async copy and a
// completion (a wait of any form), directly or in a function of the program
// it calls (a loader, a wait helper). One trip of it is taken as one tile.
//
// -- The work of a tile (an estimate, always low) ----------------------------
// Counted per thread over one trip, from the statements themselves:
//   * floating-point +, -, *, / (and their compound assignments): 1 each;
//     fmaf/__fmaf_*/__hfma: 2; __hfma2: 4; __hmul2/__hadd2/__hsub2: 2;
//   * tensor-core MMAs, per warp: wmma::mma_sync of an m x n x k fragment and
//     inline PTX mma.sync.*.mMnNkK: 2 * M * N * K FLOPs; wgmma.mma_async (a
//     warp group of 4 warps): a quarter of that per warp;
//   * a nested loop multiplies its body by its trip count when the count is a
//     compile-time constant (`for (int k = 0; k < BK; ++k)`); a loop with
//     arithmetic and another trip count makes the work unknown;
//   * a branch whose condition is not a constant counts its lighter side
//     (an `if` without `else` counts nothing); a call is followed into the
//     callee's body (8 levels).
// Every doubt lowers the count: a lower count makes a shallower ring look
// worse, so the check built on it errs toward silence.
//
// -- Nothing overlaps ---------------------------------------------------------
// The statements of one trip, in order and around the back edge: when after
// every copy the next statement that does anything is a wait that leaves no
// batch in flight (not wait_prior / wait_group N > 0; only commits,
// barriers and integer bookkeeping between them), no work runs while the copy
// is in flight. Anything else counts as work here: floating-point arithmetic,
// a memory access, a call. (A kernel that copies a stage into registers,
// refills the stage and then computes on the registers does overlap with one
// stage: its compute comes between the copy and the next wait.)
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::occlint {

struct PipelineLoopWork {
  const Stmt *loop = nullptr;   // the pipelined loop (null when none in the kernel's body)
  std::optional<int64_t> trips; // its trip count, when a constant
  /// One trip, when countable: FP operations per thread, tensor FLOPs per warp.
  std::optional<double> fpOpsPerThread, tensorFlopsPerWarp;
  std::string workUnknown;      // why the work is not counted ("" when it is)
  bool nothingOverlaps = false; // every copy is waited for before any work
};

PipelineLoopWork describePipelineLoopWork(const FunctionDecl &Kernel, ASTContext &Ctx);

} // namespace clang::tidy::occlint
