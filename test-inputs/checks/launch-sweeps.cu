// Test input for sweeps (docs/launch-analysis.md, "Guards, helpers and
// variants"): a launch whose block is an element of a constant array a loop
// walks, the way a benchmark tries each block size in turn. Each element is a
// variant of its own and a deliberate choice: the checks that judge the block
// leave it; cuda-launch-tiny-grid judges a swept grid once, by its largest
// element. A block that is not swept is still judged.
// RUN-ARGS: --gpu=H200 --checks=-*,cuda-launch-tiny-grid,cuda-launch-block-not-warp-multiple,cuda-occupancy-block-cap
#include <cuda_runtime.h>

__global__ void scale(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }

// One thread per channel, each walking the channel's `length` values: more
// blocks could share that work (cuda-launch-tiny-grid).
__global__ void channelSums(const float *p, float *sums, int channels, int length) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= channels)
    return;
  float s = 0.0f;
  for (int i = 0; i < length; ++i)
    s += p[c * length + i];
  sums[c] = s;
}

static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

// 768 channels: even the smallest block (32) gives only 24 blocks on 132 SMs.
// One finding for the sweep, at its largest grid; none for 48 threads (not a
// warp multiple) or for 32 (block-capped): both are tried on purpose.
void channelsOnly(const float *p, float *sums, int length) {
  const int sizes[] = {32, 48, 256, 1024}; // expect-note {{'sizes[j]' is one of the 4 values 32 to 1024 of 'sizes', defined here}}
  for (int j = 0; j < 4; j++) {
    const int block = sizes[j]; // expect-note {{'block' is defined here as 32}} expect-note {{'sizes[j]' is 32 in this variant (one of 4 values)}}
    channelSums<<<ceilDiv(768, block), block>>>(p, sums, 768, length); // expect-warning {{grid of at most 24 blocks on H200 (sm_90, 132 SMs) leaves at least 108 of its 132 SMs idle (81.8%); each thread of 'channelSums' loops while 'i < length' (line 19): more blocks could share that work}} [cuda-launch-tiny-grid] expect-note {{'ceilDiv' returns 24 here}}
  }
}

// 65536 elements: the sweep's largest grid (2048 blocks of 32) fills every
// SM, so the 64 blocks of 1024 threads are the choice, not the problem; and
// blocks of 32 threads, capped at 32 resident blocks (half the warps), are
// tried on purpose: no finding.
void manyElements(float *p) {
  const int sizes[] = {32, 1024};
  for (int j = 0; j < 2; j++)
    scale<<<ceilDiv(65536, sizes[j]), sizes[j]>>>(p);
}

// A swept grid with a block that is not swept: the block is still judged
// (once for the launch).
void sweptGridFixedBlock(float *p) {
  const int grids[] = {264, 528};
  for (int j = 0; j < 2; j++)
    scale<<<grids[j], 100>>>(p); // expect-warning {{block of 100 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block}}
}
