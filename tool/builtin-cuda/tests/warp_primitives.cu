// Warp-level primitives: shuffles, votes, match, redux, __syncwarp,
// __ldg, the atomic family, warpSize.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ __forceinline__ int warp_max_xor(int v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v = max(v, __shfl_xor_sync(0xffffffffu, v, mask));
  return v;
}

__global__ void __launch_bounds__(128, 4)
warp_stats(const float *in, float *sums, int *maxes, unsigned *votes,
           unsigned *counters, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  float v = i < n ? __ldg(&in[i]) : 0.0f;
  float s = warp_sum(v);
  int m = warp_max_xor(static_cast<int>(v));
  unsigned active = __activemask();
  unsigned ballot = __ballot_sync(active, v > 0.5f);
  int anyNeg = __any_sync(active, v < 0.0f);
  int allPos = __all_sync(active, v > 0.0f);
  unsigned peers = __match_any_sync(active, static_cast<int>(v));
  __syncwarp();
  float first = __shfl_sync(0xffffffffu, v, 0);
  float prev = __shfl_up_sync(0xffffffffu, v, 1);
#if __CUDA_ARCH__ >= 800
  unsigned total = __reduce_add_sync(0xffffffffu, static_cast<unsigned>(m));
  int lo = __reduce_min_sync(0xffffffffu, m);
#else
  unsigned total = 0;
  int lo = 0;
#endif
  if (lane == 0) {
    atomicAdd(&sums[blockIdx.x], s + first - prev);
    atomicMax(&maxes[0], m);
    atomicMin(&maxes[1], lo);
    atomicOr(&votes[0], ballot);
    atomicAnd(&votes[1], peers);
    atomicXor(&votes[2], static_cast<unsigned>(anyNeg + allPos));
    atomicExch(&counters[0], total);
    atomicInc(&counters[1], 1024u);
    atomicDec(&counters[2], 1024u);
    atomicSub(&counters[3], 1u);
    unsigned old = counters[4];
    while (atomicCAS(&counters[4], old, old + 1) != old) old = counters[4];
  }
}

void launch_warp_stats(const float *in, float *sums, int *maxes,
                       unsigned *votes, unsigned *counters, int n,
                       cudaStream_t s) {
  warp_stats<<<(n + 127) / 128, 128, 0, s>>>(in, sums, maxes, votes, counters,
                                            n);
}
