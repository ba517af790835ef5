// The application: runs the library's kernels and two of its own.
#include "kernels.h"
#include "launch_helpers.cuh"

#include <cstdio>

__global__ void normalize(float *data, float inv_norm, int n) { // expect-note {{'normalize' uses 8 registers per thread}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= inv_norm;
}

// Evaluates TERMS Gaussian basis functions per point and keeps them all live
// until the final weighted sum: register-heavy.
template <int TERMS>
__global__ void rbf_features(const float *__restrict__ x, const float *__restrict__ centers, // expect-note {{'rbf_features<20>' uses 39 registers per thread}} expect-note {{to cap the registers: __launch_bounds__(256, 8), __maxnreg__(32) or -maxrregcount=32}}
                             const float *__restrict__ weights, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float xi = x[i];
  float phi[TERMS];
#pragma unroll
  for (int t = 0; t < TERMS; ++t) {
    const float d = xi - centers[t];
    phi[t] = __expf(-d * d);
  }
  float norm = 0.0f;
#pragma unroll
  for (int t = 0; t < TERMS; ++t)
    norm += phi[t];
  float sum = 0.0f;
#pragma unroll
  for (int t = 0; t < TERMS; ++t)
    sum += weights[t] * phi[t] / norm;
  out[i] = sum;
}

int main() {
  const int n = 1 << 24;
  float *x, *y, *partial, *centers, *weights;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&partial, n * sizeof(float));
  cudaMalloc(&centers, 64 * sizeof(float));
  cudaMalloc(&weights, 64 * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);

  fill(x, 1.0f, n, stream);
  saxpy(n, 2.0f, x, y, stream);
  reduce_sum(y, partial, n, stream);
  reduce_sum_wide(y, partial, n, stream);
  stencil(x, y, n, stream);
  stencil_big_tile_opt_in(x, y, n, stream);
  normalize<<<ceil_div(n, 256), 256, 0, stream>>>(y, 1.0f / n, n);
  rbf_features<20><<<ceil_div(n, 256), 256, 0, stream>>>(x, centers, weights, y, n); // 20 live terms, 39 registers: 7 over the 32 that allow full occupancy expect-warning {{on H100 SXM (sm_90, 132 SMs), 'rbf_features<20>' uses 39 registers per thread, 7 more than fit 8 blocks of 256 threads per SM: 75.0% occupancy, 100.0% with 32 registers}} [cuda-occupancy-register-cliff]

  // Kept from the tuning experiments.
  scale_into(n, 0.5f, x, y, stream);
  saxpy_one_thread_per_block(n, 2.0f, x, y, stream);
  saxpy_warp_blocks(n, 2.0f, x, y, stream);
  reduce_sum_small_grid(y, partial, n, stream);
  reduce_sum_tile2048(y, partial, n, stream);
  reduce_columns(x, partial, n / 96, stream);
  stencil_wide_big_tile(x, y, n, stream);
  normalize<<<1057, 1024, 0, stream>>>(y, 0.5f, 1057 * 1024); // 1057 blocks of 1024: 4 full waves + 1 block on an H100 expect-warning {{on H100 SXM (sm_90, 132 SMs), the grid of 1057 blocks runs as 4 full waves of 264 blocks and a partial wave of 1 block: the partial wave can cost up to 20.0% of the runtime}} [cuda-launch-tail-wave] expect-note {{1056 or 1320 blocks fill whole waves (2 blocks per SM x 132 SMs)}}

  cudaError_t err = cudaStreamSynchronize(stream);
  std::printf("%s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
