// The bundled example: a few launches with the problems occlint finds.
#include <cuda_runtime.h>

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

constexpr int kThreads = 100; // not a multiple of 32: the 4th warp runs 4 of 32 lanes

void run(float *data, int n) {
  scale<<<(n + kThreads - 1) / kThreads, kThreads>>>(data, 2.0f, n);
  scale<<<n, 1>>>(data, 0.5f, n); // one thread per block: 31 of 32 lanes idle
  scale<<<(n + 255) / 256, 256>>>(data, 1.0f, n);
}
