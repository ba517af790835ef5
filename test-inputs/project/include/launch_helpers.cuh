// Shared launch helpers, included by src/saxpy.cu and main.cu.
#pragma once

#include <cuda_runtime.h>

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

template <typename T>
__global__ void fill_kernel(T *out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

// Sets out[0..n) to value.
inline void fill(float *out, float value, int n, cudaStream_t stream = 0) {
  fill_kernel<float><<<ceil_div(n, 100), 100, 0, stream>>>(out, value, n); // 100-thread block. expect-warning {{block of 100 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the grid 'ceil_div(n, 100)' is not written (n + 99) / 100 or n / 100 with the block's 100}}
}
