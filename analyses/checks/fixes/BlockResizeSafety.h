// When can a launch's block size change without changing what the program
// computes, or where it reads and writes memory? A rule of its own, written
// for memory safety (docs/checks/cuda-launch-block-not-warp-multiple.md,
// "Fix"): `k<<<(n + 99) / 100, 100>>>(d, n)` rounded up to 128 threads per
// block launches 28 more threads per block, and `k<<<n / 100, 128>>>` (the
// block changed alone) runs 28 % more threads than the program has elements.
// The change is safe only when
//  (a) the kernel has no cross-thread communication: no __shared__ memory
//      (static or extern), no barriers, warp intrinsics, atomics, fences,
//      inline assembly, per-block results, and every function it calls has a
//      body in the translation unit that passes the same rule (library
//      functions may be called when no pointer goes in);
//  (b) every global memory access (a subscript or a dereference of a pointer
//      parameter or of a __device__ array) is indexed by exactly
//      idx = blockIdx.x * blockDim.x + threadIdx.x (either order, or a
//      variable initialised so and never modified) and dominated by a guard
//      `idx < n` (or an early `if (idx >= n) return;`), n an unmodified
//      integer parameter of the kernel; blockIdx/threadIdx/blockDim/gridDim
//      appear nowhere else;
//  (c) the launch's grid is written from the block's literal L as
//      `(m + L-1) / L`, `(m + L - 1) / L` or `m / L`, and the argument for n is
//      the variable m itself: the edit then rewrites the grid as
//      `(m + B-1) / B` together with the block.
// Or: every global memory access is inside grid-stride loops
//   for (int i = idx; i < n; i += gridDim.x * blockDim.x)
// indexed by exactly i, with nothing carried from one element to the next
// (no variable declared outside the loop assigned in it), and no access
// outside them: then the block can change alone, whatever the grid.
#pragma once

#include "facts/LaunchSites.h"

#include "clang/AST/ASTContext.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// What a kernel's body allows of a change of its block size, by (a) and (b).
struct KernelResizeFacts {
  enum class Form {
    Unsafe,     // `whyNot` says which condition failed
    NoAccess,   // no global memory access at all: any block
    GridStride, // every access in grid-stride loops: any block, any grid
    Guarded,    // every access guarded by `idx < n`: any block with a grid that covers n
  };
  Form form = Form::Unsafe;
  /// Unsafe: the condition that failed, as a clause after the kernel's name:
  /// "uses __shared__ memory ('tile')", "calls __syncthreads (a barrier)",
  /// "accesses d[i] without a guard 'i < n' on its index".
  std::string whyNot;
  /// Guarded: the parameters (by index) n such that `idx < n` dominates
  /// every access; GridStride: the loops' bounds.
  std::vector<unsigned> boundParams;
  /// How the index is written, for messages: "i", or
  /// "blockIdx.x * blockDim.x + threadIdx.x" when no variable holds it.
  std::string indexName;
};

/// Applies (a) and (b) to a kernel definition (its body must be present).
KernelResizeFacts analyzeKernelForBlockResize(const FunctionDecl &Kernel, ASTContext &Ctx);

/// Whether one launch can go from `Block` to `NewBlock` threads per block
/// (a 1-D block written as a literal; the caller edits it).
struct BlockResizeVerdict {
  bool safe = false;
  /// Safe: why ("every global memory access of 'scale' is guarded by 'i < n'
  /// ..."); not safe: the condition that failed. A clause, no period.
  std::string why;
  /// Safe and the grid must change with the block: the expression to replace
  /// (token range) and its new text "(n + 127) / 128". Null: the block alone.
  const Expr *grid = nullptr;
  std::string newGrid;
};

BlockResizeVerdict checkBlockResize(const LaunchSite &Site, uint64_t Block, uint64_t NewBlock, ASTContext &Ctx);

} // namespace clang::tidy::occlint
