// Test input for cuda-launch-tiny-grid (analyses/checks/TinyGridCheck.cpp).
// H200: 132 SMs. The seeds' example: 40 blocks leave 92 SMs idle (Nsight Compute: 69.7 %).
// A small grid is a finding only where more blocks could take a share of the
// kernel's work (facts/GridStrideLoops.h): a grid-stride loop, or threads
// that each loop over an extent the launch passes. A kernel that does a
// fixed amount of work per thread covers its problem with its grid: a small
// grid there is a small problem.
// RUN-ARGS: --gpu=H200 --checks=-*,cuda-launch-tiny-grid
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void stream(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = in[i];
}

// One row per thread, each walking `cols` values.
__global__ void rowSums(const float *in, float *out, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  int c = 0;
  while (c < cols)
    s += in[r * cols + c++];
  out[r] = s;
}

// One element per thread, nothing more.
__global__ void copyOne(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// Rows spread over the grid: a block-stride loop over `rows`.
__global__ void rowsOverGrid(float *p, int rows) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x)
    p[r * blockDim.x + threadIdx.x] = 0.0f;
}

// The same with cooperative groups, and with `i = i + stride` in a while loop.
__global__ void streamGroups(const float *in, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    out[i] = in[i];
}
__global__ void streamWhile(const float *in, float *out, int n) {
  const int stride = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    out[i] = in[i];
    i = i + stride;
  }
}

constexpr int kBlocks = 40; // expect-note {{'kBlocks' is defined here as 40}}

void positives(const float *in, float *out, bool small, int n) {
  stream<<<40, 256>>>(in, out, n); // expect-warning {{grid of 40 blocks on H200 (sm_90, 132 SMs) leaves 92 of its 132 SMs idle (69.7%); 'stream' spreads its work over the grid (grid-stride loop at line 15): more blocks would share it}} [cuda-launch-tiny-grid]
  stream<<<kBlocks, 256>>>(in, out, n); // expect-warning {{grid of 40 blocks on H200}} [cuda-launch-tiny-grid]
  stream<<<118, 256>>>(in, out, n); // expect-warning {{grid of 118 blocks on H200 (sm_90, 132 SMs) leaves 14 of its 132 SMs idle (10.6%)}} [cuda-launch-tiny-grid]
  stream<<<dim3(4, 2), 256>>>(in, out, n); // expect-warning {{grid of 8 blocks on H200 (sm_90, 132 SMs) leaves 124 of its 132 SMs idle (93.9%)}} [cuda-launch-tiny-grid]
  stream<<<small ? 8 : 64, 256>>>(in, out, n); // expect-warning {{grid of at most 64 blocks on H200 (sm_90, 132 SMs) leaves at least 68 of its 132 SMs idle (51.5%)}} [cuda-launch-tiny-grid]
  stream<<<40, 256>>>(in, out, 1 << 24); // expect-warning {{grid of 40 blocks on H200}} [cuda-launch-tiny-grid]
  void *args[] = {&in, &out, &n};
  cudaLaunchKernel(stream, dim3(16), dim3(256), args, 0, 0); // expect-warning {{grid of 16 blocks}} [cuda-launch-tiny-grid]
  rowSums<<<(4096 + 255) / 256, 256>>>(in, out, 4096, n); // expect-warning {{grid of 16 blocks on H200 (sm_90, 132 SMs) leaves 116 of its 132 SMs idle (87.9%); each thread of 'rowSums' loops while 'c < cols' (line 26): more blocks could share that work}} [cuda-launch-tiny-grid]
  streamGroups<<<20, 256>>>(in, out, n); // expect-warning {{grid of 20 blocks on H200 (sm_90, 132 SMs) leaves 112 of its 132 SMs idle (84.8%); 'streamGroups' spreads its work over the grid}} [cuda-launch-tiny-grid]
  streamWhile<<<20, 256>>>(in, out, n); // expect-warning {{'streamWhile' spreads its work over the grid (grid-stride loop at line 53)}} [cuda-launch-tiny-grid]
  rowsOverGrid<<<32, 128>>>(out, n); // expect-warning {{'rowsOverGrid' spreads its work over the grid (grid-stride loop at line 40)}} [cuda-launch-tiny-grid]
}

// A helper its callers give different grids is judged by the largest one:
// the smaller ones are the program's smaller problems.
static void streamSizes(const float *in, float *out, int blocks, int n) { stream<<<blocks, 256>>>(in, out, n); }
static void streamSmall(const float *in, float *out, int blocks, int n) {
  stream<<<blocks, 256>>>(in, out, n); // expect-warning {{grid of at most 64 blocks on H200 (sm_90, 132 SMs) leaves at least 68 of its 132 SMs idle (51.5%)}} [cuda-launch-tiny-grid]
}
void sizes(const float *in, float *out, int n) {
  streamSizes(in, out, 8, n);
  streamSizes(in, out, 4096, n); // the program fills the GPU with this launch: no finding
  streamSmall(in, out, 8, n);
  streamSmall(in, out, 64, n); // expect-note {{'streamSmall' is called here with 'blocks' = 64}}
}

void negatives(const float *in, float *out, int n) {
  stream<<<132, 256>>>(in, out, n);             // one block per SM
  stream<<<1056, 256>>>(in, out, n);
  stream<<<1, 256>>>(in, out, n);               // one block: deliberate (IgnoreSingleBlock)
  stream<<<128, 256>>>(in, out, n);             // 4 of 132 SMs idle (3.0%): below MinIdlePercent (10)
  stream<<<(n + 255) / 256, 256>>>(in, out, n); // unknown n: never guessed
  stream<<<n < 10 ? n : 500, 256>>>(in, out, n); // unbounded
  stream<<<40, 256>>>(in, out, 10240);          // 40 x 256 threads cover the 10240 elements in one pass
  // A fixed amount of work per thread: the grid covers the problem, a
  // small one (one element per thread).
  copyOne<<<(4096 + 255) / 256, 256>>>(in, out, 4096);
  copyOne<<<40, 256>>>(in, out, n);
}
