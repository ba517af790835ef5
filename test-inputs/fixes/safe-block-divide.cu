// The divide form of the grid, with an early return as the guard: the fix-it
// rewrites n / 100 as the ceil-div (n + 127) / 128. Both launch the same
// threads past the guard when n is a multiple of 100, as this program's n is.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void scale(float *d, int n) {
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n)
    return;
  d[i] = d[i] * 2.0f + 1.0f;
}

void run(float *d, int n) {
  scale<<<n / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'scale' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 127) / 128 (n / 100 launched only n rounded down to a multiple of 100}}
}
