// Test input for cuda-pipeline-early-read and cuda-pipeline-buffer-reuse when
// the ring is filled, waited for and read in called functions
// (analyses/pipelines/AsyncPipelineRun.h runs a called function's body with its
// parameters bound to the arguments): a tile loader given the stage's address
// and a cuda::barrier by reference, barriers swapped through pointers, stages
// at offsets into one 1-D buffer, a wait helper. Each right once and broken
// once (no sync before the refill; a wait one stage too loose in the helper).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cuda/barrier>

namespace cg = cooperative_groups;

constexpr int Tile = 512;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

// The whole block copies one tile into dst; the copy completes on bar.
__device__ void loadTile(float *dst, const float *src, BlockBarrier &bar) {
  cuda::memcpy_async(cg::this_thread_block(), dst, src, sizeof(float) * Tile, bar);
}

// Reads the tile: a stage's address handed to a function is a read of it.
__device__ float sumTile(const float *tile) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < Tile; i += blockDim.x)
    s += tile[(i + 1) % Tile];
  return s;
}

// Right: tile k + 1 is loaded into the other half of buf on the back
// barrier while tile k is read after the front barrier's wait; the barriers
// swap through their pointers, and the block syncs before a half is refilled.
__global__ void swappedBarriers(const float *in, float *out, int tiles) {
  __shared__ alignas(BlockBarrier) unsigned char barrierBytes[2][sizeof(BlockBarrier)];
  __shared__ float buf[2 * Tile];
  auto block = cg::this_thread_block();
  BlockBarrier *front = reinterpret_cast<BlockBarrier *>(barrierBytes[0]);
  BlockBarrier *back = reinterpret_cast<BlockBarrier *>(barrierBytes[1]);
  if (block.thread_rank() == 0) {
    init(front, block.size());
    init(back, block.size());
  }
  block.sync();
  int cur = 0;
  loadTile(buf + cur * Tile, in, *front);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    loadTile(buf + (1 - cur) * Tile, in + (k + 1) * Tile, *back);
    front->arrive_and_wait();
    sum += sumTile(buf + cur * Tile);
    cur = 1 - cur;
    BlockBarrier *spent = front;
    front = back;
    back = spent;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No sync at the end of a trip: the next load refills the half that slower
// threads are still summing.
__global__ void swappedBarriersNoSync(const float *in, float *out, int tiles) {
  __shared__ alignas(BlockBarrier) unsigned char barrierBytes[2][sizeof(BlockBarrier)];
  __shared__ float buf[2 * Tile];
  auto block = cg::this_thread_block();
  BlockBarrier *front = reinterpret_cast<BlockBarrier *>(barrierBytes[0]);
  BlockBarrier *back = reinterpret_cast<BlockBarrier *>(barrierBytes[1]);
  if (block.thread_rank() == 0) {
    init(front, block.size());
    init(back, block.size());
  }
  block.sync();
  int cur = 0;
  loadTile(buf + cur * Tile, in, *front);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    loadTile(buf + (1 - cur) * Tile, in + (k + 1) * Tile, *back); // expect-warning {{async copy refills 'buf' stage 0 while other threads may still be reading it (line 81): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    front->arrive_and_wait();
    sum += sumTile(buf + cur * Tile); // expect-note {{a read of 'buf' stage 0 in 'swappedBarriersNoSync'}}
    cur = 1 - cur;
    BlockBarrier *spent = front;
    front = back;
    back = spent;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- the primitives, with the wait in a helper ---------------------------------

__device__ void loadElement(float (*ring)[256], int stage, const float *src) {
  __pipeline_memcpy_async(&ring[stage][threadIdx.x], src + threadIdx.x, sizeof(float));
  __pipeline_commit();
}

template <int Pending> __device__ void waitForTile() {
  __pipeline_wait_prior(Pending);
  __syncthreads();
}

// Right: two tiles ahead in a three-stage ring, the helper waits for all but
// the two most recent batches.
__global__ void helperWait(const float *in, float *out, int tiles) {
  __shared__ float ring[3][256];
  loadElement(ring, 0, in);
  loadElement(ring, 1, in + 256);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    loadElement(ring, (k + 2) % 3, in + (k + 2) * 256);
    waitForTile<2>();
    sum += ring[k % 3][(threadIdx.x + 1) % 256];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The helper instantiated one stage too loose.
__global__ void helperWaitLoose(const float *in, float *out, int tiles) {
  __shared__ float ring[3][256];
  loadElement(ring, 0, in); // expect-note {{the copy into 'ring' stage 0 in 'helperWaitLoose'}}
  loadElement(ring, 1, in + 256);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    loadElement(ring, (k + 2) % 3, in + (k + 2) * 256);
    waitForTile<3>(); // expect-note {{fix: wait with 2 pending instead of 3}}
    sum += ring[k % 3][(threadIdx.x + 1) % 256]; // expect-warning {{'ring' stage 0 is read while the async copy at line 121 may still be writing it: the last wait leaves the 3 most recent batches in flight, and the copy is in one of them}} [cuda-pipeline-early-read]
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A loader that also takes a value: the value is read at the call, here
// before any wait, so in the first trip tile 0 may still be in flight (later
// trips read a tile the previous trip's wait completed).
__device__ float prefetchAndScale(float (*ring)[256], int stage, const float *src, float value) {
  __pipeline_memcpy_async(&ring[stage][threadIdx.x], src + threadIdx.x, sizeof(float));
  __pipeline_commit();
  return 2.0f * value;
}

__global__ void readInAnArgument(const float *in, float *out, int tiles) {
  __shared__ float ring[3][256];
  loadElement(ring, 0, in); // expect-note {{the copy into 'ring' stage 0 in 'readInAnArgument'}}
  loadElement(ring, 1, in + 256);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const float scaled = prefetchAndScale(ring, (k + 2) % 3, in + (k + 2) * 256, ring[k % 3][(threadIdx.x + 1) % 256]); // expect-warning {{'ring' stage 0 is read while the async copy at line 144 may still be writing it: no wait covers its batch}} [cuda-pipeline-early-read] expect-note {{fix: a wait with 1 pending (or fewer) before the read}}
    sum += scaled;
    waitForTile<1>();
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void launch(const float *in, float *out, int tiles) {
  swappedBarriers<<<132, 256>>>(in, out, tiles);
  swappedBarriersNoSync<<<132, 256>>>(in, out, tiles);
  helperWait<<<132, 256>>>(in, out, tiles);
  helperWaitLoose<<<132, 256>>>(in, out, tiles);
  readInAnArgument<<<132, 256>>>(in, out, tiles);
}
