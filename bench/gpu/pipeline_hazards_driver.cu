// Runs the kernels of test-inputs/checks/pipeline-hazards.cu (correct and
// broken async-copy rings, our own code) on a GPU, so that compute-sanitizer's
// racecheck and synccheck can say which of them race (bench/pipeline_gpu.sh).
// The test input is included as it is: its run() launches every kernel.
#include "../../test-inputs/checks/pipeline-hazards.cu"

#include <cstdio>

int main() {
  const int tiles = 8;
  const size_t elements = size_t(tiles + 4) * Tile;
  float *a = nullptr, *c = nullptr, *out = nullptr;
  float4 *in = nullptr;
  cudaMalloc(&a, elements * sizeof(float));
  cudaMalloc(&c, 432 * 256 * sizeof(float));
  cudaMalloc(&out, 432 * 256 * sizeof(float));
  cudaMalloc(&in, size_t(tiles + 4) * 256 * sizeof(float4));
  cudaMemset(a, 0, elements * sizeof(float));
  cudaMemset(in, 0, size_t(tiles + 4) * 256 * sizeof(float4));
  run(a, c, in, out, tiles);
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("kernels ran: %s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
