// Test input for cuda-pipeline-early-read and cuda-pipeline-buffer-reuse on a ring at
// computed offsets (analyses/pipelines/AsyncPipelineHazards.cpp, offset rings): three
// stages of 4 KB in extern dynamic shared memory, stage k at ring + k * StageFloats,
// read through an inline PTX shared load and through a helper that takes a stage's
// address. Written correctly (no finding), then broken once each: a wait one stage
// too loose, no block barrier between the wait and the reads, no block barrier
// before a stage is refilled. In such a ring every read counts as a read of other
// threads' copies (docs/checks/cuda-pipeline-early-read.md).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-pipeline-*
#include <cuda_runtime.h>

constexpr int StageFloats = 1024; // 4 KB per stage

#define CP_ASYNC_CG(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

__device__ unsigned sharedAddress(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ float loadShared(unsigned address) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(address));
  return v;
}

__device__ float sumOf(const float *p, int stride) { return p[0] + p[stride] + p[2 * stride]; }

extern __shared__ __align__(16) float ring[];

// Right: two stages in flight ahead of the one read; a barrier after the wait and
// after the reads.
__global__ void offsetRing(const float *in, float *out, int tiles) {
  const int t = threadIdx.x * 4, lane = threadIdx.x % 32;
  for (int s = 0; s < 2; ++s) {
    CP_ASYNC_CG(sharedAddress(ring + s * StageFloats + t), in + s * StageFloats + t);
    CP_ASYNC_COMMIT();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int load = k % 3, store = (k + 2) % 3;
    if (k + 2 < tiles)
      CP_ASYNC_CG(sharedAddress(ring + store * StageFloats + t), in + (k + 2) * StageFloats + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(2);
    __syncthreads();
    float v;
    asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(sharedAddress(ring + load * StageFloats + lane * 8)));
    sum += v + sumOf(ring + load * StageFloats + lane, 32);
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The wait one stage too loose: tile k's batch may still be in flight.
__global__ void offsetRingLoose(const float *in, float *out, int tiles) {
  const int t = threadIdx.x * 4, lane = threadIdx.x % 32;
  for (int s = 0; s < 2; ++s) {
    CP_ASYNC_CG(sharedAddress(ring + s * StageFloats + t), in + s * StageFloats + t); // expect-note {{the copy into 'ring' stage 0 in 'offsetRingLoose'}}
    CP_ASYNC_COMMIT();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int load = k % 3, store = (k + 2) % 3;
    if (k + 2 < tiles)
      CP_ASYNC_CG(sharedAddress(ring + store * StageFloats + t), in + (k + 2) * StageFloats + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(3); // expect-note {{fix: wait with 2 pending instead of 3}}
    __syncthreads();
    float v;
    asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(sharedAddress(ring + load * StageFloats + lane * 8))); // expect-warning {{'ring' stage 0 is read while the async copy at line 59 may still be writing it: the last wait leaves the 3 most recent batches in flight, and the copy is in one of them}} [cuda-pipeline-early-read]
    sum += v;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// The wait, then reads of the stage through a helper with no barrier between.
__global__ void offsetRingNoBarrierAfterWait(const float *in, float *out, int tiles) {
  const int t = threadIdx.x * 4, lane = threadIdx.x % 32;
  for (int s = 0; s < 2; ++s) {
    CP_ASYNC_CG(sharedAddress(ring + s * StageFloats + t), in + s * StageFloats + t); // expect-note {{the copy into 'ring' stage 0 in 'offsetRingNoBarrierAfterWait'}}
    CP_ASYNC_COMMIT();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int load = k % 3, store = (k + 2) % 3;
    if (k + 2 < tiles)
      CP_ASYNC_CG(sharedAddress(ring + store * StageFloats + t), in + (k + 2) * StageFloats + t);
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(2); // expect-note {{fix: a __syncthreads() (or the group's sync) between the wait and the read}}
    sum += sumOf(ring + load * StageFloats + lane, 32); // expect-warning {{'ring' stage 0 is read while the async copy at line 82 may still be writing it: other threads made the copy and no block barrier follows the wait that completes it}} [cuda-pipeline-early-read]
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// No barrier after the reads: the next trip refills the stage read in the trip
// before, which other threads may still be reading (through a load helper given
// the converted address).
__global__ void offsetRingNoBarrierBeforeRefill(const float *in, float *out, int tiles) {
  const int t = threadIdx.x * 4, lane = threadIdx.x % 32;
  for (int s = 0; s < 2; ++s) {
    CP_ASYNC_CG(sharedAddress(ring + s * StageFloats + t), in + s * StageFloats + t);
    CP_ASYNC_COMMIT();
  }
  float sum = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    const int load = k % 3, store = (k + 2) % 3;
    if (k + 2 < tiles)
      CP_ASYNC_CG(sharedAddress(ring + store * StageFloats + t), in + (k + 2) * StageFloats + t); // expect-warning {{async copy refills 'ring' stage 0 while other threads may still be reading it (line 115): other threads read the stage after the last block barrier}} [cuda-pipeline-buffer-reuse] expect-note {{fix: a __syncthreads() after the last read of the stage, before the copy that refills it}}
    CP_ASYNC_COMMIT();
    CP_ASYNC_WAIT(2);
    __syncthreads();
    sum += loadShared(sharedAddress(ring + load * StageFloats + lane * 8)); // expect-note {{a read of 'ring' stage 0 in 'offsetRingNoBarrierBeforeRefill'}}
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void run(const float *in, float *out, int tiles) {
  const size_t Bytes = 3 * StageFloats * sizeof(float);
  offsetRing<<<432, 256, Bytes>>>(in, out, tiles);
  offsetRingLoose<<<432, 256, Bytes>>>(in, out, tiles);
  offsetRingNoBarrierAfterWait<<<432, 256, Bytes>>>(in, out, tiles);
  offsetRingNoBarrierBeforeRefill<<<432, 256, Bytes>>>(in, out, tiles);
}
