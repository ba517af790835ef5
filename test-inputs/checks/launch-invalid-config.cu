// Test input for cuda-launch-invalid-config (analyses/checks/InvalidConfigCheck.cpp), with a
// real ptxas report for sm_90 (ptxas/launch-invalid-config.sm_90.log): 'heavy' uses 133
// registers per thread, 'copy' few.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-invalid-config --ptxas-log=%S/ptxas/launch-invalid-config.sm_90.log
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }

__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] = 0.0f; } // expect-note {{__launch_bounds__ declared here}}

__global__ void heavy(const float *__restrict__ in, float *out, int n) { // expect-note {{'heavy' uses 133 registers per thread}}
  float acc[124];
#pragma unroll
  for (int j = 0; j < 124; ++j)
    acc[j] = in[threadIdx.x + j];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 124; ++j)
      acc[j] = acc[j] * in[i] + acc[(j + 1) % 124];
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 124; ++j)
    s += acc[j];
  out[threadIdx.x] = s;
}

extern __shared__ float dynamicTile[];
__global__ void tiled(float *p) { p[threadIdx.x] = dynamicTile[threadIdx.x]; }
__global__ void optedIn(float *p) { p[threadIdx.x] = dynamicTile[threadIdx.x]; }
__global__ void withStatic(float *p) { // expect-note {{'withStatic' uses 10 registers per thread, 40960 bytes of static shared memory (ptxas, sm_90)}}
  __shared__ float staticTile[10240]; // 40 KB
  staticTile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = staticTile[threadIdx.x + 1] + dynamicTile[threadIdx.x];
}
__global__ void cooperative(float *p) { p[blockIdx.x] = 1.0f; } // expect-note {{'cooperative' uses 10 registers per thread}}

constexpr size_t k64KB = 64 * 1024; // expect-note {{'k64KB' is defined here as 65536}}

void errors(const float *in, float *out, float *p, int n) {
  copy<<<10, 2048>>>(in, out); // expect-error {{the launch cannot start: a block of 2048 threads exceeds the limit of 1024 threads per block}} [cuda-launch-invalid-config]
  copy<<<10, dim3(32, 32, 2)>>>(in, out); // expect-error {{a block of 2048 threads exceeds the limit of 1024}} [cuda-launch-invalid-config]
  copy<<<10, dim3(1, 1, 128)>>>(in, out); // expect-error {{the launch cannot start: block dimension z of 128 exceeds the limit of 64}} [cuda-launch-invalid-config]
  copy<<<10, 0>>>(in, out); // expect-error {{the launch cannot start: block dimension x is 0}} [cuda-launch-invalid-config]
  copy<<<dim3(10, 0), 256>>>(in, out); // expect-error {{the launch cannot start: grid dimension y is 0}} [cuda-launch-invalid-config]
  copy<<<dim3(1, 70000), 256>>>(in, out); // expect-error {{grid dimension y of 70000 exceeds the limit of 65535}} [cuda-launch-invalid-config]
  bounded<<<10, 512>>>(p); // expect-error {{the launch cannot start: a block of 512 threads exceeds the maximum of 256 that 'bounded' declares with __launch_bounds__}} [cuda-launch-invalid-config]
  heavy<<<10, 1024>>>(in, out, n); // expect-error {{the launch cannot start on H100 SXM (sm_90, 132 SMs): 133 registers x 1024 threads need}} [cuda-launch-invalid-config]
  tiled<<<10, 256, k64KB>>>(p); // expect-error {{the launch cannot start on H100 SXM (sm_90, 132 SMs): 65536 bytes of dynamic shared memory exceed the default limit of 49152 bytes per block, and 'tiled' does not opt in}} [cuda-launch-invalid-config]
  withStatic<<<10, 256, 16 * 1024>>>(p); // expect-error {{the launch cannot start on H100 SXM (sm_90, 132 SMs):}} [cuda-launch-invalid-config]
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(100000), dim3(256), args, 0, 0); // expect-error {{the cooperative launch cannot start on H100 SXM (sm_90, 132 SMs): a grid of 100000 blocks exceeds the 1056 blocks that can be resident at once (8 per SM x 132 SMs)}} [cuda-launch-invalid-config]
}

void valid(const float *in, float *out, float *p, int n, int block) {
  cudaFuncSetAttribute(optedIn, cudaFuncAttributeMaxDynamicSharedMemorySize, k64KB);
  optedIn<<<10, 256, k64KB>>>(p);   // opted in
  copy<<<10, 1024>>>(in, out);
  copy<<<10, dim3(32, 32, 1)>>>(in, out);
  bounded<<<10, 256>>>(p);
  heavy<<<10, 256>>>(in, out, n);   // 133 x 256 fits the register file
  tiled<<<10, 256, 48 * 1024>>>(p); // exactly the default limit
  copy<<<10, block>>>(in, out);     // unknown: never guessed
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(1056), dim3(256), args, 0, 0);
}
