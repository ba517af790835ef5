// What the divergence analysis needs to know about a call: is it a barrier,
// a warp collective, a source of per-thread values (atomics, cooperative
// groups' ranks), or an ordinary function. Recognised by name (and, for
// cooperative groups, by the class of the group object), so it works the same
// with the CUDA toolkit's headers and with occlint's built-in ones.
#pragma once

#include "clang/AST/Expr.h"

#include <string>

namespace clang::tidy::occlint {

enum class CallRole {
  None,
  Barrier,       // __syncthreads*, block.sync(), cg::sync(g), tile.sync()
  SyncWarp,      // __syncwarp(mask)
  ShuffleIdx,    // __shfl_sync(mask, v, srcLane): a broadcast when srcLane is warp-uniform
  Shuffle,       // __shfl_up/down/xor_sync
  Vote,          // __ballot/__any/__all/__reduce_*_sync: the same in every lane
  Match,         // __match_any/all_sync
  ActiveMask,    // __activemask()
  Atomic,        // atomic*(): a different value in every thread
  ThreadRank,    // group.thread_rank(), cg::thread_rank(group)
  MetaGroupRank, // tile.meta_group_rank()
  ThreadIndex,   // block.thread_index() (a dim3 of threadIdx)
  GroupUniform,  // size(), num_threads(), group_index(), ...: uniform
};

struct CallInfo {
  CallRole Role = CallRole::None;
  std::string Name; // "__syncthreads()", "__shfl_down_sync", "tile.sync()"
  /// The group the call works on: 64 = the block (or grid), N <= 32 = a
  /// tile of N lanes, 32 for warp intrinsics; 0 when unknown.
  unsigned Group = 0;
  int MaskArg = -1;            // the argument holding the lane mask (warp intrinsics)
  bool ReturnsUniform = false; // __syncthreads_count/_and/_or: same result in the whole block
};

CallInfo classifyCall(const CallExpr &Call);

/// 64 for thread_block/grid_group, N for thread_block_tile<N>, 0 otherwise.
unsigned groupSizeOfType(QualType T);

} // namespace clang::tidy::occlint
