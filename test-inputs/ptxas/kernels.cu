// Small kernels whose ptxas resource reports are committed next to this file
// (see regenerate.sh). Keep them deterministic: tests assert on the numbers.
#include <cuda_runtime.h>

// A template kernel, instantiated twice below.
template <typename T>
__global__ void scale(T *data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
template __global__ void scale<float>(float *, float, int);
template __global__ void scale<double>(double *, double, int);

// A non-inlined device function with a stack frame: the local array is
// indexed dynamically, so it lives in local memory.
__device__ __noinline__ float pick(const float *src, int k) {
  float local[32];
  for (int j = 0; j < 32; ++j) local[j] = src[j] * (float)j;
  return local[k & 31];
}

__global__ void usePick(const float *src, float *dst, int k) {
  dst[threadIdx.x] = pick(src + threadIdx.x, k + (int)threadIdx.x);
}

// A large static shared array (40 KB) and __syncthreads.
__global__ void bigShared(const float *in, float *out) {
  __shared__ float tile[10240];
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) tile[i] = in[i];
  __syncthreads();
  float acc = 0.f;
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) acc += tile[10239 - i];
  out[threadIdx.x] = acc;
}

// A block-wide reduction with __syncthreads in a loop.
__global__ void blockReduce(const float *in, float *out) {
  __shared__ float buf[256];
  buf[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
