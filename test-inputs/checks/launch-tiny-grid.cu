// Test input for cuda-launch-tiny-grid (analyses/checks/TinyGridCheck.cpp).
// H200: 132 SMs. The seeds' example: 40 blocks leave 92 SMs idle (Nsight Compute: 69.7 %).
// RUN-ARGS: --gpu=H200 --checks=-*,cuda-launch-tiny-grid
#include <cuda_runtime.h>

__global__ void stream(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }

constexpr int kBlocks = 40; // expect-note {{'kBlocks' is defined here as 40}}

void positives(const float *in, float *out, bool small) {
  stream<<<40, 256>>>(in, out); // expect-warning {{grid of 40 blocks on H200 (sm_90, 132 SMs) leaves 92 of its 132 SMs idle (69.7%)}} [cuda-launch-tiny-grid]
  stream<<<kBlocks, 256>>>(in, out); // expect-warning {{grid of 40 blocks on H200}} [cuda-launch-tiny-grid]
  stream<<<118, 256>>>(in, out); // expect-warning {{grid of 118 blocks on H200 (sm_90, 132 SMs) leaves 14 of its 132 SMs idle (10.6%)}} [cuda-launch-tiny-grid]
  stream<<<dim3(4, 2), 256>>>(in, out); // expect-warning {{grid of 8 blocks on H200 (sm_90, 132 SMs) leaves 124 of its 132 SMs idle (93.9%)}} [cuda-launch-tiny-grid]
  stream<<<small ? 8 : 64, 256>>>(in, out); // expect-warning {{grid of at most 64 blocks on H200 (sm_90, 132 SMs) leaves at least 68 of its 132 SMs idle (51.5%)}} [cuda-launch-tiny-grid]
  cudaLaunchKernel(stream, dim3(16), dim3(256), nullptr, 0, 0); // expect-warning {{grid of 16 blocks}} [cuda-launch-tiny-grid]
}

void negatives(const float *in, float *out, int n) {
  stream<<<132, 256>>>(in, out);             // one block per SM
  stream<<<1056, 256>>>(in, out);
  stream<<<1, 256>>>(in, out);               // one block: deliberate (IgnoreSingleBlock)
  stream<<<128, 256>>>(in, out);             // 4 of 132 SMs idle (3.0%): below MinIdlePercent (10)
  stream<<<(n + 255) / 256, 256>>>(in, out); // unknown n: never guessed
  stream<<<n < 10 ? n : 500, 256>>>(in, out); // unbounded
}
