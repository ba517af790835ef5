// Test input for cuda-divergence-barrier (analyses/checks/DivergenceBarrierCheck.cpp, on the DivergenceCheck base).
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-divergence-barrier
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ---- positives -------------------------------------------------------------

__global__ void underThreadBranch(float *p) {
  if (threadIdx.x % 2 == 0) { // expect-note {{the branch on 'threadIdx.x % 2 == 0' depends on the thread: even and odd lanes take different paths}}
    p[threadIdx.x] = 1.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

// Warp-uniform is not enough: warps 0 and 1 wait at a barrier warps 2.. never
// reach. No launch is visible: the miss needs a block of more than 64
// threads, so it is a warning that names the bound.
__global__ void warpUniformIsNotEnough(float *p) {
  if (threadIdx.x < 64) { // expect-note {{the branch on 'threadIdx.x < 64' depends on the thread: it is the same in every lane of a warp, not in the whole block}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('threadIdx.x < 64'): where the bound falls inside a block}} [cuda-divergence-barrier]
  }
}

// The threads that miss the barrier have exited the kernel: the PTX ISA
// releases a barrier held up only by exited threads, so this is quiet unless
// ReportExitedThreads is on (LintOptions.ReportExitedThreadsCountsThreadsThatLeftTheKernel).
__global__ void afterEarlyReturn(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i] *= 2.0f;
  __syncthreads();
}

__global__ void countUnderData(const int *flags, int *out) {
  int v = flags[threadIdx.x];
  if (v > 0) { // expect-note {{the branch on 'v > 0' depends on the thread: lanes take different paths depending on per-thread data}}
    out[0] = __syncthreads_count(v); // expect-error {{__syncthreads_count() is reached under control flow}} [cuda-divergence-barrier]
  }
}

__global__ void cgBlockSync(float *p) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) { // expect-note 2 {{the branch on 'block.thread_rank() == 0' depends on the thread: one thread of the block takes a different path from all the others}}
    p[0] = 1.0f;
    block.sync(); // expect-error {{block.sync() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
    cg::sync(block); // expect-error {{cg::sync() is reached under control flow}} [cuda-divergence-barrier]
  }
}

__global__ void asmBarrier(float *p) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane < 16) { // expect-note {{the branch on 'lane < 16' depends on the thread: lanes 0-15 and lanes 16-31 take different paths}}
    asm volatile("bar.sync 0;"); // expect-error {{'bar.sync' (inline assembly) is reached under control flow}} [cuda-divergence-barrier]
  }
}

// A value assigned under a thread-dependent branch is varying after it. The
// threads that leave the loop early wait at the barrier after it while the
// others wait at the one inside: two barriers, a real mismatch.
__global__ void controlDependence(const int *in, float *p) {
  int limit = 4;
  if (threadIdx.x == 0) // the join comes before the loop: no note here
    limit = in[0];
  for (int k = 0; k < limit; ++k) { // expect-note {{the branch on 'k < limit' depends on the thread}}
    p[k] += 1.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow}} [cuda-divergence-barrier]
  }
  __syncthreads();
  p[threadIdx.x] = 0.0f;
}

__global__ void afterDivergentBreak(float *p, int n) {
  for (int k = 0; k < n; ++k) {
    if (p[threadIdx.x] > 10.0f) // expect-note {{threads for which 'p[threadIdx.x] > 10.0f' holds leave the loop here}}
      break;
    p[threadIdx.x] += 1.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow}} [cuda-divergence-barrier]
  }
  __syncthreads();
}

// The same loops when leaving them leaves the kernel: the threads that miss
// the barrier have exited (quiet unless ReportExitedThreads is on).
__global__ void loopExitLeavesTheKernel(const int *in, float *p) {
  int limit = 4;
  if (threadIdx.x == 0)
    limit = in[0];
  for (int k = 0; k < limit; ++k) {
    p[k] += 1.0f;
    __syncthreads();
  }
}

__global__ void breakLeavesTheKernel(float *p, int n) {
  for (int k = 0; k < n; ++k) {
    if (p[threadIdx.x] > 10.0f)
      break;
    p[threadIdx.x] += 1.0f;
    __syncthreads();
  }
  p[threadIdx.x] *= 0.5f; // no collective on the way out
}

// Interprocedural: the barrier is in a helper, the branch in the kernel.
__device__ void stage(float *p) {
  p[threadIdx.x] += 1.0f;
  __syncthreads(); // expect-error {{__syncthreads() is reached under control flow}} [cuda-divergence-barrier]
}
__global__ void helperUnderBranch(float *p) {
  if (threadIdx.x & 1) // expect-note {{the branch on 'threadIdx.x & 1' depends on the thread: even and odd lanes take different paths}}
    stage(p); // expect-note {{reached through this call}}
}

