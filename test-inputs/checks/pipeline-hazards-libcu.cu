// Test input for cuda-pipeline-early-read and cuda-pipeline-buffer-reuse on
// libcu++'s synchronisation objects (analyses/pipelines/AsyncPipelineHazards.cpp,
// docs/async-pipelines.md section 6): rings filled with cuda::memcpy_async
// and completed by a cuda::pipeline (block scope, thread scope, and split
// into producer and consumer warps) or by cuda::barrier phases. Each is
// written correctly (no finding) and broken once: no consumer_wait, a
// consumer_release before the read, more pipeline stages than buffers, a
// neighbour's element read with no barrier, a read between a barrier's
// arrival and its wait, no barrier before a refill, the consumer side of a
// warp-specialised pipeline without its wait or with an early release; and
// a thread-scope pipeline without consumer_release, which is right.
//
// The synchronisation objects live in raw __shared__ storage (as many kernels
// keep them, to avoid running a constructor on shared memory): the same file
// then parses in occlint, in source-only mode and in clang-tidy --load,
// which has no second parse for `__shared__ cuda::barrier<...> bar;`
// (nvcc-parity/shared-barrier-pipeline.cu covers that declaration).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/utility>

namespace cg = cooperative_groups;

constexpr int Tile = 256;
using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;
template <int S> using BlockState = cuda::pipeline_shared_state<cuda::thread_scope_block, S>;

// --- cuda::pipeline, block scope: every thread produces and consumes ---------

// Right (the programming guide's shape): S tiles fetched ahead; each trip
// waits for the oldest stage, reads it, releases it and refills it with the
// tile S ahead. consumer_wait makes the whole stage visible to the block, and
// producer_acquire waits until every thread has released the stage: no
// __syncthreads() is needed.
__global__ void blockPipeline(const float *in, float *out, int tiles) {
  constexpr int S = 2;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes));
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring[s], in + s * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.consumer_wait();
    sum += ring[k % S][(threadIdx.x + 1) % Tile];
    pipe.consumer_release();
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(block, ring[k % S], in + (k + S) * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No consumer_wait: the stage is read while its copy may be in flight.
__global__ void blockPipelineNoWait(const float *in, float *out, int tiles) {
  constexpr int S = 2;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes));
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring[s], in + s * Tile, sizeof(float) * Tile, pipe); // expect-note {{the copy into 'ring' stage 0 in 'blockPipelineNoWait'}}
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    sum += ring[k % S][(threadIdx.x + 1) % Tile]; // expect-warning {{'ring' stage 0 is read while the async copy at line 71 may still be writing it: no consumer_wait covers its stage}} [cuda-pipeline-early-read] expect-note {{fix: the pipeline's consumer_wait() before the read}}
    pipe.consumer_release();
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(block, ring[k % S], in + (k + S) * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The stage released before it is read: once every thread has released it,
// a faster thread may acquire it and refill it under the slower ones' reads.
__global__ void blockPipelineReleaseBeforeRead(const float *in, float *out, int tiles) {
  constexpr int S = 2;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes));
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring[s], in + s * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.consumer_wait();
    pipe.consumer_release(); // expect-note {{fix: consumer_release() after the last read of the stage}}
    sum += ring[k % S][(threadIdx.x + 1) % Tile]; // expect-note {{a read of 'ring' stage 0 in 'blockPipelineReleaseBeforeRead'}}
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(block, ring[k % S], in + (k + S) * Tile, sizeof(float) * Tile, pipe); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 103): the stage is released before that read, so a producer may acquire and refill it}} [cuda-pipeline-buffer-reuse]
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Three pipeline stages over a ring of two buffers: the third tile is
// acquired into the buffer the first is still read from.
__global__ void blockPipelineMoreStagesThanBuffers(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[2][Tile];
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes));
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, ring[s % 2], in + s * Tile, sizeof(float) * Tile, pipe); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 128): the pipeline has 3 stages and the ring 2 buffers, so a producer may acquire the stage while it is read}} [cuda-pipeline-buffer-reuse] expect-note {{fix: as many pipeline stages as buffers in the ring (pipeline_shared_state<..., 2>)}}
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.consumer_wait();
    sum += ring[k % 2][(threadIdx.x + 1) % Tile]; // expect-note {{a read of 'ring' stage 0 in 'blockPipelineMoreStagesThanBuffers'}}
    pipe.consumer_release();
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(block, ring[k % 2], in + (k + S) * Tile, sizeof(float) * Tile, pipe);
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- cuda::pipeline, thread scope: each thread's own copies --------------------

