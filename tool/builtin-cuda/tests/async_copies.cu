// Asynchronous copies global -> shared: the cp.async primitives of
// <cuda_pipeline.h> in a double-buffered loop, cuda::memcpy_async with a
// thread-scope cuda::pipeline and with a block-scope barrier / pipeline whose
// state lives in dynamic shared memory, cooperative_groups::memcpy_async with
// cg::wait / cg::wait_prior, and hand-written cp.async inline PTX.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kTile = 256; // threads per block == elements per tile

// 1. __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior:
//    prefetch tile t+1 while tile t is summed.
__global__ void __launch_bounds__(kTile)
tile_sum_primitives(const float4 *__restrict__ in, float *__restrict__ out,
                    int tiles) {
  __shared__ float4 buf[2][kTile];
  const int tid = threadIdx.x;
  const float4 *base = in + (size_t)blockIdx.x * tiles * kTile;
  float acc = 0.0f;
  if (tiles > 0)
    __pipeline_memcpy_async(&buf[0][tid], &base[tid], sizeof(float4));
  __pipeline_commit();
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      __pipeline_memcpy_async(&buf[(t + 1) & 1][tid],
                              &base[(size_t)(t + 1) * kTile + tid],
                              sizeof(float4));
    __pipeline_commit();       // always commit, even an empty batch
    __pipeline_wait_prior(1);  // tile t has landed, t+1 may be in flight
    __syncthreads();
    float4 v = buf[t & 1][(tid + 1) % kTile];
    acc += v.x + v.y + v.z + v.w;
    __syncthreads();           // buffer t&1 is refilled next iteration
  }
  out[blockIdx.x * kTile + tid] = acc;
}

// 2. cuda::memcpy_async into a per-thread pipeline (two stages in flight).
__global__ void __launch_bounds__(kTile)
scale_thread_pipeline(const float *__restrict__ in, float *__restrict__ out,
                      int tiles, float s) {
  __shared__ float stage[2][kTile];
  const int tid = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int fetch = 0;
  for (int use = 0; use < tiles; ++use) {
    for (; fetch < tiles && fetch < use + 2; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[fetch & 1][tid],
                         &in[(size_t)fetch * kTile + tid], sizeof(float), pipe);
      pipe.producer_commit();
    }
    if (use + 1 < tiles)
      cuda::pipeline_consumer_wait_prior<1>(pipe);
    else
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    out[(size_t)use * kTile + tid] = s * stage[use & 1][tid];
    pipe.consumer_release();
  }
}

// 3. cooperative_groups::memcpy_async + cg::wait_prior<1> / cg::wait.
__global__ void __launch_bounds__(kTile)
block_sum_cg(const int *__restrict__ in, int *__restrict__ out, int tiles) {
  __shared__ int buf[2][kTile];
  __shared__ alignas(16) int extra[kTile];
  cg::thread_block block = cg::this_thread_block();
  const int *base = in + (size_t)blockIdx.x * tiles * kTile;
  cg::memcpy_async(block, buf[0], base, sizeof(int) * kTile);
  int sum = 0;
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      cg::memcpy_async(block, buf[(t + 1) & 1], base + (size_t)(t + 1) * kTile,
                       sizeof(int) * kTile);
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    sum += buf[t & 1][(block.thread_rank() + 1) % kTile];
    block.sync();
  }
  // element counts on both sides, then bytes with a promised alignment
  cg::memcpy_async(block, extra, (size_t)kTile, base, (size_t)kTile);
  cg::wait(block);
  sum += extra[kTile - 1 - block.thread_rank()];
  block.sync();
  cg::memcpy_async(block, static_cast<void *>(extra),
                   static_cast<const void *>(base),
                   cuda::aligned_size_t<16>(sizeof(int) * kTile));
  cg::wait(block);
  out[blockIdx.x * kTile + block.thread_rank()] = sum + extra[0];
}

// 4. cuda::barrier and a block-scope cuda::pipeline whose objects live in
//    dynamic shared memory (placement in smem by pointer, no __shared__
//    object of those types).
__global__ void __launch_bounds__(kTile)
copy_with_barrier(const float *__restrict__ in, float *__restrict__ out) {
  extern __shared__ unsigned long long dyn[];
  using block_barrier = cuda::barrier<cuda::thread_scope_block>;
  block_barrier *bar = reinterpret_cast<block_barrier *>(dyn);
  float *tile = reinterpret_cast<float *>(dyn + 1);
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + (size_t)blockIdx.x * kTile,
                     sizeof(float) * kTile, *bar);
  bar->arrive_and_wait();
  out[blockIdx.x * kTile + block.thread_rank()] = 2.0f * tile[block.thread_rank()];
  block_barrier::arrival_token token = bar->arrive();
  bar->wait(static_cast<block_barrier::arrival_token &&>(token));
}

__global__ void __launch_bounds__(kTile)
copy_with_block_pipeline(const float *__restrict__ in, float *__restrict__ out,
                         int tiles) {
  extern __shared__ unsigned long long dyn[];
  using state_t = cuda::pipeline_shared_state<cuda::thread_scope_block, 2>;
  state_t *state = reinterpret_cast<state_t *>(dyn);
  float *stage = reinterpret_cast<float *>(dyn + sizeof(state_t) / 8);
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, state);
  for (int t = 0; t < tiles; ++t) {
    float *dst = stage + (t & 1) * kTile;
    pipe.producer_acquire();
    cuda::memcpy_async(block, dst, in + (size_t)t * kTile,
                       cuda::aligned_size_t<16>(sizeof(float) * kTile), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[(size_t)t * kTile + block.thread_rank()] = dst[block.thread_rank()];
    pipe.consumer_release();
  }
}

// 5. cp.async by hand: 16-byte copies, commit groups, wait for all but one.
__global__ void __launch_bounds__(kTile)
tile_copy_ptx(const int4 *__restrict__ in, int4 *__restrict__ out, int tiles) {
  __shared__ int4 buf[2][kTile];
  const int tid = threadIdx.x;
  for (int t = 0; t < tiles; ++t) {
    const int4 *gptr = in + (size_t)t * kTile + tid;
    unsigned smem_addr =
        static_cast<unsigned>(__cvta_generic_to_shared(&buf[t & 1][tid]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr),
                 "l"(gptr));
    asm volatile("cp.async.commit_group;\n" ::);
    if (t > 0) {
      asm volatile("cp.async.wait_group 1;\n" ::);
      __syncthreads();
      out[(size_t)(t - 1) * kTile + tid] = buf[(t - 1) & 1][(tid + 1) % kTile];
      __syncthreads();
    }
  }
  asm volatile("cp.async.wait_group 0;\n" ::);
}

void launch_all(const float4 *f4, const float *f, const int *i, const int4 *i4,
                float *out, int *iout, int4 *i4out, int blocks, int tiles,
                cudaStream_t stream) {
  tile_sum_primitives<<<blocks, kTile, 0, stream>>>(f4, out, tiles);
  scale_thread_pipeline<<<blocks, kTile, 0, stream>>>(f, out, tiles, 0.5f);
  block_sum_cg<<<blocks, kTile, 0, stream>>>(i, iout, tiles);
  copy_with_barrier<<<blocks, kTile, 8 + kTile * sizeof(float), stream>>>(f, out);
  copy_with_block_pipeline<<<1, kTile, 48 + 2 * kTile * sizeof(float), stream>>>(
      f, out, tiles);
  tile_copy_ptx<<<1, kTile, 0, stream>>>(i4, i4out, tiles);
}
