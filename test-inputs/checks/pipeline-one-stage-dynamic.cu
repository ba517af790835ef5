// Test input for a one-stage async-copy ring in dynamic shared memory whose
// declaration has no size (`extern __shared__ float tile[][32]`): the stage is the
// whole buffer for the hazard checks, and its bytes are what one trip's copies span
// for the block of every launch (pipelines/AsyncPipelineOffsets.h, oneStageSpan;
// facts/TranslationUnitFacts.cpp, sizeOneStageRings): 64 rows of 128 B here, and
// 64 padded rows of 144 B in `padded` (the padding counts: the stage holds whole rows).
// Each trip of `oneStage` copies 2 x 16 B per thread (256 threads: 8 KB), waits,
// computes on the tile and refills it after a barrier: nothing overlaps the
// load, and a second 8 KB stage costs no resident block, so
// cuda-occupancy-pipeline-depth says so (case a). Then broken once each; then
// rings whose bytes cannot be read (launches that disagree on the block, a copy
// under a thread condition): no depth finding (tests/tool/outputs/JsonFormatTest.cpp
// holds the facts and the reasons).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*,cuda-occupancy-pipeline-depth
#include <cuda_runtime.h>

#define CP_ASYNC_CG(dst, src, bytes) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

constexpr int Rows = 64;  // 64 rows of 32 floats: 8 KB
constexpr int Copies = 2; // 16-byte copies per thread per trip

extern __shared__ __align__(16) float tile[][32];

// Right: copy, wait, barrier, compute, barrier before the next trip's copies.
__global__ void oneStage(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    for (int c = 0; c < Copies; ++c)
      CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&tile[row + c * 32][column])), in + (k * Rows + row + c * 32) * 32 + column, 16); // expect-note {{the copy into the single stage; fix: copy the next tile into a second stage before computing on this one, and wait for it one tile later}}
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < Rows; ++r)
      sum += tile[r][threadIdx.x % 32] * 0.5f;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No barrier after the reads: the next trip refills the stage while other
// threads may still read it.
__global__ void oneStageNoBarrierBeforeRefill(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    for (int c = 0; c < Copies; ++c)
      CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&tile[row + c * 32][column])), in + (k * Rows + row + c * 32) * 32 + column, 16); // expect-warning {{async copy refills 'tile' stage 0 while other threads may still be reading it (line 56): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}} expect-note {{the copy into the single stage}}
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < Rows; ++r)
      sum += tile[r][threadIdx.x % 32]; // expect-note {{a read of 'tile' stage 0 in 'oneStageNoBarrierBeforeRefill'}}
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No wait: the reads may run before the copies land.
__global__ void oneStageNoWait(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    for (int c = 0; c < Copies; ++c)
      CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&tile[row + c * 32][column])), in + (k * Rows + row + c * 32) * 32 + column, 16); // expect-note {{the copy into 'tile' stage 0 in 'oneStageNoWait'}}
    CP_ASYNC_COMMIT();
    __syncthreads();
    for (int r = 0; r < Rows; ++r)
      sum += tile[r][threadIdx.x % 32]; // expect-warning {{'tile' stage 0 is read while the async copy at line 67 may still be writing it: no wait covers its batch}} [cuda-pipeline-early-read] expect-note {{fix: a wait with 0 pending (or fewer) before the read}}
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Rows padded to 36 floats (144 B) against bank conflicts: 64 rows span 9,216 B.
extern __shared__ __align__(16) float padded[][36];

__global__ void oneStagePaddedRows(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    for (int c = 0; c < Copies; ++c)
      CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&padded[row + c * 32][column])), in + (k * Rows + row + c * 32) * 32 + column, 16); // expect-note {{the copy into the single stage}}
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < Rows; ++r)
      sum += padded[r][threadIdx.x % 32];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Rows of 64 B with the 16-byte chunks swizzled against bank conflicts, as
// tensor-core kernels lay out their tiles: the chunk of a copy is
// ((lane % 4 + (row % 8) / 2) % 4), in [0, 3] whatever the row (interval
// arithmetic, KernelLocals::range), so 64 rows span 4,096 B. (No depth finding:
// the address conversion between two copies counts as work they overlap.)
extern __shared__ __align__(16) float swizzled[][16];

__global__ void oneStageSwizzled(const float *in, float *out, int tiles) {
  const int lane = threadIdx.x % 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    for (int c = 0; c < 2; ++c) {
      const int row = threadIdx.x / 4 % 32 + c * 32;
      const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(&swizzled[row][0])) + ((lane + (row % 8) / 2) % 4) * 16;
      CP_ASYNC_CG(address, in + (k * 64 + row) * 16 + lane * 4, 16);
    }
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < 64; ++r)
      sum += swizzled[r][threadIdx.x % 16];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Half the threads copy: the offset run does not follow a thread condition.
__global__ void oneStageHalfTheThreads(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (threadIdx.x < 128)
      CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&tile[row][column])), in + (k * Rows + row) * 32 + column, 16);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < Rows / 2; ++r)
      sum += tile[r][threadIdx.x % 32];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Launched with two block sizes: the stage's bytes differ between them.
__global__ void oneStageTwoBlocks(const float *in, float *out, int tiles) {
  const int row = threadIdx.x / 8, column = (threadIdx.x % 8) * 4;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    CP_ASYNC_CG(static_cast<unsigned>(__cvta_generic_to_shared(&tile[row][column])), in + (k * Rows + row) * 32 + column, 16);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(0);
    __syncthreads();
    for (int r = 0; r < Rows / 2; ++r)
      sum += tile[r][threadIdx.x % 32];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void launch(const float *in, float *out, int tiles) {
  const int blocks = 864;
  oneStage<<<blocks, 256, 8192>>>(in, out, tiles); // expect-warning {{'oneStage' waits for each async copy before it computes: with 1 stage of 8192 bytes nothing overlaps the load, and a second stage fits on A100 80GB (sm_80, 108 SMs) without losing a resident block (8 per SM at 1 and at 2 stages)}} [cuda-occupancy-pipeline-depth]
  oneStageNoBarrierBeforeRefill<<<blocks, 256, 8192>>>(in, out, tiles); // expect-warning {{'oneStageNoBarrierBeforeRefill' waits for each async copy before it computes: with 1 stage of 8192 bytes}} [cuda-occupancy-pipeline-depth]
  oneStageNoWait<<<blocks, 256, 8192>>>(in, out, tiles);
  oneStagePaddedRows<<<blocks, 256, 9216>>>(in, out, tiles); // expect-warning {{'oneStagePaddedRows' waits for each async copy before it computes: with 1 stage of 9216 bytes nothing overlaps the load}} [cuda-occupancy-pipeline-depth]
  oneStageSwizzled<<<blocks, 128, 4096>>>(in, out, tiles);
  oneStageHalfTheThreads<<<blocks, 256, 4096>>>(in, out, tiles);
  oneStageTwoBlocks<<<blocks, 256, 4096>>>(in, out, tiles);
  oneStageTwoBlocks<<<blocks, 128, 4096>>>(in, out, tiles);
}
