// A static kernel, but launched elsewhere in the file with 384 threads:
// __launch_bounds__(256, 2) would make that launch fail. No fix-it.
// (384 threads of 134 registers: one block per SM either way, no cliff.)
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-occupancy-register-cliff --ptxas-log=%S/ptxas/unsafe-cliff-larger-launch.sm_80.log
#include <cuda_runtime.h>

static __global__ void accumulate(const float *__restrict__ in, float *out, int n) { // expect-note {{'accumulate' uses 134 registers per thread}} expect-note {{to cap the registers: __launch_bounds__(256, 2), __maxnreg__(128) or -maxrregcount=128; if the code needs more, ptxas spills to local memory (kernels forced from 80 and 128 to 64 registers ran 5.5x and 14.8x slower on an H200); no fix-it: the attribute would make the launch at line 27 (384 threads) fail}}
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
  accumulate<<<1000, 384>>>(in, out, n);
}
