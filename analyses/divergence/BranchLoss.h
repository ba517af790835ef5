// What a thread-dependent branch costs: the estimated share of the kernel's
// lane-slots (a warp's 32 lanes times the operations it issues) that the
// branch leaves idle. A static estimate of what Nsight Compute measures as
// the average active threads per warp (smsp__thread_inst_executed_per_
// inst_executed): 32 times one minus the sum of these shares, times the
// share of a warp's lanes the launched block fills.
//
//   loss = idle lane-slots per run x runs per call x split warps x the
//          function's share of the kernel / the function's operations
//
// where, for the lanes on the taken side t (a known lane pattern gives it;
// otherwise half), a two-sided split idles taken x (1 - t) + other x t
// (each path runs with the other path's lanes masked off) and a loop whose
// trip count differs between lanes idles its body x (1 - t) (the lanes done
// early wait for the last). The share of warps that split: all for a lane
// pattern, a single lane per warp or a data-dependent condition; one warp
// of the block for a bound that falls inside the block (a boundary guard,
// and a single thread of the block), and for a strided loop only its last
// iteration.
#pragma once

#include "divergence/DivergenceAnalysis.h"

namespace clang::tidy::occlint {

/// Warps assumed in a block whose launches do not fix its shape: 8 (a
/// 256-thread block). Only the boundary guards and the single-thread
/// sections depend on it, and fewer warps would only make them costlier.
constexpr unsigned AssumedWarpsPerBlock = 8;

/// The estimated share (0..1) of the kernel's lane-slots the branch leaves
/// idle, from its fields (DivergenceBranch: condition, work on its sides,
/// repeats, the function's work and share, the block's warps).
double estimatedLoss(const DivergenceBranch &B);

/// Average active threads per warp instruction for a kernel whose warps hold
/// LanesPerWarp threads and whose branches leave Loss of the lane-slots idle
/// (the sum over its branches, counted at most up to 31 of 32 lanes idle).
double predictedActiveThreadsPerWarp(double LanesPerWarp, double Loss);

} // namespace clang::tidy::occlint
