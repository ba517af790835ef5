// Test input for cuda-divergence-warp-sync-mask (analyses/checks/DivergenceWarpSyncMaskCheck.cpp).
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-divergence-warp-sync-mask
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffff

// ---- positives -------------------------------------------------------------

__global__ void shuffleUnderLaneBranch(float *p) {
  float v = p[threadIdx.x];
  unsigned lane = threadIdx.x % 32;
  if (lane < 16) { // expect-note {{the branch on 'lane < 16' depends on the thread: lanes 0-15 and lanes 16-31 take different paths}}
    v += __shfl_down_sync(0xffffffff, v, 8); // expect-error {{'__shfl_down_sync' with the full mask 0xffffffff is reached by only some lanes of the warp}} [cuda-divergence-warp-sync-mask]
  }
  p[threadIdx.x] = v;
}

__global__ void ballotUnderData(const int *in, unsigned *out) {
  int x = in[threadIdx.x];
  if (x != 0) // expect-note {{the branch on 'x != 0' depends on the thread}}
    out[threadIdx.x] = __ballot_sync(FULL_MASK, x > 5); // expect-error {{'__ballot_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
}

// A boundary guard splits the warp that holds n, when n is not a multiple
// of 32: its lanes past n never arrive. Conditional on the size: a warning.
__global__ void shuffleUnderBoundary(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { // expect-note {{the branch on 'i < n' depends on the thread: threads on either side of the bound take different paths}}
    float v = p[i];
    v += __shfl_xor_sync(0xffffffff, v, 1); // expect-warning {{'__shfl_xor_sync' with the full mask 0xffffffff is reached only by the lanes on one side of a bound ('i < n')}} [cuda-divergence-warp-sync-mask]
    p[i] = v;
  }
}

// The odd lanes have exited: the guide asks __syncwarp only of the
// non-exited lanes of its mask (quiet unless ReportExitedThreads is on).
__global__ void syncwarpAfterOddReturn(float *p) {
  if (threadIdx.x & 1)
    return;
  p[threadIdx.x] = 1.0f;
  __syncwarp(0xffffffff);
  __syncwarp(0x55555555); // a mask of the even lanes: what arrives
}

// A shuffle after the same return still reads from exited lanes: undefined.
__global__ void shuffleAfterOddReturn(float *p) {
  if (threadIdx.x & 1) // expect-note {{threads for which 'threadIdx.x & 1' holds return here early}}
    return;
  float v = p[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1); // expect-error {{'__shfl_xor_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
  p[threadIdx.x] = v;
}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o); // expect-error {{'__shfl_down_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
  return v;
}
__global__ void helperUnderLane0(float *p) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == 0) // expect-note {{the branch on 'lane == 0' depends on the thread: lane 0 takes a different path from the other 31 lanes}}
    p[blockIdx.x] = warpSum(p[threadIdx.x]); // expect-note {{reached through this call}}
}

__global__ void matchAndReduce(const unsigned *keys, unsigned *out) {
  unsigned k = keys[threadIdx.x];
  if (k > 100) { // expect-note 2 {{the branch on 'k > 100' depends on the thread}}
    out[threadIdx.x] = __match_any_sync(0xffffffff, k); // expect-error {{'__match_any_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
    out[0] = __reduce_add_sync(0xffffffff, k); // expect-error {{'__reduce_add_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
  }
}

__global__ void tileCollective(float *p) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = p[threadIdx.x];
  if (tile.thread_rank() < 8) // expect-note {{the branch on 'tile.thread_rank() < 8' depends on the thread: lanes 0-7 and lanes 8-31 take different paths}}
    v = tile.shfl_down(v, 1); // expect-error {{'tile.shfl_down()' is reached by only some threads of its tile of 32}} [cuda-divergence-warp-sync-mask]
  p[threadIdx.x] = v;
}

// ---- negatives -------------------------------------------------------------

// Warp-uniform branches: every lane of a warp takes the same path.
__global__ void warpUniform(float *p, int n) {
  float v = p[threadIdx.x];
  unsigned warp = threadIdx.x / 32;
  if (warp == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  if (threadIdx.x < 64)
    v += __shfl_down_sync(0xffffffff, v, 1);
  if ((threadIdx.x & ~31) == 32)
    v += __shfl_xor_sync(0xffffffff, v, 2);
  if ((threadIdx.x >> 5) == 2)
    v = __shfl_up_sync(0xffffffff, v, 1);
  if (__any_sync(0xffffffff, v > 0.0f)) // a vote is the same in every lane
    v = __shfl_sync(0xffffffff, v, 3);
  unsigned b = __ballot_sync(0xffffffff, v > 1.0f);
  if (b & 1u)
    v += __shfl_down_sync(0xffffffff, v, 4);
  float first = __shfl_sync(0xffffffff, v, 0); // a broadcast from a uniform lane
  if (first > 0.0f)
    v += __shfl_down_sync(0xffffffff, v, 8);
  if (n > 3)
    v = __shfl_sync(0xffffffff, v, 1);
  p[threadIdx.x] = v;
}

// Under a lane-dependent branch with the right partial mask, or __activemask().
__global__ void partialMasks(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_down_sync(0x0000ffff, v, 8);
    v += __shfl_down_sync(__activemask(), v, 4);
  }
  p[threadIdx.x] = v;
}

