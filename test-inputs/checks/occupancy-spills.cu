// Test input for cuda-occupancy-spills (analyses/checks/SpillsCheck.cpp), with a
// real ptxas report for sm_90 (ptxas/occupancy-spills.sm_90.log, regenerated
// by ptxas/regenerate.sh).
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-occupancy-spills --ptxas-log=%S/ptxas/occupancy-spills.sm_90.log
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

// __launch_bounds__(256, 4) leaves 64 registers per thread on sm_90; the code wants about 130.
__global__ void __launch_bounds__(256, 4) forcedByBounds(const float *in, float *out, int n) { // expect-warning {{'forcedByBounds' spills registers on sm_90 because its register count is forced down to 64 by __launch_bounds__(256, 4), which leaves at most 64 registers per thread}} [cuda-occupancy-spills] expect-note {{the register limit comes from here}}
  HEAVY_BODY(124)
}

// __maxnreg__ caps the registers directly.
__global__ void __maxnreg__(40) forcedByMaxnreg(const float *in, float *out, int n) { // expect-warning {{'forcedByMaxnreg' spills registers on sm_90 because its register count is forced down to 40 by __maxnreg__(40)}} [cuda-occupancy-spills] expect-note {{the register limit comes from here}}
  HEAVY_BODY(64)
}

// __launch_bounds__(128, 1) leaves 512 registers per thread to the register
// file, more than the 255 a thread can address: the bound forces nothing, the
// code spills at the hardware's cap (issue 47's held-out reading: the message
// said 'forced down to 255 by __launch_bounds__(128, 1)').
__global__ void __launch_bounds__(128, 1) spillsAtTheHardwareCap(const float *in, float *out, int n) { // expect-warning {{'spillsAtTheHardwareCap' spills registers on sm_90: }} [cuda-occupancy-spills]
  HEAVY_BODY(300)
}

// Negatives: the same code without a cap does not spill; a light kernel does not either.
__global__ void unconstrained(const float *in, float *out, int n) { HEAVY_BODY(124) }
__global__ void __launch_bounds__(256, 4) light(const float *in, float *out, int n) { HEAVY_BODY(8) }

void launches(const float *in, float *out, int n) {
  forcedByBounds<<<1000, 256>>>(in, out, n);
  forcedByMaxnreg<<<1000, 256>>>(in, out, n);
  unconstrained<<<1000, 256>>>(in, out, n);
  light<<<1000, 256>>>(in, out, n);
  spillsAtTheHardwareCap<<<1000, 128>>>(in, out, n);
}
