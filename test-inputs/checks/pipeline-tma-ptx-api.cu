// Test input for TMA copies through libcu++'s cuda::ptx wrappers
// (analyses/pipelines/AsyncOperations.cpp): cuda::ptx::cp_async_bulk from global
// into shared memory fills a two-stage ring (its stages and bytes read, its
// hazards not checked: the remark says why); the same wrapper as a store to
// global memory, or as a copy between the shared memories of a cluster, is
// not a copy of a tile into the ring. The declarations below are our own,
// with the parameter lists of CUDA 13's <cuda/ptx> (space tags first), so
// that the file parses the same way in every mode.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-occupancy-report,cuda-pipeline-*
#include <cuda_runtime.h>
#include <stdint.h>

namespace cuda::ptx {
struct space_global_t {};
struct space_shared_t {};
struct space_cluster_t {};
constexpr space_global_t space_global{};
constexpr space_shared_t space_shared{};
constexpr space_cluster_t space_cluster{};
__device__ void cp_async_bulk(space_cluster_t, space_global_t, void *dstMem, const void *srcMem, const uint32_t &size,
                              uint64_t *smem_bar);
__device__ void cp_async_bulk(space_cluster_t, space_shared_t, void *dstMem, const void *srcMem, const uint32_t &size,
                              uint64_t *rdsmem_bar);
__device__ void cp_async_bulk(space_global_t, space_shared_t, void *dstMem, const void *srcMem, const uint32_t &size);
__device__ uint64_t mbarrier_arrive_expect_tx(space_shared_t, uint64_t *addr, const uint32_t &tx_count);
__device__ bool mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace cuda::ptx

namespace ptx = cuda::ptx;

constexpr int TileFloats = 1024; // 4 KB per stage
constexpr uint32_t TileBytes = TileFloats * 4;

__global__ void ptxApiRing(const float *in, float *out, int tiles) { // expect-note {{'ptxApiRing': registers unknown, 8208 bytes of static shared memory declared}}
  __shared__ alignas(128) float ring[2][TileFloats];
  __shared__ uint64_t full[2];
  const uint32_t bytes = TileBytes;
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int s = k % 2;
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::space_shared, &full[s], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ring[s], in + k * TileFloats, bytes, &full[s]); // expect-remark {{async-copy hazards of 'ptxApiRing' are not checked: the cp.async.bulk (TMA) form's completion (an mbarrier's transaction count) is not modelled}} [cuda-occupancy-report] expect-note {{async-copy pipeline (cp.async.bulk (TMA)): 2 stages of 4096 bytes in 'ring' (2 x 4096 B); blocks per SM by stages on H100 SXM (sm_90, 132 SMs): 1:8 2:8}}
    }
    while (!ptx::mbarrier_try_wait_parity(&full[s], (k / 2) & 1)) {
    }
    sum += ring[s][threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A store of a staged tile to global memory, and a copy into another block's
// shared memory of the cluster: neither fills a ring of this block.
__global__ void ptxApiStores(float *out, uint64_t *remoteBar) { // expect-note {{'ptxApiStores': registers unknown, 4096 bytes of static shared memory declared}}
  __shared__ alignas(128) float staged[TileFloats];
  staged[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  const uint32_t bytes = TileBytes;
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + blockIdx.x * TileFloats, staged, bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_shared, out, staged, bytes, remoteBar);
  }
}

void launch(const float *in, float *out, uint64_t *bar, int tiles) {
  ptxApiRing<<<264, 256>>>(in, out, tiles); // expect-remark {{predicted occupancy of 'ptxApiRing' on H100 SXM (sm_90, 132 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
  ptxApiStores<<<264, 256>>>(out, bar); // expect-remark {{predicted occupancy of 'ptxApiStores' on H100 SXM (sm_90, 132 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
}
