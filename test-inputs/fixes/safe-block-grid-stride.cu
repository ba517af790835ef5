// A grid-stride loop: every thread handles the elements i, i + all threads,
// ..., below n, whatever the grid and the block. The fix-it changes the block
// alone.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void scale(float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    d[i] = d[i] * 2.0f + 1.0f;
}

void run(float *d, int n) {
  scale<<<7, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: 'scale' is a grid-stride loop (bound 'n') that does not communicate across threads: the block can change alone, the grid stay}}
}
