// Dynamic shared memory above the 48 KB default: opt in with
// cudaFuncSetAttribute(MaxDynamicSharedMemorySize) and launch with 64 KB.
// Also cudaLaunchKernel with an argument array and occupancy queries.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int kThreads = 512;
constexpr size_t kSmemBytes = 64 * 1024;

__global__ void __launch_bounds__(kThreads, 1)
stencil_big_smem(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  const int elems = static_cast<int>(kSmemBytes / sizeof(float));
  for (int i = threadIdx.x; i < elems; i += blockDim.x) {
    int g = blockIdx.x * elems + i;
    tile[i] = g < n ? in[g] : 0.0f;
  }
  __syncthreads();
  for (int i = threadIdx.x + 1; i < elems - 1; i += blockDim.x) {
    int g = blockIdx.x * elems + i;
    if (g < n) out[g] = 0.25f * tile[i - 1] + 0.5f * tile[i] + 0.25f * tile[i + 1];
  }
}

__global__ void scale(float *data, float f, int n) {
  extern __shared__ unsigned char raw[];
  float *buf = reinterpret_cast<float *>(raw);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  if (i < n) data[i] = buf[threadIdx.x] * f;
}

int run(const float *in, float *out, int n) {
  int device = 0;
  cudaGetDevice(&device);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  printf("%s sm_%d%d, %d SMs, optin smem %zu, smem/SM %zu, regs/SM %d\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         prop.sharedMemPerBlockOptin, prop.sharedMemPerMultiprocessor,
         prop.regsPerMultiprocessor);
  int optin = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                         device);
  if (static_cast<size_t>(optin) < kSmemBytes) return 1;

  cudaError_t err = cudaFuncSetAttribute(
      stencil_big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize,
      static_cast<int>(kSmemBytes));
  if (err != cudaSuccess) return 1;
  int blocksPerSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, stencil_big_smem,
                                                kThreads, kSmemBytes);
  const int elems = static_cast<int>(kSmemBytes / sizeof(float));
  stencil_big_smem<<<(n + elems - 1) / elems, kThreads, kSmemBytes>>>(in, out,
                                                                      n);

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float f = 2.0f;
  void *args[] = {&out, &f, &n};
  cudaLaunchKernel((const void *)scale, dim3((n + 255) / 256), dim3(256), args,
                   256 * sizeof(float), s);
  scale<<<(n + 255) / 256, 256, 256 * sizeof(float), s>>>(out, 0.5f, n);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
