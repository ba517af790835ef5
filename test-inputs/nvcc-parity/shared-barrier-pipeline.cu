// libcu++'s block-scope synchronization objects in shared memory, as the
// CUDA programming guide's asynchronous-copy examples declare them: nvcc
// accepts `__shared__ cuda::barrier<cuda::thread_scope_block>` and
// `__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, N>` (it
// warns, #20054-D, unless static_var_with_dynamic_init is suppressed, and
// does not run their constructors); Clang 22 rejects both ("initialization
// is not supported for __shared__ variables": the barrier's destructor has a
// body) and turns every use into a RecoveryExpr. occlint parses the file
// again with those two declarations rewritten (tool/lint/SharedDeclarationOverlay.h):
// the kernels are analysed and their async copies recognised, with the
// ring's depth (NvccParityTest), TMA's cuda::device::memcpy_async_tx included.
// flags: -std=c++17
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <utility>

namespace cg = cooperative_groups;

constexpr int Tile = 256;

__global__ void barrierCopy(const float *in, float *out, int tiles) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[2][Tile];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    cuda::memcpy_async(block, tile[k % 2], in + k * Tile, sizeof(float) * Tile, bar);
    bar.arrive_and_wait();
    sum += tile[k % 2][threadIdx.x];
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void pipelineCopy(const float *in, float *out, int tiles) {
  constexpr int Stages = 2;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  __shared__ float ring[Stages][Tile];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring[k % Stages], in + k * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    sum += ring[k % Stages][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// TMA through libcu++ (sm_90): thread 0 copies a stage with
// cuda::device::memcpy_async_tx and arrives expecting its bytes; the others
// arrive; all wait for the phase.
__global__ void barrierTmaCopy(const float *in, float *out, int tiles) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(128) float ring[2][Tile];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    cuda::barrier<cuda::thread_scope_block>::arrival_token token;
    if (threadIdx.x == 0) {
      cuda::device::memcpy_async_tx(ring[k % 2], in + k * Tile, cuda::aligned_size_t<16>(sizeof(float) * Tile), bar);
      token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(float) * Tile);
    } else {
      token = bar.arrive();
    }
    bar.wait(std::move(token));
    sum += ring[k % 2][threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void launch(const float *in, float *out, int tiles) {
  barrierCopy<<<132, Tile>>>(in, out, tiles);
  pipelineCopy<<<132, Tile>>>(in, out, tiles);
  barrierTmaCopy<<<132, Tile>>>(in, out, tiles);
}
