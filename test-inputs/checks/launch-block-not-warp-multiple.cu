// Test input for cuda-launch-block-not-warp-multiple (analyses/checks/BlockNotWarpMultipleCheck.cpp).
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>

__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }

constexpr int kBlock = 96; // expect-note {{'kBlock' is defined here as 96}}
constexpr dim3 kTile(16, 16);
#define BLOCK_100 100 // expect-note {{'BLOCK_100' expands to 100}}

void positives(float *p) {
  fill<<<10, 100>>>(p); // expect-warning {{block of 100 threads is not a multiple of the warp size (32): 28 of the 128 lanes in its 4 warps are masked off (estimated loss 21.88%)}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'fill' accesses 'p[threadIdx.x]', whose index is not blockIdx.x * blockDim.x + threadIdx.x}}
  fill<<<10, 1>>>(p); // expect-warning {{block of 1 thread is not a multiple of the warp size (32): 31 of the 32 lanes in its 1 warp are masked off (estimated loss 96.88%)}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 32 threads launches 31 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'fill' accesses 'p[threadIdx.x]'}}
  fill<<<10, dim3(10, 10)>>>(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  fill<<<10, kBlock + 4>>>(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  fill<<<10, dim3(7, 3, 2)>>>(p); // expect-warning {{block of 42 threads is not a multiple of the warp size (32): 22 of the 64 lanes in its 2 warps}} [cuda-launch-block-not-warp-multiple]
  fill<<<2, BLOCK_100>>>(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
}

void negatives(float *p, int runtimeBlock) {
  fill<<<1, 100>>>(p); // one block: a deliberate serial launch (the global option IgnoreSingleBlock, default true)
  fill<<<1, 1>>>(p);   // a scalar update
  fill<<<10, 128>>>(p);
  fill<<<10, kBlock>>>(p);
  fill<<<10, kTile>>>(p);
  fill<<<10, dim3(32, 4)>>>(p);
  fill<<<10, dim3(8, 4, 1)>>>(p);
  fill<<<10, runtimeBlock>>>(p); // not known: never guessed
  fill<<<100, 1024>>>(p);
}


// A size dispatcher picks a 4-thread block only for n <= 8, and with it a
// one-block grid: block and grid chosen on the same path are read together
// (the variants pair them), and a one-block grid is a deliberate serial
// step: no finding (issue 47).
__global__ void scaleSmall(float *p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}
static void scaleDispatch(float *p, int n) {
  const int threads = n <= 8 ? 4 : 256;
  const int blocks = n <= 8 ? 1 : (n + 255) / 256;
  scaleSmall<<<blocks, threads>>>(p, n);
}
static void scaleDispatchBranches(float *p, int n) {
  if (n <= 8)
    scaleSmall<<<1, 4>>>(p, n);
  else
    scaleSmall<<<(n + 255) / 256, 256>>>(p, n);
}
void scaleSizes(float *p) {
  scaleDispatch(p, 6);
  scaleDispatch(p, 1 << 20);
  scaleDispatchBranches(p, 6);
  scaleDispatchBranches(p, 1 << 20);
}
