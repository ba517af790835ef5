// Guarded, but an atomic: threads of different blocks meet in one counter.
// No fix-it.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void countPositive(const float *d, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && d[i] > 0.0f)
    atomicAdd(count, 1u);
}

void run(float *d, unsigned *count, int n) {
  countPositive<<<(n + 99) / 100, 100>>>(d, count, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'countPositive' calls atomicAdd (an atomic)}}
}
