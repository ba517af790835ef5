// Test input for the precedence table (analyses/checks/LaunchFindingPrecedence.h):
// launch-precedence.cu's invalid launches with cuda-launch-invalid-config
// turned off. Its row no longer applies, so the findings it made moot come
// back: tiny-grid, block-not-warp-multiple (in its lanes wording under a tiny
// grid), block-cap and tail-wave. tiny-grid's row still applies.
// Real ptxas report (ptxas/launch-precedence.sm_90.log): every kernel here
// uses 10 registers per thread. H100 SXM: 132 SMs.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-*,cuda-occupancy-*,-cuda-occupancy-report,-cuda-launch-invalid-config --ptxas-log=%S/ptxas/launch-precedence.sm_90.log
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }

extern __shared__ float dynamicTile[];
__global__ void tiled(float *p) { p[threadIdx.x] = dynamicTile[threadIdx.x]; }
__global__ void cooperative(float *p) { p[blockIdx.x] = 1.0f; } // expect-note 2 {{'cooperative' uses 10 registers per thread}}

void invalid(const float *in, float *out, float *p) {
  copy<<<2, 2048>>>(in, out); // expect-warning {{grid of 2 blocks on H100 SXM (sm_90, 132 SMs) leaves 130 of its 132 SMs idle}} [cuda-launch-tiny-grid]
  copy<<<dim3(10, 0), 100>>>(in, out); // expect-warning {{block of 100 threads is not a multiple of the warp size (32): 28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%)}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads}}
  tiled<<<2, 100, 64 * 1024>>>(p); // expect-warning {{grid of 2 blocks on H100 SXM}} [cuda-launch-tiny-grid] expect-warning {{28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%); the grid puts at most one block on each SM}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads}}
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(5000), dim3(32), args, 0, 0); // expect-warning {{blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit}} [cuda-occupancy-block-cap] expect-warning {{the grid of 5000 blocks runs as 1 full wave of 4224 blocks and a partial wave of 776 blocks}} [cuda-launch-tail-wave] expect-note {{4224 or 8448 blocks fill whole waves (32 blocks per SM x 132 SMs)}}
}