// A helper that returns the lane through a reference parameter.
__device__ void laneOf(unsigned &lane) { lane = threadIdx.x % 32; }
__global__ void outParameter(float *p) {
  unsigned lane = 0;
  laneOf(lane);
  if (lane < 8) // expect-note {{the branch on 'lane < 8' depends on the thread: lanes 0-7 and lanes 8-31 take different paths}}
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow}} [cuda-divergence-barrier]
}

// Tiles are judged at their own size: a branch uniform in 16-lane groups is fine for a tile of 16, not of 32.
__global__ void tiles(float *p) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  if ((threadIdx.x / 16) % 2 == 0) { // expect-note {{the branch on '(threadIdx.x / 16) % 2 == 0' depends on the thread: lanes 0-15 and lanes 16-31 take different paths}}
    t16.sync();
    t32.sync(); // expect-error {{tile.sync() is reached under control flow that is not uniform across its tile of 32 threads}} [cuda-divergence-barrier]
  }
}

// ---- negatives -------------------------------------------------------------

__global__ void blockUniformBranches(float *p, const int *flag, int n) {
  if (blockIdx.x != gridDim.x - 1) {
    p[blockIdx.x] = 1.0f;
    __syncthreads();
  }
  if (flag[0] > 0) // loaded from the same address by every thread
    __syncthreads();
  if (n > 16)
    __syncthreads();
  int s = __syncthreads_count(p[threadIdx.x] > 0.0f);
  if (s > 10) // the same in the whole block
    __syncthreads();
}

__global__ void classicReduction(const float *in, float *out) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads(); // outside the branch: every thread gets here
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void guardedButNoBarrier(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.0f;
  __syncthreads(); // after the join: every thread arrives
}

// Warp-specialised code: a named barrier for a count of threads needs whole warps only.
__global__ void warpSpecialised(float *p) {
  if (threadIdx.x / 32 == 0) {
    p[threadIdx.x] = 1.0f;
    asm volatile("bar.sync 1, 64;");
  } else if (threadIdx.x / 32 == 1) {
    asm volatile("bar.sync 1, 64;");
    p[threadIdx.x] += 1.0f;
  }
}

// The same bound with the block size known from the launch: every block of
// 256 threads has warps on both sides, so it is an error, and a note names
// the launch that decides it.
__global__ void warpUniformUnderALaunch(float *p) {
  const unsigned tid = threadIdx.x;
  if (tid < 64) { // expect-note {{the branch on 'tid < 64' depends on the thread}}
    p[tid] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

void launchWarpUniformUnderALaunch(float *p) {
  warpUniformUnderALaunch<<<8, 256>>>(p); // expect-note {{the kernel is launched here with a block that the bound falls inside}}
}

// The arm a compile-time condition rules out is dead code, as for nvcc: the
// block barrier below is never executed (one warp per group of 32).
__global__ void barrierInDeadArm(long *p) {
  const unsigned groupSize = 256 / sizeof(long);
  const unsigned lane = threadIdx.x % groupSize;
  if (lane < 8)
    p[threadIdx.x] = 0;
  if (lane < 16)
    (groupSize > 32) ? __syncthreads() : __syncwarp(0x0000ffff);
  p[threadIdx.x] += 1;
}

template <int N> __global__ void templated(float *p) {
  if (threadIdx.x % N == 0) // expect-note {{the branch on 'threadIdx.x % N == 0' depends on the thread}}
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow}} [cuda-divergence-barrier]
}

void launches(float *p) {
  templated<1><<<1, 256>>>(p); // N = 1: every thread takes the branch: fine
  templated<2><<<1, 256>>>(p); // N = 2: even threads only
}

