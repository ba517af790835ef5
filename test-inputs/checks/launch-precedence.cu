// Test input for the precedence table of the launch and occupancy checks
// (analyses/checks/LaunchFindingPrecedence.h, docs/launch-analysis.md "One
// finding per root cause"), every check enabled but the occupancy remarks:
//   1. an invalid launch gets cuda-launch-invalid-config's error alone;
//   2. a grid with fewer blocks than the SMs gets cuda-launch-tiny-grid, and
//      block-not-warp-multiple's lanes wording, but no per-SM finding;
//   3. a grid of at least one block per SM gets the per-SM findings.
// launch-precedence-tiny-grid-off.cu and launch-precedence-invalid-config-off.cu
// have the same launches with the winning check turned off: the others come back.
// Real ptxas report (ptxas/launch-precedence.sm_90.log): 'heavy' uses 133
// registers per thread, the others 10. H100 SXM: 132 SMs.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-*,cuda-occupancy-*,-cuda-occupancy-report --ptxas-log=%S/ptxas/launch-precedence.sm_90.log
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; } // expect-note {{'copy' uses 10 registers per thread}}

// 133 registers: blocks of 100 threads fit 3 per SM (18.8%), 4 with 128 registers (25.0%).
__global__ void heavy(const float *__restrict__ in, float *out, int n) { // expect-note 2 {{'heavy' uses 133 registers per thread}} expect-note {{to cap the registers: __launch_bounds__(100, 4)}}
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

// 1. Invalid: the error alone. Each launch would have had more findings:
// tiny-grid (2 blocks); block-not-warp-multiple (100 threads); tiny-grid and
// block-not-warp-multiple; block-cap and tail-wave (blocks of 32 threads,
// 5000 blocks in waves of 4224).
void invalid(const float *in, float *out, float *p) {
  copy<<<2, 2048>>>(in, out); // expect-error {{the launch cannot start: a block of 2048 threads exceeds the limit of 1024 threads per block}} [cuda-launch-invalid-config]
  copy<<<dim3(10, 0), 100>>>(in, out); // expect-error {{the launch cannot start: grid dimension y is 0}} [cuda-launch-invalid-config]
  tiled<<<2, 100, 64 * 1024>>>(p); // expect-error {{65536 bytes of dynamic shared memory exceed the default limit}} [cuda-launch-invalid-config]
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(5000), dim3(32), args, 0, 0); // expect-error {{the cooperative launch cannot start on H100 SXM (sm_90, 132 SMs): a grid of 5000 blocks exceeds the 4224 blocks}} [cuda-launch-invalid-config]
}

// 2. Fewer blocks than SMs: each SM holds at most one block, so how many
// blocks per SM the registers or the block cap allow does not matter.
void tinyGrid(const float *in, float *out, int n) {
  heavy<<<2, 100>>>(in, out, n); // expect-warning {{grid of 2 blocks on H100 SXM (sm_90, 132 SMs) leaves 130 of its 132 SMs idle (98.5%)}} [cuda-launch-tiny-grid] expect-warning {{block of 100 threads is not a multiple of the warp size (32): 28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%); the grid puts at most one block on each SM, so the masked lanes are the whole cost: no SM runs short of warp slots}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads}}
  // 'copy' does a fixed amount of work per thread: its 2 blocks cover a
  // small problem, and more blocks would have nothing to do (no tiny grid).
  copy<<<2, 32>>>(in, out);
  // 4 of 132 SMs idle: below tiny-grid's MinIdlePercent, so quiet, and the
  // block cap is still moot (one block per SM).
  copy<<<128, 32>>>(in, out);
}

// 3. At least one block per SM: the per-SM findings, each on its own.
void perSM(const float *in, float *out, int n) {
  heavy<<<1000, 100>>>(in, out, n); // expect-warning {{block of 100 threads is not a multiple of the warp size (32): 28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%)}} [cuda-launch-block-not-warp-multiple] expect-warning {{'heavy' uses 133 registers per thread, 5 more than fit 4 blocks of 100 threads per SM: 18.8% occupancy, 25.0% with 128 registers}} [cuda-occupancy-register-cliff] expect-warning {{the grid of 1000 blocks runs as 2 full waves of 396 blocks and a partial wave of 208 blocks}} [cuda-launch-tail-wave] expect-note {{792 or 1188 blocks fill whole waves}} expect-note {{rounding the block up to 128 threads}}
  copy<<<8192, 32>>>(in, out); // expect-warning {{blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit}} [cuda-occupancy-block-cap]
}
