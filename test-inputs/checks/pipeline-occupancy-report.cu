// Test input for the async-copy pipeline facts (analyses/pipelines/AsyncPipeline.cpp) as
// cuda-occupancy-report shows them: on each launch of a pipelined kernel, a note with the
// ring's depth S, the bytes of one stage and the staircase of blocks per SM over S
// (analyses/gpu/PipelineStaircase.cpp); once per kernel whose ring is not readable, or
// whose hazards are not checked, a remark that says so. No ptxas report: registers unknown (0), shared memory from the
// declarations. Every form here parses with plain Clang (no __shared__ object with a
// constructor), so the clang-tidy plugin sees the same code.
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-occupancy-report
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

constexpr int Tile = 2048; // floats per operand tile: 8 KB, two operands per stage

// cp.async through macros, as hand-tuned kernels write it.
#define CP_ASYNC_CG(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

__device__ unsigned sharedAddress(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// Double-buffered: two stages of As and Bs (2 x 16384 B).
__global__ void doubleBuffered(const float *a, const float *b, float *c, int tiles) { // expect-note {{'doubleBuffered': registers unknown, 32768 bytes of static shared memory declared}}
  __shared__ __align__(16) float As[2][Tile];
  __shared__ __align__(16) float Bs[2][Tile];
  const int t = threadIdx.x * 4;
  CP_ASYNC_CG(sharedAddress(&As[0][t]), a + t); // expect-note {{async-copy pipeline (cp.async): 2 stages of 16384 bytes in 'As', 'Bs' (2 x 16384 B); blocks per SM by stages on A100 80GB (sm_80, 108 SMs): 1:8 2:4 3:3 4:2}}
  CP_ASYNC_CG(sharedAddress(&Bs[0][t]), b + t);
  CP_ASYNC_COMMIT();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int cur = k % 2, next = (k + 1) % 2;
    if (k + 1 < tiles) {
      CP_ASYNC_CG(sharedAddress(&As[next][t]), a + (k + 1) * Tile + t);
      CP_ASYNC_CG(sharedAddress(&Bs[next][t]), b + (k + 1) * Tile + t);
    }
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(1);
    __syncthreads();
    for (int i = 0; i < Tile; i += 32)
      sum += As[cur][i + threadIdx.x % 32] * Bs[cur][i + threadIdx.x % 32];
    __syncthreads();
  }
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Three stages with the pipeline primitives: 3 x 4096 B.
__global__ void threeStages(const float4 *in, float *out, int tiles) { // expect-note {{'threeStages': registers unknown, 12288 bytes of static shared memory declared}}
  __shared__ float4 ring[3][256];
  for (int s = 0; s < 2; ++s) {
    __pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], sizeof(float4)); // expect-note {{async-copy pipeline (__pipeline_memcpy_async): 3 stages of 4096 bytes in 'ring' (3 x 4096 B)}}
    __pipeline_commit();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 2 < tiles)
      __pipeline_memcpy_async(&ring[(k + 2) % 3][threadIdx.x], &in[(k + 2) * 256 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    sum += ring[k % 3][threadIdx.x].x;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// One buffer refilled every trip (pipelines/AsyncPipelineOffsets.h): one stage, the whole
// buffer; its hazards are checked like any ring's (none here), so no remark.
__global__ void oneBuffer(const float *in, float *out, int tiles) { // expect-note {{'oneBuffer': registers unknown, 1024 bytes of static shared memory declared}}
  __shared__ float tile[256];
  auto block = cg::this_thread_block();
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    cg::memcpy_async(block, tile, in + k * 256, sizeof(float) * 256); // expect-note {{async-copy pipeline (cooperative_groups::memcpy_async): 1 stage of 1024 bytes in one stage: 'tile' (1024 B); blocks per SM by stages on A100 80GB (sm_80, 108 SMs): 1:8 2:8}}
    cg::wait(block);
    sum += tile[threadIdx.x];
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// One 2-D tile whose rows the threads fill (As[threadIdx.y][...]): the first
// index depends on the thread, so it is a row, not a stage: one stage of the
// whole tile.
__global__ void tileRows(const float *in, float *out, int tiles) { // expect-note {{'tileRows': registers unknown, 1024 bytes of static shared memory declared}}
  __shared__ float rows[16][16];
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&rows[threadIdx.y][threadIdx.x], &in[k * 256 + threadIdx.y * 16 + threadIdx.x], sizeof(float)); // expect-note {{async-copy pipeline (__pipeline_memcpy_async): 1 stage of 1024 bytes in one stage: 'rows' (1024 B)}}
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    sum += rows[threadIdx.x][threadIdx.y];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = sum;
}

void run(const float *a, const float *b, float *c, const float4 *in, float *out, int tiles) {
  doubleBuffered<<<432, 256>>>(a, b, c, tiles); // expect-remark {{predicted occupancy of 'doubleBuffered' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 256 threads per SM}} [cuda-occupancy-report]
  threeStages<<<432, 256>>>(in, out, tiles); // expect-remark {{predicted occupancy of 'threeStages' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
  oneBuffer<<<432, 256>>>(a, out, tiles); // expect-remark {{predicted occupancy of 'oneBuffer' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
  tileRows<<<432, dim3(16, 16)>>>(a, out, tiles); // expect-remark {{predicted occupancy of 'tileRows' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
}
