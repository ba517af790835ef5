// A static kernel whose only launch has 256 threads: the note's fix-it
// inserts __launch_bounds__(256, 2) (applied with --fix-notes, never --fix).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-occupancy-register-cliff --ptxas-log=%S/ptxas/safe-cliff-static.sm_80.log
#include <cuda_runtime.h>

static __global__ void accumulate(const float *__restrict__ in, float *out, int n) { // expect-note {{'accumulate' uses 134 registers per thread}} expect-note {{to cap the registers: __launch_bounds__(256, 2), __maxnreg__(128) or -maxrregcount=128; if the code needs more, ptxas spills to local memory (kernels forced from 80 and 128 to 64 registers ran 5.5x and 14.8x slower on an H200); the fix-it inserts __launch_bounds__(256, 2): 'accumulate' is internal to this file and no launch of it has more than 256 threads}}
  constexpr int N = 124;
  float acc[N];
#pragma unroll
  for (int j = 0; j < N; ++j)
    acc[j] = in[threadIdx.x + j];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc[j] = acc[j] * in[i] + acc[(j + 1) % N];
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < N; ++j)
    s += acc[j];
  out[threadIdx.x] = s;
}

void run(const float *in, float *out, int n) {
  accumulate<<<1000, 256>>>(in, out, n); // expect-warning {{'accumulate' uses 134 registers per thread, 6 more than fit 2 blocks of 256 threads per SM}} [cuda-occupancy-register-cliff]
}
