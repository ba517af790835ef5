// Runs the kernels of test-inputs/checks/pipeline-hazards-calls.cu (rings
// filled, waited for and read in called functions; our own code) on a GPU,
// for compute-sanitizer's racecheck and synccheck (bench/pipeline_gpu.sh).
#include "../../test-inputs/checks/pipeline-hazards-calls.cu"

#include <cstdio>

int main() {
  const int tiles = 8;
  const size_t elements = size_t(tiles + 4) * Tile;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, elements * sizeof(float));
  cudaMalloc(&out, size_t(132) * 256 * sizeof(float));
  cudaMemset(in, 0, elements * sizeof(float));
  launch(in, out, tiles);
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("kernels ran: %s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
