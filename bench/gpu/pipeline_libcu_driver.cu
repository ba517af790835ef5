// Runs the kernels of test-inputs/checks/pipeline-hazards-libcu.cu
// (cuda::pipeline of block and thread scope, split into producer and consumer
// warps, and cuda::barrier rings, correct and broken; our own code) on a GPU,
// for compute-sanitizer's racecheck and synccheck (bench/pipeline_gpu.sh).
// The test input is included as it is: its launch() launches every kernel.
#include "../../test-inputs/checks/pipeline-hazards-libcu.cu"

#include <cstdio>

int main() {
  const int tiles = 8;
  // threadPipelineNoRelease reads in + (k + tiles) * Tile: twice the tiles, and
  // the prefetches past the last tile.
  const size_t elements = size_t(2 * tiles + 8) * Tile;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, elements * sizeof(float));
  cudaMalloc(&out, size_t(132) * (Tile + 32) * sizeof(float));
  cudaMemset(in, 0, elements * sizeof(float));
  launch(in, out, tiles);
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("kernels ran: %s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