// threadIdx.y is warp-uniform when blockDim.x is a multiple of 32.
__global__ void rows(float *p) {
  float v = p[threadIdx.y * 32 + threadIdx.x];
  if (threadIdx.y == 1)
    v = __shfl_sync(0xffffffff, v, 0);
  p[threadIdx.y * 32 + threadIdx.x] = v;
}

void launch(float *p) { rows<<<1, dim3(32, 8)>>>(p); }

// A 4x4x8 block: the hand-linearised warp number (x + 4 (y + 4 z)) / 32 is
// the same in a warp (z spans two slices per warp), so a scan by warp 0
// reaches its shuffles with every lane of that warp.
__global__ void scanByWarpZero(unsigned *p, unsigned *sums) {
  const unsigned linear = threadIdx.x + 4 * (threadIdx.y + 4 * threadIdx.z);
  const unsigned lane = linear % 32, warp = linear >> 5;
  unsigned v = p[linear];
  if (warp == 0) {
    for (int d = 1; d < 4; d *= 2) {
      unsigned t = __shfl_up_sync(0xffffffff, v, d);
      if (lane >= d)
        v += t;
    }
    sums[lane] = v;
  }
}

void launchScan(unsigned *p, unsigned *s) { scanByWarpZero<<<16, dim3(4, 4, 8)>>>(p, s); }

// The shift comes from a constexpr function of constants: it is 5, so the
// group index is one per warp, and a branch on it keeps warps whole.
constexpr unsigned log2Of(unsigned n) { unsigned r = 0; while (n >>= 1) ++r; return r; }

__global__ void groupsOfAWarp(float *p) {
  const unsigned groupLog2 = log2Of(32);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned group = i >> groupLog2;
  if (group % 3 != 0) {
    float v = p[i];
    __syncwarp(0xffffffff);
    p[i] = v + 1.0f;
  }
}

// A 4x8xN block whose depth is only known at run time: x and y are still
// known, so threadIdx.y differs inside a warp (rows of 4 lanes), and a
// full-mask shuffle under `threadIdx.y < 4` misses lanes 16-31.
__global__ void rowsOfFour(float *p) {
  float a = p[threadIdx.x + 4 * threadIdx.y];
  if (threadIdx.y < 4) // expect-note {{lanes 0-15 and lanes 16-31 take different paths}}
    a += __shfl_down_sync(0xffffffff, a, 1, 4); // expect-error {{'__shfl_down_sync' with the full mask}} [cuda-divergence-warp-sync-mask]
  p[threadIdx.x + 4 * threadIdx.y] = a;
}

void launchRowsOfFour(float *p, unsigned depth) {
  dim3 block = {4, 8, depth};
  rowsOfFour<<<dim3(16, 16), block>>>(p);
}

// A guard as large as the tile (`threadIdx.x < 8` around an 8-thread tile's
// shuffle): tile 0 runs it whole, the other tiles not at all, so every
// member of a tile that runs it arrives (issue 47). Half a tile does not.
__global__ void tileSizedGuard(float *p) {
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  float v = p[threadIdx.x];
  if (threadIdx.x < 8)
    v += tile.shfl_down(v, 4);
  if (threadIdx.x < 4) // expect-note {{the branch on 'threadIdx.x < 4' depends on the thread}}
    v += tile.shfl_down(v, 2); // expect-error {{'tile.shfl_down()' is reached by only some threads of its tile of 8: the others never arrive}} [cuda-divergence-warp-sync-mask]
  p[threadIdx.x] = v;
}
void launchTileSizedGuard(float *p) { tileSizedGuard<<<64, 256>>>(p); } // expect-note {{the kernel is launched here with a block that the bound falls inside}}

// Severity earned by launches: the launches disagree on the block's depth
// (1 or 2), so the agreed analysis only knows that `r < blockDim.z` is a
// bound; each launch on its own makes the miss certain: with a depth of 1,
// only the lanes whose x is 0 run the shuffle (issue 47).
__global__ void depthLoop(const float *in, float *out) {
  float v = in[threadIdx.x + 4 * threadIdx.y];
  for (unsigned r = threadIdx.x; r < blockDim.z; r += 4) // expect-note {{the branch on 'r < blockDim.z' depends on the thread: every 4th lane (lanes 0, 4, ...) takes a different path from the others}}
    v += __shfl_down_sync(0xffffffff, v, 2, 4); // expect-error {{'__shfl_down_sync' with the full mask 0xffffffff is reached by only some lanes of the warp}} [cuda-divergence-warp-sync-mask]
  out[threadIdx.x + 4 * threadIdx.y] = v;
}
void launchDepthLoop(const float *in, float *out) {
  for (int size : {32, 64})
    depthLoop<<<100, dim3(4, 8, size / 32)>>>(in, out); // expect-note {{the kernel is launched here with a block of 4x8x1 threads, for which the miss is certain}}
}
