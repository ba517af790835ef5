// Every access guarded by i < n, the grid a ceil-div of n by the block's
// literal: the note's fix-it rewrites the block and the grid together.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = d[i] * 2.0f + 1.0f;
}

void run(float *d, int n) {
  scale<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'scale' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 127) / 128}}
}
