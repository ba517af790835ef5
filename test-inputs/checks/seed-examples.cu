// The worked examples of the seed lessons (../shared/seeds/occupancy-and-latency-hiding.txt,
// streaming-multiprocessors.txt) as launches on an A100, with the numbers the lessons give.
// Each kernel is held at the register count of its example by __maxnreg__(N) (the real ptxas
// report, ptxas/seed-examples.sm_80.log, shows it used exactly N); the spills this causes
// are not what these examples are about, so cuda-occupancy-spills is off here.
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-*,-cuda-occupancy-spills --ptxas-log=%S/ptxas/seed-examples.sm_80.log
#include <cuda_runtime.h>

#define HEAVY_BODY(N)                                                                                       \
  float acc[N];                                                                                             \
  _Pragma("unroll") for (int j = 0; j < N; ++j) acc[j] = in[threadIdx.x + j];                              \
  for (int i = 0; i < n; ++i) {                                                                             \
    _Pragma("unroll") for (int j = 0; j < N; ++j) acc[j] = acc[j] * in[i] + acc[(j + 1) % N];              \
  }                                                                                                         \
  float s = 0;                                                                                              \
  _Pragma("unroll") for (int j = 0; j < N; ++j) s += acc[j];                                                \
  out[threadIdx.x] = s;

// The lesson's 16-register kernel: ptxas will not go below 24 with __maxnreg__ on sm_80, so
// this is a light kernel instead; examples 3-5 come out the same for any count up to 32.
__global__ void light(const float *in, float *out, int n) { out[threadIdx.x] = in[threadIdx.x] * n; } // expect-note 5 {{'light' uses 10 registers per thread}}
__global__ void __maxnreg__(64) regs64(const float *in, float *out, int n) { HEAVY_BODY(80) } // expect-note {{'regs64' uses 64 registers per thread}}
__global__ void __maxnreg__(128) regs128(const float *in, float *out, int n) { HEAVY_BODY(140) } // expect-note {{'regs128' uses 128 registers per thread}}
__global__ void __maxnreg__(130) regs130(const float *in, float *out, int n) { HEAVY_BODY(140) } // expect-note 2 {{'regs130' uses 130 registers per thread}} expect-note {{to cap the registers: __launch_bounds__(256, 2), __maxnreg__(128)}}
__global__ void __maxnreg__(255) regs255(const float *in, float *out, int n) { HEAVY_BODY(300) } // expect-note {{'regs255' uses 255 registers per thread}}
__global__ void __maxnreg__(32) tile48KB(const float *in, float *out, int n) { // expect-note {{'tile48KB' uses 32 registers per thread, 49152 bytes of static shared memory}}
  __shared__ float tile[12 * 1024]; // 48 KB
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  HEAVY_BODY(48)
  out[threadIdx.x] += tile[(threadIdx.x + 1) % 256];
}

// 10368 blocks = 108 SMs x 96: a whole number of waves for every example (no tail-wave findings).
constexpr int kGrid = 10368;

void examples(const float *in, float *out, int n) {
  // Lesson 1, example 1: 64 registers x 256 threads -> 4 blocks, 50 %, registers bind.
  regs64<<<kGrid, 256>>>(in, out, n); // expect-remark {{'regs64' on A100 80GB (sm_80, 108 SMs): 4 blocks of 256 threads per SM, 32 of 64 warps (50.0% occupancy), limited by registers}}
  // Example 2: 32 registers, 48 KB of shared memory, 256 threads -> 3 blocks, 37.5 %.
  tile48KB<<<kGrid, 256>>>(in, out, n); // expect-remark {{'tile48KB' on A100 80GB (sm_80, 108 SMs): 3 blocks of 256 threads per SM, 24 of 64 warps (37.5% occupancy), limited by shared memory}}
  // Example 3: 32-thread blocks -> the 32-block cap binds: 50 %; 64 threads lift it.
  light<<<kGrid, 32>>>(in, out, n); // expect-warning {{on A100 80GB (sm_80, 108 SMs), blocks of 32 threads hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy; blocks of 64 threads or more lift it}} [cuda-occupancy-block-cap] expect-remark {{32 blocks of 32 threads per SM, 32 of 64 warps (50.0% occupancy), limited by blocks}}
  // Example 4: 16 registers x 128 threads -> 100 %.
  light<<<kGrid, 128>>>(in, out, n); // expect-remark {{16 blocks of 128 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps}}
  // Example 5: 1-thread blocks -> 50 % (a whole warp per block, block cap).
  light<<<kGrid, 1>>>(in, out, n); // expect-warning {{blocks of 1 thread hit the limit of 32 resident blocks per SM before the warp limit: 32 of 64 warps, 50.0% occupancy}} [cuda-occupancy-block-cap] expect-warning {{block of 1 thread is not a multiple of the warp size (32): 31 of the 32 lanes in its 1 warp are masked off (estimated loss 96.88%)}} [cuda-launch-block-not-warp-multiple] expect-remark {{32 blocks of 1 thread per SM, 32 of 64 warps (50.0% occupancy), limited by blocks}} expect-note {{rounding the block up to 32 threads launches 31 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'light' accesses 'out[threadIdx.x]'}}
  // Example 6: 128 registers x 128 threads -> 4 blocks, 25 %.
  regs128<<<kGrid, 128>>>(in, out, n); // expect-remark {{'regs128' on A100 80GB (sm_80, 108 SMs): 4 blocks of 128 threads per SM, 16 of 64 warps (25.0% occupancy), limited by registers}}
  // Lesson 2, example 2: 130 registers x 256 threads -> 12.5 %; at 128, 25 %.
  regs130<<<kGrid, 256>>>(in, out, n); // expect-warning {{'regs130' uses 130 registers per thread, 2 more than fit 2 blocks of 256 threads per SM: 12.5% occupancy, 25.0% with 128 registers}} [cuda-occupancy-register-cliff] expect-remark {{1 block of 256 threads per SM, 8 of 64 warps (12.5% occupancy), limited by registers}}
  // Lesson 2, example 5: 256 (ptxas: at most 255) registers x 512 threads cannot launch.
  // The error is the launch's one finding: its occupancy remark is moot
  // (docs/launch-analysis.md, "One finding per root cause").
  regs255<<<kGrid, 512>>>(in, out, n); // expect-error {{the launch cannot start on A100 80GB (sm_80, 108 SMs): 255 registers x 512 threads need}} [cuda-launch-invalid-config]
}
