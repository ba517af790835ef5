// Test input for TMA (bulk) async copies (analyses/pipelines/AsyncOperations.cpp,
// docs/async-pipelines.md section 2): a ring filled by inline PTX
// cp.async.bulk, by cp.async.bulk.tensor, and by libcu++'s
// cuda::device::memcpy_async_tx, each completing on an mbarrier per stage.
// Their stages and bytes are read as for the other forms (the staircase note
// on each launch); their completion (expect_tx, try_wait.parity, a barrier's
// transaction count) is not modelled, so each kernel gets one remark that its
// hazards are not checked. A kernel whose only bulk copy is a store from
// shared to global memory has no async-copy pipeline at all.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-occupancy-report,cuda-pipeline-*
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cuda/std/utility>
#include <stdint.h>

constexpr int Stages = 3;
constexpr int TileFloats = 2048; // 8 KB per stage
constexpr int TileBytes = TileFloats * 4;

__device__ unsigned sharedAddress(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ void expectBytes(uint64_t *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(bytes)
               : "memory");
}

__device__ bool phaseDone(uint64_t *bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(done)
               : "r"(sharedAddress(bar)), "r"(parity)
               : "memory");
  return done != 0;
}

// Three 8 KB stages; thread 0 issues tile k + 2 while the block computes on tile k.
__global__ void bulkRing(const float *in, float *out, int tiles) { // expect-note {{'bulkRing': registers unknown, 24600 bytes of static shared memory declared}}
  __shared__ alignas(128) float ring[Stages][TileFloats];
  __shared__ alignas(8) uint64_t full[Stages];
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(sharedAddress(&full[s])) : "memory");
  __syncthreads();
  for (int k = 0; k < Stages - 1 && k < tiles; ++k)
    if (threadIdx.x == 0) {
      expectBytes(&full[k], TileBytes);
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"( // expect-remark {{async-copy hazards of 'bulkRing' are not checked: the cp.async.bulk (TMA) form's completion (an mbarrier's transaction count) is not modelled}} [cuda-occupancy-report] expect-note {{async-copy pipeline (cp.async.bulk (TMA)): 3 stages of 8192 bytes in 'ring' (3 x 8192 B); blocks per SM by stages on H100 SXM (sm_90, 132 SMs): 1:8 2:8 3:8 4:6 5:5 6:4 7:3 8:3 9:3 10:2 11:2 12:2 13:2 }}
                       sharedAddress(ring[k])),
                   "l"(in + k * TileFloats), "n"(TileBytes), "r"(sharedAddress(&full[k]))
                   : "memory");
    }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int next = k + Stages - 1, s = k % Stages;
    if (threadIdx.x == 0 && next < tiles) {
      expectBytes(&full[next % Stages], TileBytes);
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                       sharedAddress(ring[next % Stages])),
                   "l"(in + next * TileFloats), "n"(TileBytes), "r"(sharedAddress(&full[next % Stages]))
                   : "memory");
    }
    while (!phaseDone(&full[s], (k / Stages) & 1)) {
    }
    for (int i = threadIdx.x; i < TileFloats; i += blockDim.x)
      sum += ring[s][i] * 0.5f;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Two 16 KB stages of a 64 x 64 tile, filled through a tensor map; the bytes
