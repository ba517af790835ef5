// Test input for the precedence table (analyses/checks/LaunchFindingPrecedence.h):
// launch-precedence.cu's invalid launches with cuda-launch-invalid-config
// turned off. Rank 1 applies all the same: a launch that cannot start gets no
// other launch or occupancy finding (issue 44: a tiny grid on a 2048-thread
// block is not worth acting on). Every launch below cannot start, so nothing
// is reported; the same launches with invalid-config on give its errors alone
// (launch-precedence.cu).
// Real ptxas report (ptxas/launch-precedence.sm_90.log): every kernel here
// uses 10 registers per thread. H100 SXM: 132 SMs.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-*,cuda-occupancy-*,-cuda-occupancy-report,-cuda-launch-invalid-config --ptxas-log=%S/ptxas/launch-precedence.sm_90.log
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }

extern __shared__ float dynamicTile[];
__global__ void tiled(float *p) { p[threadIdx.x] = dynamicTile[threadIdx.x]; }
__global__ void cooperative(float *p) { p[blockIdx.x] = 1.0f; }

void invalid(const float *in, float *out, float *p) {
  copy<<<2, 2048>>>(in, out);          // over 1024 threads
  copy<<<dim3(10, 0), 100>>>(in, out); // a zero dimension
  tiled<<<2, 100, 64 * 1024>>>(p);     // 64 KB of dynamic shared memory without the opt-in
  void *args[] = {&p};
  cudaLaunchCooperativeKernel(cooperative, dim3(5000), dim3(32), args, 0, 0); // not co-resident
}

// A launch that can start keeps its findings with invalid-config off (no
// tiny grid: 'copy' does a fixed amount of work per thread, so its 2 blocks
// cover a small problem).
void valid(const float *in, float *out) {
  copy<<<2, 100>>>(in, out); // expect-warning {{28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%); the grid puts at most one block on each SM}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads}}
}