// Right: each thread reads back only the element it copied, so completing its
// own stage is enough.
__global__ void threadPipeline(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ float ring[S][Tile];
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&ring[s][threadIdx.x], in + s * Tile + threadIdx.x, sizeof(float), pipe);
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    cuda::pipeline_consumer_wait_prior<S - 1>(pipe);
    sum += ring[k % S][threadIdx.x];
    pipe.consumer_release();
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(&ring[k % S][threadIdx.x], in + (k + S) * Tile + threadIdx.x, sizeof(float), pipe);
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Right, with no consumer_release at all: in a thread-scope pipeline
// consumer_wait itself moves on to the next batch (libcu++'s consumer_release
// is empty there), so each trip's wait completes that trip's copies; the
// barriers share the tile and fence its refill.
__global__ void threadPipelineNoRelease(const float *in, float *out, int tiles) {
  __shared__ float a[Tile], b[Tile];
  auto pipe = cuda::make_pipeline();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.producer_acquire();
    cuda::memcpy_async(&a[threadIdx.x], in + k * Tile + threadIdx.x, sizeof(float), pipe);
    cuda::memcpy_async(&b[threadIdx.x], in + (k + tiles) * Tile + threadIdx.x, sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += a[i + threadIdx.x % 32] * b[(i + threadIdx.x) % Tile];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A neighbour's element: a thread-scope pipeline completes only the thread's
// own copies, so another thread's needs a block barrier after the wait; and
// with no barrier before the refill, the neighbour may be refilling it.
__global__ void threadPipelineNeighbour(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ float ring[S][Tile];
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < S; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(&ring[s][threadIdx.x], in + s * Tile + threadIdx.x, sizeof(float), pipe); // expect-note {{the copy into 'ring' stage 0 in 'threadPipelineNeighbour'}}
    pipe.producer_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    pipe.consumer_wait(); // expect-note {{fix: a __syncthreads() (or the group's sync) between the wait and the read}}
    sum += ring[k % S][(threadIdx.x + 1) % Tile]; // expect-warning {{'ring' stage 0 is read while the async copy at line 195 may still be writing it: other threads made the copy and no block barrier follows the wait that completes it}} [cuda-pipeline-early-read] expect-note {{a read of 'ring' stage 0 in 'threadPipelineNeighbour'}}
    pipe.consumer_release();
    pipe.producer_acquire();
    if (k + S < tiles)
      cuda::memcpy_async(&ring[k % S][threadIdx.x], in + (k + S) * Tile + threadIdx.x, sizeof(float), pipe); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 201): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    pipe.producer_commit();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- cuda::barrier: a barrier per buffer ------------------------------------

// Right: tile k + 1 is copied on its buffer's barrier while tile k is read;
// arrive_and_wait completes the copies of its phase for the whole block
// (every thread arrives: the barrier counts the block), and the block syncs
// before a buffer is refilled.
__global__ void barrierRing(const float *in, float *out, int tiles) {
  __shared__ alignas(BlockBarrier) unsigned char barrierBytes[2][sizeof(BlockBarrier)];
  __shared__ float ring[2][Tile];
  auto block = cg::this_thread_block();
  BlockBarrier *bars = reinterpret_cast<BlockBarrier *>(barrierBytes);
  if (block.thread_rank() == 0) {
    init(&bars[0], block.size());
    init(&bars[1], block.size());
  }
  block.sync();
  cuda::memcpy_async(block, ring[0], in, sizeof(float) * Tile, bars[0]);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      cuda::memcpy_async(block, ring[(k + 1) % 2], in + (k + 1) * Tile, sizeof(float) * Tile, bars[(k + 1) % 2]);
    bars[k % 2].arrive_and_wait();
    sum += ring[k % 2][(threadIdx.x + 1) % Tile];
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No sync before the refill: tile k + 2 lands in the buffer tile k is read
// from, and the next arrive_and_wait comes after that copy.
__global__ void barrierRingNoSync(const float *in, float *out, int tiles) {
  __shared__ alignas(BlockBarrier) unsigned char barrierBytes[2][sizeof(BlockBarrier)];
  __shared__ float ring[2][Tile];
  auto block = cg::this_thread_block();
  BlockBarrier *bars = reinterpret_cast<BlockBarrier *>(barrierBytes);
  if (block.thread_rank() == 0) {
    init(&bars[0], block.size());
    init(&bars[1], block.size());
  }
  block.sync();
  cuda::memcpy_async(block, ring[0], in, sizeof(float) * Tile, bars[0]);
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      cuda::memcpy_async(block, ring[(k + 1) % 2], in + (k + 1) * Tile, sizeof(float) * Tile, bars[(k + 1) % 2]); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 257): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    bars[k % 2].arrive_and_wait();
    sum += ring[k % 2][(threadIdx.x + 1) % Tile]; // expect-note {{a read of 'ring' stage 0 in 'barrierRingNoSync'}}
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Arrival and wait split around the read: the phase that completes the copy
// has not completed when the tile is read.
__global__ void barrierReadBeforeWait(const float *in, float *out, int tiles) {
  __shared__ alignas(BlockBarrier) unsigned char barrierBytes[2][sizeof(BlockBarrier)];
  __shared__ float ring[2][Tile];
  auto block = cg::this_thread_block();
  BlockBarrier *bars = reinterpret_cast<BlockBarrier *>(barrierBytes);
  if (block.thread_rank() == 0) {
    init(&bars[0], block.size());
    init(&bars[1], block.size());
  }
  block.sync();
  cuda::memcpy_async(block, ring[0], in, sizeof(float) * Tile, bars[0]); // expect-note {{the copy into 'ring' stage 0 in 'barrierReadBeforeWait'}}
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      cuda::memcpy_async(block, ring[(k + 1) % 2], in + (k + 1) * Tile, sizeof(float) * Tile, bars[(k + 1) % 2]);
    auto arrival = bars[k % 2].arrive(); // expect-note {{fix: wait for the barrier phase of the copy (arrive_and_wait(), or wait() on the arrival's token) before the read}}
    sum += ring[k % 2][(threadIdx.x + 1) % Tile]; // expect-warning {{'ring' stage 0 is read while the async copy at line 274 may still be writing it: the barrier phase the copy completes on is not waited for}} [cuda-pipeline-early-read]
    bars[k % 2].wait(cuda::std::move(arrival));
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// --- cuda::pipeline split by role: warp 0 produces, the others consume -------

// Right: the producer warp acquires, copies and commits each stage; the
// consumer warps wait for it, read it and release it. The pipeline's own
// barriers order the two sides.
__global__ void specialised(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const auto role = warp == 0 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes), role);
  float sum = 0.0f;
  if (warp == 0) {
    for (int k = 0; k < tiles; ++k) {
      pipe.producer_acquire();
      for (int i = lane; i < Tile; i += 32)
        cuda::memcpy_async(&ring[k % S][i], in + k * Tile + i, sizeof(float), pipe);
      pipe.producer_commit();
    }
  } else {
    for (int k = 0; k < tiles; ++k) {
      pipe.consumer_wait();
      sum += ring[k % S][threadIdx.x - 32];
      pipe.consumer_release();
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The consumer side without its wait.
__global__ void specialisedNoWait(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const auto role = warp == 0 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes), role);
  float sum = 0.0f;
  if (warp == 0) {
    for (int k = 0; k < tiles; ++k) {
      pipe.producer_acquire();
      for (int i = lane; i < Tile; i += 32)
        cuda::memcpy_async(&ring[k % S][i], in + k * Tile + i, sizeof(float), pipe); // expect-note {{the copy into 'ring' stage 0 in 'specialisedNoWait'}}
      pipe.producer_commit();
    }
  } else {
    for (int k = 0; k < tiles; ++k) {
      sum += ring[k % S][threadIdx.x - 32]; // expect-warning {{'ring' stage 0 is read while the async copy at line 332 may still be writing it: no consumer_wait covers its stage}} [cuda-pipeline-early-read] expect-note {{fix: the pipeline's consumer_wait() before the read}}
      pipe.consumer_release();
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The consumer side releases the stage before it reads it.
__global__ void specialisedEarlyRelease(const float *in, float *out, int tiles) {
  constexpr int S = 3;
  __shared__ alignas(BlockState<S>) unsigned char stateBytes[sizeof(BlockState<S>)];
  __shared__ float ring[S][Tile];
  auto block = cg::this_thread_block();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const auto role = warp == 0 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, reinterpret_cast<BlockState<S> *>(stateBytes), role);
  float sum = 0.0f;
  if (warp == 0) {
    for (int k = 0; k < tiles; ++k) {
      pipe.producer_acquire();
      for (int i = lane; i < Tile; i += 32)
        cuda::memcpy_async(&ring[k % S][i], in + k * Tile + i, sizeof(float), pipe); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 365): the stage is released before that read, so a producer may acquire and refill it}} [cuda-pipeline-buffer-reuse]
      pipe.producer_commit();
    }
  } else {
    for (int k = 0; k < tiles; ++k) {
      pipe.consumer_wait();
      pipe.consumer_release(); // expect-note {{fix: consumer_release() after the last read of the stage}}
      sum += ring[k % S][threadIdx.x - 32]; // expect-note {{a read of 'ring' stage 0 in 'specialisedEarlyRelease'}}
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void launch(const float *in, float *out, int tiles) {
  blockPipeline<<<132, Tile>>>(in, out, tiles);
  blockPipelineNoWait<<<132, Tile>>>(in, out, tiles);
  blockPipelineReleaseBeforeRead<<<132, Tile>>>(in, out, tiles);
  blockPipelineMoreStagesThanBuffers<<<132, Tile>>>(in, out, tiles);
  threadPipeline<<<132, Tile>>>(in, out, tiles);
  threadPipelineNoRelease<<<132, Tile>>>(in, out, tiles);
  threadPipelineNeighbour<<<132, Tile>>>(in, out, tiles);
  barrierRing<<<132, Tile>>>(in, out, tiles);
  barrierRingNoSync<<<132, Tile>>>(in, out, tiles);
  barrierReadBeforeWait<<<132, Tile>>>(in, out, tiles);
  specialised<<<132, Tile + 32>>>(in, out, tiles);
  specialisedNoWait<<<132, Tile + 32>>>(in, out, tiles);
  specialisedEarlyRelease<<<132, Tile + 32>>>(in, out, tiles);
}
