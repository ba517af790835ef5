// Register-hungry kernels that are forced to spill: one capped by
// __maxnreg__(32), one by __launch_bounds__(256, 4) (at most 64 registers).
#include <cuda_runtime.h>

#define N 48

__device__ __forceinline__ void mix(float (&v)[N], const float *in, int stride) {
#pragma unroll
  for (int j = 0; j < N; ++j) v[j] = in[j * stride];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
#pragma unroll
    for (int j = 0; j < N; ++j) v[j] = v[j] * v[(j + 7) % N] + v[(j + 13) % N];
  }
}

__global__ void __maxnreg__(32) hungryMaxnreg(const float *in, float *out, int stride) {
  float v[N];
  mix(v, in + blockIdx.x * blockDim.x + threadIdx.x, stride);
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < N; ++j) s += v[j] * (float)(j + 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define M 96
__global__ void __launch_bounds__(256, 4) hungryBounds(const float *in, float *out, int stride) {
  float v[M];
  const float *p = in + blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int j = 0; j < M; ++j) v[j] = p[j * stride];
#pragma unroll
  for (int r = 0; r < 6; ++r) {
#pragma unroll
    for (int j = 0; j < M; ++j) v[j] = v[j] * v[(j + 31) % M] + v[(j + 57) % M];
  }
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < M; ++j) s += v[j] * (float)(j + 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
