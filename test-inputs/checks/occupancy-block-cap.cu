// Test input for cuda-occupancy-block-cap (analyses/checks/BlockCapCheck.cpp), without a
// ptxas report (registers unknown: the note says what is assumed). The seeds' examples:
// 32-thread blocks on sm_90 -> 32 blocks x 1 warp = 50 %; on an A100 the same.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-occupancy-block-cap
#include <cuda_runtime.h>

__global__ void tiny(float *p) { p[threadIdx.x] = 0.0f; }

void positives(float *p) {
  tiny<<<8192, 32>>>(p); // expect-warning {{on H100 SXM (sm_90, 132 SMs), blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy; blocks of 64 threads or more lift it}} [cuda-occupancy-block-cap] expect-note {{assuming registers do not limit the blocks: true when 'tiny' uses at most 64 registers per thread}}
  tiny<<<8192, 1>>>(p); // expect-warning {{blocks of 1 thread hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy}} [cuda-occupancy-block-cap] expect-note {{assuming registers do not limit}}
}

// 132 SMs x 32 blocks = 4224 blocks resident at once: this grid runs in one wave,
// and bigger blocks could not add warps to it (issue 47). No finding.
void gridFitsOneWave(float *p) { tiny<<<4096, 32>>>(p); }

void gridNotKnown(float *p, int n) {
  tiny<<<n, 32>>>(p); // expect-warning {{blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy; blocks of 64 threads or more lift it; this matters when the grid has more than 4224 blocks}} [cuda-occupancy-block-cap] expect-note {{assuming registers do not limit the blocks}}
}

// A grid its callers give: the launch is read once per caller's value
// (facts/LaunchVariants.h), so a helper called only with small sizes gets
// no finding, and one called with a large size gets the finding for it.
static void launchTiny(float *p, int n) {
  tiny<<<(n + 31) / 32, 32>>>(p); // expect-warning {{blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy; blocks of 64 threads or more lift it}} [cuda-occupancy-block-cap] expect-note {{assuming registers do not limit}}
}
static void launchSmall(float *p, int n) { tiny<<<(n + 31) / 32, 32>>>(p); }
void callers(float *p) {
  launchTiny(p, 1 << 20); // 32768 blocks expect-note {{'launchTiny' is called here with 'n' = 1048576}}
  launchSmall(p, 1000);   // 32 blocks: one wave holds them
}

void negatives(float *p, int block) {
  tiny<<<4096, 64>>>(p);    // 32 blocks x 2 warps = all 64 warps: both limits at once
  tiny<<<4096, 256>>>(p);
  tiny<<<4096, block>>>(p); // unknown block size
}
