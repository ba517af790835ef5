// The kernel's body differs between archs: on sm_90 it has a barrier. The
// sm_80 parse alone would prove the block change safe; occlint parses the
// file for both archs, prints the finding once, and keeps a fix-it only where
// every parse proposed it: here the sm_90 parse's note, without a fix-it.
// RUN-ARGS: --gpu=sm_80 --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
#if __CUDA_ARCH__ >= 900
  __syncthreads();
#endif
}

void run(float *d, int n) {
  scale<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'scale' calls __syncthreads (a barrier)}}
}
