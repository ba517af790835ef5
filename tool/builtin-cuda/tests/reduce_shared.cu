// Block reduction with static shared memory and __syncthreads, then a
// grid-wide atomicAdd. Host side: malloc/memcpy/launch on a stream/events.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock)
block_sum(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float partial[kBlock];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  partial[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

__global__ void fill(float *p, int n, float value) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i] = value;
}

int main() {
  const int n = 1 << 20;
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&d_out, sizeof(float)));
  CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);

  fill<<<128, 256>>>(d_in, n, 1.0f);
  cudaEventRecord(start, stream);
  dim3 grid((n + kBlock * 2 - 1) / (kBlock * 2));
  dim3 block(kBlock);
  block_sum<<<grid, block, 0, stream>>>(d_in, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);

  float h_out = 0;
  CUDA_CHECK(cudaMemcpyAsync(&h_out, d_out, sizeof(float),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("sum=%f (%.3f ms)\n", h_out, ms);

  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
