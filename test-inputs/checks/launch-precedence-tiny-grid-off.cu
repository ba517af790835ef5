// Test input for the precedence table (analyses/checks/LaunchFindingPrecedence.h):
// launch-precedence.cu's launches with cuda-launch-tiny-grid turned off. Its
// row no longer applies, so block-not-warp-multiple says the plain words;
// invalid-config's row still applies. Block-cap and register-cliff stay quiet
// on the grids below the SM count by their own rule: a grid that one wave
// holds cannot use more blocks per SM (OcclintCheck::gridBeyondOneWave; they
// were reported here before that rule, issue 47).
// Real ptxas report (ptxas/launch-precedence.sm_90.log): 'heavy' uses 133
// registers per thread, the others 10. H100 SXM: 132 SMs.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-*,cuda-occupancy-*,-cuda-occupancy-report,-cuda-launch-tiny-grid --ptxas-log=%S/ptxas/launch-precedence.sm_90.log
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }

__global__ void heavy(const float *__restrict__ in, float *out, int n) {
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
__global__ void cooperative(float *p) { p[blockIdx.x] = 1.0f; } // expect-note {{'cooperative' uses 10 registers per thread}}

void invalid(const float *in, float *out, float *p) {
  copy<<<2, 2048>>>(in, out); // expect-error {{the launch cannot start: a block of 2048 threads exceeds the limit of 1024 threads per block}} [cuda-launch-invalid-config]
  copy<<<dim3(10, 0), 100>>>(in, out); // expect-error {{the launch cannot start: grid dimension y is 0}} [cuda-launch-invalid-config]
  tiled<<<2, 100, 64 * 1024>>>(p); // expect-error {{65536 bytes of dynamic shared memory exceed the default limit}} [cuda-launch-invalid-config]
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(5000), dim3(32), args, 0, 0); // expect-error {{the cooperative launch cannot start on H100 SXM (sm_90, 132 SMs)}} [cuda-launch-invalid-config]
}

void tinyGrid(const float *in, float *out, int n) {
  heavy<<<2, 100>>>(in, out, n); // expect-warning {{block of 100 threads is not a multiple of the warp size (32): 28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%)}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads}}
  copy<<<2, 32>>>(in, out);
  copy<<<128, 32>>>(in, out);
}
