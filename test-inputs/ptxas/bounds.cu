// A kernel whose __launch_bounds__ asks for more threads per SM than any GPU
// has (1024 x 4): ptxas warns (C7509) and ignores the minimum-blocks hint.
// Also uses __constant__ memory, so a user constant bank shows up.
#include <cuda_runtime.h>

__constant__ float coeffs[64];

__global__ void __launch_bounds__(1024, 4) tooManyThreads(float *out) {
  float s = 0.f;
  for (int j = 0; j < 64; ++j) s += coeffs[j] * (float)(threadIdx.x + j);
  out[threadIdx.x] = s;
}
