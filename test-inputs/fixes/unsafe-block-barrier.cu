// Guarded, no shared memory, but a barrier: block-wide synchronisation is
// communication between the block's threads. No fix-it.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void twoPhases(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
  __syncthreads();
  if (i < n)
    d[i] += 1.0f;
}

void run(float *d, int n) {
  twoPhases<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'twoPhases' calls __syncthreads (a barrier)}}
}
