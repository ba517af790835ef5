// Test input for the precedence table (analyses/checks/LaunchFindingPrecedence.h)
// and cuda-occupancy-report: with cuda-launch-invalid-config enabled, a launch
// that cannot start gets the error alone, not also a "cannot launch" remark
// (occupancy-report.cu has the remark, with invalid-config off). A valid launch
// keeps its remark, tiny grid or not.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-invalid-config,cuda-occupancy-report
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; } // expect-note {{'copy': registers unknown}}

extern __shared__ float dynamicTile[];
__global__ void tiled(float *p) { p[threadIdx.x] = dynamicTile[threadIdx.x]; }

void launches(const float *in, float *out, float *p) {
  copy<<<2, 2048>>>(in, out); // expect-error {{a block of 2048 threads exceeds the limit of 1024 threads per block}} [cuda-launch-invalid-config]
  tiled<<<2, 128, 64 * 1024>>>(p); // expect-error {{65536 bytes of dynamic shared memory exceed the default limit}} [cuda-launch-invalid-config]
  copy<<<2, 128>>>(in, out); // expect-remark {{predicted occupancy of 'copy' on H100 SXM (sm_90, 132 SMs): at most}} [cuda-occupancy-report]
}