// of each copy are the map's box (not in the source): the ring still says them.
__global__ void bulkTensorRing(const void *map, float *out, int tiles) { // expect-note {{'bulkTensorRing': registers unknown, 32784 bytes of static shared memory declared}}
  __shared__ alignas(128) float tile[2][64 * 64];
  __shared__ alignas(8) uint64_t full[2];
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(sharedAddress(&full[s])) : "memory");
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int s = k % 2;
    if (threadIdx.x == 0) {
      expectBytes(&full[s], sizeof(tile[0]));
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, " // expect-remark {{async-copy hazards of 'bulkTensorRing' are not checked: the cp.async.bulk (TMA) form's completion (an mbarrier's transaction count) is not modelled}} [cuda-occupancy-report] expect-note {{async-copy pipeline (cp.async.bulk (TMA)): 2 stages of 16384 bytes in 'tile' (2 x 16384 B); blocks per SM by stages on H100 SXM (sm_90, 132 SMs): 1:8 2:6 3:4 4:3 5:2 6:2 7:2 8:1 9:1 10:1 11:1 12:1 13:}}
                   "%3}], [%4];\n" ::"r"(sharedAddress(tile[s])),
                   "l"(map), "r"(0), "r"(k * 64), "r"(sharedAddress(&full[s]))
                   : "memory");
    }
    while (!phaseDone(&full[s], (k / 2) & 1)) {
    }
    sum += tile[s][threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

// libcu++'s wrapper: thread 0 copies a stage and arrives expecting its bytes;
// the others arrive; everyone waits for the phase. The barriers live in raw
// __shared__ storage so that plain Clang parses the file.
__global__ void libcuTmaRing(const float *in, float *out, int tiles) { // expect-note {{'libcuTmaRing': registers unknown, 16400 bytes of static shared memory declared}}
  __shared__ alignas(128) float ring[2][TileFloats];
  __shared__ alignas(BlockBarrier) unsigned char storage[2 * sizeof(BlockBarrier)];
  BlockBarrier *bars = reinterpret_cast<BlockBarrier *>(storage);
  if (threadIdx.x == 0)
    for (int s = 0; s < 2; ++s)
      init(&bars[s], blockDim.x);
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int s = k % 2;
    BlockBarrier::arrival_token token;
    if (threadIdx.x == 0) {
      cuda::device::memcpy_async_tx(ring[s], in + k * TileFloats, cuda::aligned_size_t<16>(TileBytes), bars[s]); // expect-remark {{async-copy hazards of 'libcuTmaRing' are not checked: the cp.async.bulk (TMA) form's completion (an mbarrier's transaction count) is not modelled}} [cuda-occupancy-report] expect-note {{async-copy pipeline (cp.async.bulk (TMA), cuda::barrier): 2 stages of 8192 bytes in 'ring' (2 x 8192 B); blocks per SM by stages on H100 SXM (sm_90, 132 SMs): 1:8 2:8 3:8 4:6 5:5 6:4 7:3 8:3 9:3 10:2 }}
      token = cuda::device::barrier_arrive_tx(bars[s], 1, TileBytes);
    } else {
      token = bars[s].arrive();
    }
    bars[s].wait(cuda::std::move(token));
    sum += ring[s][threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A bulk store from shared to global memory: not a copy into shared memory.
__global__ void bulkStoreOnly(float *out) { // expect-note {{'bulkStoreOnly': registers unknown, 8192 bytes of static shared memory declared}}
  __shared__ alignas(128) float staged[TileFloats];
  for (int i = threadIdx.x; i < TileFloats; i += blockDim.x)
    staged[i] = float(i);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(out + blockIdx.x * TileFloats),
                 "r"(sharedAddress(staged)), "n"(TileBytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  }
}

void launch(const float *in, const void *map, float *out, int tiles) {
  bulkRing<<<264, 256>>>(in, out, tiles); // expect-remark {{predicted occupancy of 'bulkRing' on H100 SXM (sm_90, 132 SMs): at most 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 264 blocks }} [cuda-occupancy-report]
  bulkTensorRing<<<264, 256>>>(map, out, tiles); // expect-remark {{predicted occupancy of 'bulkTensorRing' on H100 SXM (sm_90, 132 SMs): at most 6 blocks of 256 threads per SM, 48 of 64 warps (75.0% occupancy), limited by shared memory (registers unknown); the grid o}} [cuda-occupancy-report]
  libcuTmaRing<<<264, 256>>>(in, out, tiles); // expect-remark {{predicted occupancy of 'libcuTmaRing' on H100 SXM (sm_90, 132 SMs): at most 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 264 blo}} [cuda-occupancy-report]
  bulkStoreOnly<<<264, 256>>>(out); // expect-remark {{predicted occupancy of 'bulkStoreOnly' on H100 SXM (sm_90, 132 SMs): at most 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 264 bl}} [cuda-occupancy-report]
}
