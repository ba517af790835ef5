// y = a*x + y, with a grid-stride loop so that any grid covers any n.
#include "launch_helpers.cuh"
#include "kernels.h"

__global__ void saxpy_kernel(int n, float a, const float *__restrict__ x, float *__restrict__ y) { // expect-note 2 {{'saxpy_kernel' uses 14 registers per thread}}
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float *x, float *y, cudaStream_t stream) {
  saxpy_kernel<<<ceil_div(n, 256), 256, 0, stream>>>(n, a, x, y);
}

// y = a*x + 0.
void scale_into(int n, float a, const float *x, float *y, cudaStream_t stream) {
  fill(y, 0.0f, n, stream);
  saxpy(n, a, x, y, stream);
}

// Variants kept from tuning experiments.
void saxpy_one_thread_per_block(int n, float a, const float *x, float *y, cudaStream_t stream) {
  saxpy_kernel<<<n, 1, 0, stream>>>(n, a, x, y); // 1-thread block. expect-warning {{block of 1 thread is not a multiple of the warp size (32): 31 of the 32 lanes}} [cuda-launch-block-not-warp-multiple] expect-warning {{on H100 SXM (sm_90, 132 SMs), blocks of 1 thread hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy; blocks of 64 threads or more lift it}} [cuda-occupancy-block-cap] expect-note {{rounding the block up to 32 threads launches 31 more threads per block: the kernel must ignore them and the grid must be recomputed; safe here: 'saxpy_kernel' is a grid-stride loop (bound 'n')}}
}

void saxpy_warp_blocks(int n, float a, const float *x, float *y, cudaStream_t stream) {
  saxpy_kernel<<<8192, 32, 0, stream>>>(n, a, x, y); // 32-thread blocks, large grid: capped by blocks per SM expect-warning {{blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit}} [cuda-occupancy-block-cap]
}
