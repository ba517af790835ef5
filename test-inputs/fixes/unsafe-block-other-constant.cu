// A guarded kernel, but the grid is computed from another constant than the
// block's: rewriting the block alone, or the grid from the block, would
// change how many threads run. No fix-it.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

void run(float *d, int n) {
  scale<<<(n + 255) / 256, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the grid '(n + 255) / 256' is not written (n + 99) / 100 or n / 100 with the block's 100}}
}
