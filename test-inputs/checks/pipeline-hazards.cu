// Test input for cuda-pipeline-early-read and cuda-pipeline-buffer-reuse
// (analyses/checks/PipelineEarlyReadCheck.cpp, PipelineBufferReuseCheck.cpp, on the
// facts of analyses/pipelines/AsyncPipelineHazards.cpp): async-copy rings written correctly
// (no finding) and each one broken once: a wait one stage too loose, no wait,
// no block barrier between the wait and a read of other threads' copies, no
// block barrier before a stage is refilled. Each form: cp.async (cg through
// macros with wait_group N, ca with wait_all), __pipeline_*, cooperative groups.
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

constexpr int Tile = 1024;

#define CP_ASYNC_CG(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

__device__ unsigned sharedAddress(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// --- cp.async, double-buffered --------------------------------------------------

// Right: prologue batch 0; each trip commits the next tile (an empty batch in
// the tail), waits for all but 1, and fences before and after the reads.
__global__ void doubleBuffer(const float *a, float *c, int tiles) {
  __shared__ __align__(16) float As[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t);
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = 1 - cur;
    if (k + 1 < tiles)
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(1);
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32];
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The wait one stage too loose: 2 batches may be pending, tile k's among them.
__global__ void looseWait(const float *a, float *c, int tiles) {
  __shared__ __align__(16) float As[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t); // expect-note {{the copy into 'As' stage 0 in 'looseWait'}}
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = 1 - cur;
    if (k + 1 < tiles)
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(2); // expect-note {{fix: wait with 1 pending instead of 2}}
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32]; // expect-warning {{'As' stage 0 is read while the async copy at line 53 may still be writing it: the last wait leaves the 2 most recent batches in flight, and the copy is in one of them}} [cuda-pipeline-early-read]
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No wait at all.
__global__ void noWait(const float *a, float *c, int tiles) {
  __shared__ __align__(16) float As[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t); // expect-note {{the copy into 'As' stage 0 in 'noWait'}}
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = 1 - cur;
    if (k + 1 < tiles)
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t);
    CP_ASYNC_COMMIT();
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32]; // expect-warning {{'As' stage 0 is read while the async copy at line 74 may still be writing it: no wait covers its batch}} [cuda-pipeline-early-read] expect-note {{fix: a wait with 1 pending (or fewer) before the read}}
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The wait, then reads of other threads' elements with no barrier between.
__global__ void noBarrierAfterWait(const float *a, float *c, int tiles) {
  __shared__ __align__(16) float As[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t); // expect-note {{the copy into 'As' stage 0 in 'noBarrierAfterWait'}}
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = 1 - cur;
    if (k + 1 < tiles)
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(1); // expect-note {{fix: a __syncthreads() (or the group's sync) between the wait and the read}}
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32]; // expect-warning {{'As' stage 0 is read while the async copy at line 94 may still be writing it: other threads made the copy and no block barrier follows the wait that completes it}} [cuda-pipeline-early-read]
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No barrier after the reads: the next trip refills the stage others still read.
__global__ void noBarrierBeforeRefill(const float *a, float *c, int tiles) {
  __shared__ __align__(16) float As[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t);
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = 1 - cur;
    if (k + 1 < tiles)
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t); // expect-warning {{async copy refills 'As' stage 0 while other threads may still be reading it (line 125): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(1);
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32]; // expect-note {{a read of 'As' stage 0 in 'noBarrierBeforeRefill'}}
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- The primitives, three stages, each thread its own elements ----------------

// Right: two batches in the prologue, wait for all but 2; a thread reads only
// what it copied, so no barrier is needed for the data.
__global__ void threeStages(const float4 *in, float *out, int tiles) {
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(2);
    sum += ring[k % 3][threadIdx.x].x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// One stage too loose.
__global__ void threeStagesLoose(const float4 *in, float *out, int tiles) {
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4)); // expect-note {{the copy into 'ring' stage 0 in 'threeStagesLoose'}}
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(3); // expect-note {{fix: wait with 2 pending instead of 3}}
    sum += ring[k % 3][threadIdx.x].x; // expect-warning {{'ring' stage 0 is read while the async copy at line 155 may still be writing it}} [cuda-pipeline-early-read]
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- Cooperative groups, double-buffered (a group's copy: others' elements) -----

// Right: the prefetch of the last trip reloads the last tile, so every trip
// commits one copy and wait_prior<1> always covers tile k; cg::wait_prior
// synchronises the block.
__global__ void groupCopies(const float *in, float *out, int tiles) {
  __shared__ float tile[2][256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile[0], in, sizeof(float) * 256);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int ahead = k + 1 < tiles ? k + 1 : tiles - 1;
    cg::memcpy_async(block, tile[(k + 1) % 2], in + ahead * 256, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    sum += tile[k % 2][threadIdx.x];
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// One stage too loose.
__global__ void groupCopiesLoose(const float *in, float *out, int tiles) {
  __shared__ float tile[2][256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile[0], in, sizeof(float) * 256); // expect-note {{the copy into 'tile' stage 0 in 'groupCopiesLoose'}}
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int ahead = k + 1 < tiles ? k + 1 : tiles - 1;
    cg::memcpy_async(block, tile[(k + 1) % 2], in + ahead * 256, sizeof(float) * 256);
    cg::wait_prior<2>(block); // expect-note {{fix: wait with 1 pending instead of 2}}
    sum += tile[k % 2][threadIdx.x]; // expect-warning {{'tile' stage 0 is read while the async copy at line 193 may still be writing it}} [cuda-pipeline-early-read]
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- cp.async.ca (4-byte copies through L1) and cp.async.wait_all ----------------

// Right: one 4-byte copy per thread into the stage it fills, then wait_all (a
// commit and a wait for every batch), a barrier, the reads, a barrier.
__global__ void waitAll(const float *a, float *c, int tiles) {
  __shared__ float As[2][256];
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sharedAddress(&As[cur][threadIdx.x])),
                 "l"(a + k * 256 + threadIdx.x));
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    sum += As[cur][255 - threadIdx.x];
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The same without the wait_all: the reads may see the copies of trip k unlanded.
__global__ void waitAllDropped(const float *a, float *c, int tiles) {
  __shared__ float As[2][256];
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sharedAddress(&As[cur][threadIdx.x])), // expect-note {{the copy into 'As' stage 0 in 'waitAllDropped'}}
                 "l"(a + k * 256 + threadIdx.x));
    __syncthreads();
    sum += As[cur][255 - threadIdx.x]; // expect-warning {{'As' stage 0 is read while the async copy at line 230 may still be writing it: its batch is not committed}} [cuda-pipeline-early-read] expect-note {{fix: commit the copies, then wait for them before the read}}
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void run(const float *a, float *c, const float4 *in, float *out, int tiles) {
  doubleBuffer<<<432, 256>>>(a, c, tiles);
  looseWait<<<432, 256>>>(a, c, tiles);
  noWait<<<432, 256>>>(a, c, tiles);
  noBarrierAfterWait<<<432, 256>>>(a, c, tiles);
  noBarrierBeforeRefill<<<432, 256>>>(a, c, tiles);
  threeStages<<<432, 256>>>(in, out, tiles);
  threeStagesLoose<<<432, 256>>>(in, out, tiles);
  groupCopies<<<432, 256>>>(a, out, tiles);
  groupCopiesLoose<<<432, 256>>>(a, out, tiles);
  waitAll<<<432, 256>>>(a, c, tiles);
  waitAllDropped<<<432, 256>>>(a, c, tiles);
}
