// Sum reductions: a shared-memory tree per block, one partial sum per block.
#include "kernels.h"

template <int BLOCK>
__global__ void block_reduce_sum(const float *__restrict__ in, float *__restrict__ partial, int n) {
  __shared__ float buffer[BLOCK];
  float sum = 0.0f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    sum += in[i];
  buffer[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      buffer[threadIdx.x] += buffer[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = buffer[0];
}

void reduce_sum(const float *in, float *partial, int n, cudaStream_t stream) {
  block_reduce_sum<256><<<(n + 255) / 256, 256, 0, stream>>>(in, partial, n);
}

void reduce_sum_wide(const float *in, float *partial, int n, cudaStream_t stream) {
  block_reduce_sum<512><<<(n + 511) / 512, 512, 0, stream>>>(in, partial, n);
}

void reduce_sum_small_grid(const float *in, float *partial, int n, cudaStream_t stream) {
  block_reduce_sum<256><<<40, 256, 0, stream>>>(in, partial, n); // 40 blocks of 256: a tiny grid on an H100 (132 SMs) expect-warning {{grid of 40 blocks on H100 SXM (sm_90, 132 SMs) leaves 92 of its 132 SMs idle (69.7%)}} [cuda-launch-tiny-grid]
}

void reduce_sum_tile2048(const float *in, float *partial, int n, cudaStream_t stream) {
  block_reduce_sum<2048><<<(n + 2047) / 2048, 2048, 0, stream>>>(in, partial, n); // 2048-thread block: over the 1024 limit, cannot launch expect-error {{the launch cannot start: a block of 2048 threads exceeds the limit of 1024 threads per block}} [cuda-launch-invalid-config]
}

// Sums each of COLS columns of a row-major rows x COLS matrix: every thread
// keeps COLS running sums in registers (more than -maxrregcount=64 allows).
template <int COLS>
__global__ void column_sums(const float *__restrict__ in, float *__restrict__ sums, int rows) { // expect-warning {{'column_sums<96>' spills registers on sm_90 because its register count is forced down to 64 by -maxrregcount=64 in the compile command}} [cuda-occupancy-spills]
  float acc[COLS];
#pragma unroll
  for (int c = 0; c < COLS; ++c)
    acc[c] = 0.0f;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
#pragma unroll
    for (int c = 0; c < COLS; ++c)
      acc[c] += in[r * COLS + c] * in[r * COLS + (c + 1) % COLS];
  }
#pragma unroll
  for (int c = 0; c < COLS; ++c)
    atomicAdd(&sums[c], acc[c]);
}

void reduce_columns(const float *in, float *sums, int rows, cudaStream_t stream) {
  column_sums<96><<<(rows + 255) / 256, 256, 0, stream>>>(in, sums, rows); // 96 accumulators per thread under -maxrregcount=64: spills
}