// The kernel asserts its block shape (here through a named constant): every
// block that gets past the assertion has 128 threads along x, so the bound
// at 64 falls inside each of them, as under a visible launch.
#include <assert.h>
__global__ void shapeStatedByAnAssertion(float *p) {
  constexpr unsigned Threads = 128;
  assert(blockDim.x == Threads); // expect-note {{the kernel asserts its block shape here, and the bound falls inside such a block}}
  if (threadIdx.x < 64) { // expect-note {{the branch on 'threadIdx.x < 64' depends on the thread}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

// The same where NDEBUG compiles the assertion out: its argument is still
// read, as the kernel's stated assumption (the note says so).
#define NDEBUG
#include <assert.h>
#define ROW_THREADS (64 + 64)
__global__ void shapeStatedWithoutChecking(float *p) {
  assert((blockDim.x == ROW_THREADS) && blockDim.y == 2); // expect-note {{also where NDEBUG compiles the assertion out}}
  if (threadIdx.x < 64) { // expect-note {{the branch on 'threadIdx.x < 64' depends on the thread}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

// An assertion under a condition states nothing about every launch.
__global__ void shapeAssertedOnOnePath(float *p, int mode) {
  if (mode == 1)
    assert(blockDim.x == 128);
  if (threadIdx.x < 64) { // expect-note {{the branch on 'threadIdx.x < 64' depends on the thread: it is the same in every lane of a warp, not in the whole block}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('threadIdx.x < 64'): where the bound falls inside a block}} [cuda-divergence-barrier]
  }
}

// A count that every launch passes as the same integer is that constant, as
// the launches' block shape is the shape: 64 falls inside each block of 256
// threads (an error, the note names the launch and the value), 256 covers the
// whole block (no finding); launches passing different counts, or a runtime
// one, leave the bound a uniform unknown (a warning).
__global__ void countFixedByTheLaunch(float *p, int count) {
  if (threadIdx.x < count) { // expect-note {{the branch on 'threadIdx.x < count' depends on the thread}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

__global__ void countCoveringTheBlock(float *p, int count) {
  if (threadIdx.x < count) {
    p[threadIdx.x] = 0.0f;
    __syncthreads();
  }
}

// Launched with count = 64 and with a count known only at run time: the
// first launch makes the miss certain (threads 64-255 never arrive), so it
// is that launch's error (issue 47; it was a warning while only the launches'
// agreement was read).
__global__ void countsThatDiffer(float *p, int count) {
  if (threadIdx.x < count) { // expect-note {{the branch on 'threadIdx.x < count' depends on the thread}}
    p[threadIdx.x] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

__global__ void blockCoveredByALiteral(float *p) {
  if (threadIdx.x < 256) { // every thread of a launched block of 256
    p[threadIdx.x] = 0.0f;
    __syncthreads();
  }
}

void launchWithCounts(float *p, int runtimeCount) {
  countFixedByTheLaunch<<<8, 256>>>(p, 64); // expect-note {{the kernel is launched here with count = 64 and a block that the bound falls inside}}
  countCoveringTheBlock<<<8, 256>>>(p, 256);
  countsThatDiffer<<<8, 256>>>(p, 64); // expect-note {{the kernel is launched here with count = 64 and a block of 256x1x1 threads, for which the miss is certain}}
  countsThatDiffer<<<8, 256>>>(p, runtimeCount);
  blockCoveredByALiteral<<<8, 256>>>(p);
}

// A bound on a global index (blockIdx * blockDim + threadIdx) that every
// launch fixes, with the launches' grid and block: the bound splits a block
// only where it falls inside one.
__global__ void globalCountInsideABlock(float *p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { // expect-note {{the branch on 'i < n' depends on the thread}}
    p[i] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

__global__ void globalCountOnABlockEdge(float *p, int n) {
  int i = threadIdx.x + blockDim.x * blockIdx.x; // 1024 = 4 whole blocks of 256
  if (i < n) {
    p[i] = 0.0f;
    __syncthreads();
  }
}

__global__ void globalCountBeyondTheGrid(float *p, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n) { // 5000: past the 2048 threads of the grid
    p[threadIdx.x] = 0.0f;
    __syncthreads();
  }
}

__global__ void globalRowInsideABlock(float *p, int rows) {
  const unsigned row = blockIdx.y * 16 + threadIdx.y; // 40 rows: the third block row is cut at 8
  if (row < rows) { // expect-note {{the branch on 'row < rows' depends on the thread}}
    p[row] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
}

__global__ void globalIndexMovedOn(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  i += 3; // no longer the global index: the launch decides nothing
  if (i < n) { // expect-note {{the branch on 'i < n' depends on the thread}}
    p[i] = 0.0f;
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('i < n')}} [cuda-divergence-barrier]
  }
}

__global__ void globalCountWithARuntimeGrid(float *p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { // expect-note {{the branch on 'i < n' depends on the thread}}
    p[i] = 0.0f;
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('i < n')}} [cuda-divergence-barrier]
  }
}

void launchWithGlobalCounts(float *p, int blocks) {
  globalCountInsideABlock<<<8, 256>>>(p, 1000); // expect-note {{the kernel is launched here with n = 1000 and a block that the bound falls inside}}
  globalCountOnABlockEdge<<<8, 256>>>(p, 1024);
  globalCountBeyondTheGrid<<<8, 256>>>(p, 5000);
  globalRowInsideABlock<<<dim3(1, 4), dim3(16, 16)>>>(p, 40); // expect-note {{the kernel is launched here with rows = 40 and a block that the bound falls inside}}
  globalIndexMovedOn<<<8, 256>>>(p, 1024);
  globalCountWithARuntimeGrid<<<blocks, 256>>>(p, 1024);
}

// A loop whose start depends on the thread (a row per warp, a block-stride
// loop) with a barrier inside and one after it: with the block and the bound
// exact at every launch, each thread's trip count is known. Threads that
// finish early miss the loop's barrier (an error naming the launch); when the
// bound suits the stride every thread runs the loop as often (no finding).
__global__ void rowsPerWarpUneven(float *p, int rows) {
  const int warp = threadIdx.x / 32;
  for (int r = warp; r < rows; r += blockDim.x / 32) { // expect-note {{the branch on 'r < rows' depends on the thread: it is the same in every lane of a warp, not in the whole block}}
    p[r] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
  __syncthreads();
  p[threadIdx.x] += 1.0f;
}

__global__ void rowsPerWarpEven(float *p, int rows) {
  const int warp = threadIdx.x / 32;
  for (int r = warp; r < rows; r += blockDim.x / 32) {
    p[r] = 0.0f;
    __syncthreads();
  }
  __syncthreads();
  p[threadIdx.x] += 1.0f;
}

__global__ void blockStrideUneven(float *p, int n) {
  for (int c = threadIdx.x; c < n; c += blockDim.x) { // expect-note {{the branch on 'c < n' depends on the thread}}
    p[c] = 0.0f;
    __syncthreads(); // expect-error {{__syncthreads() is reached under control flow that is not uniform across the block}} [cuda-divergence-barrier]
  }
  __syncthreads();
  p[threadIdx.x] += 1.0f;
}

__global__ void rowsPerWarpAtRunTime(float *p, int rows) {
  const int warp = threadIdx.x / 32;
  for (int r = warp; r < rows; r += blockDim.x / 32) { // expect-note {{the branch on 'r < rows' depends on the thread: it is the same in every lane of a warp, not in the whole block}}
    p[r] = 0.0f;
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('r < rows')}} [cuda-divergence-barrier]
  }
  __syncthreads();
  p[threadIdx.x] += 1.0f;
}

void launchStridedLoops(float *p, int rows) {
  rowsPerWarpUneven<<<8, 256>>>(p, 20); // expect-note {{the kernel is launched here with rows = 20 and a block whose threads run the loop a different number of times}}
  rowsPerWarpEven<<<8, 256>>>(p, 16);
  blockStrideUneven<<<8, 256>>>(p, 1000); // expect-note {{the kernel is launched here with n = 1000 and a block whose threads run the loop a different number of times}}
  blockStrideUneven<<<8, 256>>>(p, 1000);
  rowsPerWarpAtRunTime<<<8, 256>>>(p, rows);
}

// Severity earned by launches, the other way: the launches disagree on the
// block and on `n`, so the agreed analysis sees a bound that may fall inside
// a block; each launch passes its own block size as `n`, and no thread of
// either misses the barrier: no finding (issue 47).
__global__ void stagedByLaunch(float *p, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) {
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = s[(threadIdx.x + 1) % n];
  }
}
void launchStagedByLaunch(float *p) {
  stagedByLaunch<<<64, 256>>>(p, 256);
  stagedByLaunch<<<64, 128>>>(p, 128);
}

// The same kernel shape also launched with a block occlint cannot read: that
// launch may straddle the bound, so the warning stays (no configuration of
// the readable launches can rule it out for the other).
__global__ void stagedPartlyKnown(float *p, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) { // expect-note {{the branch on 'threadIdx.x < n' depends on the thread}}
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads(); // expect-warning {{__syncthreads() is reached only by the threads on one side of a bound ('threadIdx.x < n')}} [cuda-divergence-barrier]
    p[threadIdx.x] = s[(threadIdx.x + 1) % n];
  }
}
void launchStagedPartlyKnown(float *p, int threads) {
  stagedPartlyKnown<<<64, 256>>>(p, 256);
  stagedPartlyKnown<<<64, 128>>>(p, 128);
  stagedPartlyKnown<<<64, threads>>>(p, 200);
}
