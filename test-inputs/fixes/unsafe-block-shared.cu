// Guarded, but the block shares memory: a block of 128 threads would fill
// the tile differently. No fix-it.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void reverseInBlock(float *d, int n) {
  __shared__ float tile[100];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tile[threadIdx.x] = d[i];
  __syncthreads();
  if (i < n)
    d[i] = tile[blockDim.x - 1 - threadIdx.x];
}

void run(float *d, int n) {
  reverseInBlock<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'reverseInBlock' uses __shared__ memory ('tile')}}
}
