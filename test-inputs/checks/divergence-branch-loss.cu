// Test input for cuda-divergence-branch's loss estimate (analyses/divergence/BranchLoss.h):
// a split is reported when it leaves at least MinLossPercent (default 2) of the
// kernel's lane-slots idle, and the message says how many.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-divergence-branch
#include <cuda_runtime.h>

// Even and odd lanes with the same heavy work on both paths: each warp runs
// both, half its lanes idle on each: close to half of the kernel's lane-slots.
__global__ void evenOddHeavy(float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 2 == 0) { // expect-warning {{estimated loss: about 4}} [cuda-divergence-branch]
    a[i] = b[i] * b[i] + 1.0f;
    a[i] += sinf(b[i]) * b[i + 1] - b[i + 2];
    a[i] *= cosf(b[i + 3]) + b[i + 4];
  } else {
    a[i] = b[i] * 2.0f - 3.0f;
    a[i] -= cosf(b[i]) * b[i + 1] + b[i + 2];
    a[i] *= sinf(b[i + 3]) - b[i + 4];
  }
}

// One thread writes the block's result after a long loop that every thread
// runs: a few operations in one warp of the block, against 64 trips of the
// loop in all of them: under 1 %, not reported.
__global__ void tailAfterLongLoop(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 64; ++k)
    acc += a[k * n + i] * a[k * n + i + 1] - a[k * n + i + 2];
  __shared__ float partial[256];
  partial[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = partial[0] + partial[1];
    out[blockIdx.x + 1] = partial[2] - partial[3];
  }
}

// One thread of the block runs a serial loop that is most of the kernel: its
// warp runs it with 31 lanes idle, the other warps skip it.
__global__ void serialByOneThread(float *out, const float *a, int n) {
  if (threadIdx.x == 0) { // expect-warning {{one thread of the block takes a different path from all the others on 'threadIdx.x == 0'; each split warp runs both paths one after the other (~2306 operations on one path, ~0 on the other: ~2306 serialized); estimated loss: about 12 % of the kernel's lane-slots idle here}} [cuda-divergence-branch]
    float s = 0.0f;
    for (int k = 0; k < 256; ++k)
      s += a[blockIdx.x * 256 + k] * a[k];
    out[blockIdx.x] = s;
  }
}

// The same split as evenOddHeavy with one store on each side: most of a tiny
// kernel's lane-slots, but fewer operations than MinOperations (10): the
// compiler predicates such paths, and there is nothing to win. Not reported.
__global__ void evenOddTiny(float *a) {
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x] = 1.0f;
  else
    a[threadIdx.x] = 2.0f;
}

// Even and odd lanes again, but one light split in a kernel whose work is a
// long loop both paths share: under the threshold.
__global__ void lightSplitInHeavyKernel(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < 128; ++k)
    acc += a[k * n + i] * a[k * n + i + 1] - a[k * n + i + 2];
  if (i % 2 == 0)
    acc = -acc;
  else
    acc = acc * 0.5f;
  out[i] = acc;
}

void run(float *a, const float *b, float *out, int n) {
  evenOddHeavy<<<n / 256, 256>>>(a, b);
  tailAfterLongLoop<<<n / 256, 256>>>(out, a, n);
  serialByOneThread<<<n / 256, 256>>>(out, a, n);
  evenOddTiny<<<n / 256, 256>>>(a);
  lightSplitInHeavyKernel<<<n / 256, 256>>>(out, a, n);
}
