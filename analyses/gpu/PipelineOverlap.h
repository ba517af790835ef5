// The overlap estimate of an async-copy pipeline: how long one tile takes to
// load and to compute, and whether a ring of S stages keeps the load hidden.
//
// -- The model (../shared/seeds/async-tile-pipelines.txt) -------------------
// In its steady state a pipelined block loads one stage and computes on one
// stage per tile, and the two overlap: T_tile >= max(T_load, T_compute). The
// blocks resident on an SM share its part of the device's rates, so per SM
// and per tile, with B blocks per SM:
//
//   T_load    = B * bytesPerStage / (memory bandwidth / SMs)
//   T_compute = B * (FP ops / (FP32 rate / SMs) + tensor FLOPs / (tensor rate / SMs))
//
// A copy issued for the tile S - 1 ahead has (S - 1) * T_tile to land, and
// needs the memory latency L plus its own transfer T_load. The ring covers
// the load when
//
//   (S - 1) * max(T_load, T_compute) >= margin * (L + T_load)
//
// -- What is an estimate -----------------------------------------------------
// Every rate is a datasheet peak (data/gpus.json, products[].throughput,
// each with its source): real kernels reach less. L is 600 cycles at the
// datasheet's boost clock: 1.5 x the 400 cycles of global memory latency that
// a published GPU model uses for V100, A100 and H100 alike (Table 3 of
// https://pmc.ncbi.nlm.nih.gov/articles/PMC10448217/), high on purpose. The work
// of a tile is counted from the source (pipelines/AsyncPipelineWork.h) with every
// doubt resolved toward less work. Peak rates, a high latency and an
// undercounted tile all make a shallow ring look worse than it is, so a check
// that says "fewer stages still cover the load" errs toward silence;
// cuda-occupancy-pipeline-depth adds a margin of 2 on top.
#pragma once

#include "gpu/GpuDatabase.h"
#include "gpu/PipelineStaircase.h"

#include <cstdint>
#include <optional>

namespace occlint {

/// The arithmetic of one tile for one block.
struct TileWork {
  double fpOps = 0;       // floating-point operations on the CUDA cores (an FMA is 2)
  double tensorFlops = 0; // tensor-core FLOPs (an m16n8k16 MMA is 2 * 16 * 8 * 16)
};

/// Global memory latency the model assumes, in SM cycles (see above).
inline constexpr double kAsyncCopyLatencyCycles = 600;

/// One tile's times per SM at B blocks per SM, in nanoseconds.
struct TileTimes {
  double loadNs = 0, computeNs = 0, latencyNs = 0;
  bool computeBound() const { return computeNs >= loadNs; }
  double tileNs() const { return computeNs > loadNs ? computeNs : loadNs; }
};

/// The times of one tile of BytesPerStage bytes and Work per block, with
/// BlocksPerSM resident; nullopt where the GPU has no datasheet rates.
std::optional<TileTimes> tileTimes(const TargetGpu &Gpu, int64_t BytesPerStage, const TileWork &Work, int BlocksPerSM);

/// Whether a ring of Stages stages covers the load with the given margin.
bool ringCoversLoad(const TileTimes &Times, int Stages, double Margin);

/// Fills each fitting point's estimate (margin 1) where the rates are known.
void estimateOverlap(std::vector<PipelineDepthPoint> &Points, const TargetGpu &Gpu, int64_t BytesPerStage,
                     const TileWork &Work);

/// The estimate estimateOverlap left on a point, when it made one.
std::optional<TileTimes> estimateAt(const PipelineDepthPoint &Point);

/// The first depth of Points whose ring covers the load (margin 1), or 0.
int firstCoveringDepth(const std::vector<PipelineDepthPoint> &Points);

} // namespace occlint
