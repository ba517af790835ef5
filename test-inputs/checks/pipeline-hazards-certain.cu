// Test input for the severity of cuda-pipeline-early-read and
// cuda-pipeline-buffer-reuse (docs/checks/cuda-pipeline-early-read.md,
// "Severity"): a hazard found in the steady state of the loop is a warning; a
// launch whose arguments decide every loop and guard the run meets, and whose
// run still reaches the hazard, makes it certain: an error, with a note at
// that launch. A launch whose run never gets there (one tile: no refill)
// adds nothing, nor does one that returns before the pipeline (an early exit
// for short inputs); a tile count known only at run time leaves the warning.
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

// The wait one stage too loose: tile 0 is read while its batch may be in
// flight, in the first trip already.
__global__ void looseWait(const float4 *in, float *out, int tiles) {
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4)); // expect-note {{the copy into 'ring' stage 0 in 'looseWait'}}
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(3); // expect-note {{fix: wait with 2 pending instead of 3}}
    sum += ring[k % 3][threadIdx.x].x; // expect-error {{'ring' stage 0 is read while the async copy at line 18 may still be writing it: the last wait leaves the 3 most recent batches in flight, and the copy is in one of them}} [cuda-pipeline-early-read]
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The same mistake, launched with a tile count only known at run time, behind
// an early exit of the blocks past the data (a condition not known: the run
// goes on past it).
__global__ void looseWaitAnyCount(const float4 *in, float *out, int tiles) {
  if (blockIdx.x * 256 >= tiles * 1024) {
    out[blockIdx.x] = 0.0f;
    return;
  }
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4)); // expect-note {{the copy into 'ring' stage 0 in 'looseWaitAnyCount'}}
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(3); // expect-note {{fix: wait with 2 pending instead of 3}}
    sum += ring[k % 3][threadIdx.x].x; // expect-warning {{'ring' stage 0 is read while the async copy at line 42 may still be writing it}} [cuda-pipeline-early-read]
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No barrier before a stage is refilled with a neighbour's element still to
// be read: from the third tile on (tile 2 refills tile 0's stage). Launched
// with one tile the refill never happens, with three it does: an error
// naming the second launch only.
__global__ void refillNoBarrier(const float *in, float *out, int tiles) {
  __shared__ float ring[2][256];
  __pipeline_memcpy_async(&ring[0][threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&ring[(k + 1) % 2][threadIdx.x], &in[(k + 1) * 256 + threadIdx.x], sizeof(float)); // expect-error {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 71): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    sum += ring[k % 2][(threadIdx.x + 1) % 256]; // expect-note {{a read of 'ring' stage 0 in 'refillNoBarrier'}}
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The same loose wait behind an early return for short inputs: launched with
// two tiles, the kernel returns before any copy, so nothing is certain there.
__global__ void looseWaitReturnsEarly(const float4 *in, float *out, int tiles) {
  if (tiles < 4)
    return;
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4)); // expect-note {{the copy into 'ring' stage 0 in 'looseWaitReturnsEarly'}}
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(3); // expect-note {{fix: wait with 2 pending instead of 3}}
    sum += ring[k % 3][threadIdx.x].x; // expect-warning {{'ring' stage 0 is read while the async copy at line 83 may still be writing it}} [cuda-pipeline-early-read]
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void launch(const float4 *in4, const float *in, float *out, int tiles) {
  looseWait<<<132, 256>>>(in4, out, 8); // expect-note {{certain for this launch: with tiles = 8 the pipelined loop reaches it}}
  looseWaitAnyCount<<<132, 256>>>(in4, out, tiles);
  refillNoBarrier<<<132, 256>>>(in, out, 1);
  refillNoBarrier<<<132, 256>>>(in, out, 3); // expect-note {{certain for this launch: with tiles = 3 the pipelined loop reaches it}}
  looseWaitReturnsEarly<<<132, 256>>>(in4, out, 2);
}
