// Test input for cuda-launch-tail-wave (analyses/checks/TailWaveCheck.cpp), with a real
// ptxas report (ptxas/launch-tail-wave.sm_90.log): 'scale' uses few registers, so two
// 1024-thread blocks fit per SM; on an H200 (132 SMs) a wave is 264 blocks.
// RUN-ARGS: --gpu=H200 --checks=-*,cuda-launch-tail-wave --ptxas-log=%S/ptxas/launch-tail-wave.sm_90.log
#include <cuda_runtime.h>

__global__ void scale(float *p, float a) { p[blockIdx.x * blockDim.x + threadIdx.x] *= a; } // expect-note 2 {{'scale' uses}}

// A grid-stride kernel spreads its work over whatever grid it gets: the grid
// is a tuning choice, its partial wave not a finding.
__global__ void scaleStrided(float *p, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] *= a;
}
__global__ void scaleStridedVariable(float *p, float a, int n) {
  const int stride = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    p[i] *= a;
    i += stride;
  }
}

// Blocks of unequal work: row r of a causal (lower-triangular) pass walks
// r + 1 values, so the blocks of high rows run longer. Waves of equal length
// do not describe the launch: later blocks take the slots that short blocks
// free, and the imbalance sets the runtime, not the block count.
__global__ void causalRows(float *p, int T) {
  const int row = blockIdx.x;
  float s = 0.0f;
  for (int t = threadIdx.x; t <= row; t += blockDim.x)
    s += p[row * T + t];
  p[row * T + threadIdx.x] = s;
}
// Each block takes its own chunk of 1024 values: the start and the bound
// both read the block, the trip count does not. Equal work, and a tail.
__global__ void chunks(float *p, int n) { // expect-note {{'chunks' uses}}
  for (int i = blockIdx.x * 1024 + threadIdx.x; i < (blockIdx.x + 1) * 1024; i += blockDim.x)
    p[i] *= 2.0f;
}

void positives(float *p) {
  // The seeds' example: 1057 blocks -> 4 full waves and a partial wave (Nsight: up to 20 %).
  scale<<<1057, 1024>>>(p, 2.0f); // expect-warning {{on H200 (sm_90, 132 SMs), the grid of 1057 blocks runs as 4 full waves of 264 blocks and a partial wave of 1 block: the partial wave can cost up to 20.0% of the runtime}} [cuda-launch-tail-wave] expect-note {{1056 or 1320 blocks fill whole waves (2 blocks per SM x 132 SMs)}}
  chunks<<<300, 1024>>>(p, 300 * 1024); // expect-warning {{the grid of 300 blocks runs as 1 full wave of 264 blocks and a partial wave of 36 blocks}} [cuda-launch-tail-wave] expect-note {{264 or 528 blocks fill}}
  scale<<<300, 1024>>>(p, 2.0f); // expect-warning {{runs as 1 full wave of 264 blocks and a partial wave of 36 blocks: the partial wave can cost up to 50.0%}} [cuda-launch-tail-wave] expect-note {{264 or 528 blocks fill whole waves}}
}

void negatives(float *p, int n) {
  scale<<<1056, 1024>>>(p, 2.0f);  // whole waves
  scale<<<100, 1024>>>(p, 2.0f);   // less than one wave: not a tail (see cuda-launch-tiny-grid for grids below the SM count)
  scale<<<10000, 1024>>>(p, 2.0f); // 37 full waves: the partial one costs under 10 %
  scale<<<527, 1024>>>(p, 2.0f);   // 1 full wave + 263 of 264: nearly full
  scale<<<n, 1024>>>(p, 2.0f);     // unknown grid
  scale<<<528, 1024>>>(p, 2.0f);   // a persistent grid: 2 blocks per SM x 132 SMs x 2, whole waves
  scaleStrided<<<1057, 1024>>>(p, 2.0f, n);         // grid-stride: 1057 blocks would be a tail for 'scale'
  scaleStridedVariable<<<300, 1024>>>(p, 2.0f, n);  // grid-stride through a stride variable
  causalRows<<<300, 1024>>>(p, 300);                 // blocks of unequal work: no waves of equal length
}
