// Issue 12's program: correct as written (run() is only called with n a
// multiple of 100), and the kernel has no bound check. The old fix-it on the
// warning rewrote the launch to ramp<<<n / 100, 128>>>: 28% of the writes
// then land past the end of d (tests/tool/lint/SafeFixesTest.cpp shows it
// under AddressSanitizer). Now the note explains, and offers no fix-it.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void ramp(float *d) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  d[i] = 0.5f * i;
}

void run(float *d, int n) {
  ramp<<<n / 100, 100>>>(d); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'ramp' accesses 'd[i]' without a guard 'i < n' (n a parameter) around it}}
}
