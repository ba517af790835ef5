// Test input for the note of cuda-launch-block-not-warp-multiple on a literal
// block (analyses/checks/BlockNotWarpMultipleCheck.cpp): rounding the block up
// is a note, not a fix-it on the warning, because the larger block launches
// more threads. The note carries the fix-it (applied by --fix-notes, or by a
// person) only where the block-resize safety rule proves the change safe
// (analyses/checks/fixes/BlockResizeSafety.h); otherwise it says which condition
// failed. tests/tool/lint/SafeFixesTest.cpp applies fixes end to end.
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-block-not-warp-multiple
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void guarded(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

__global__ void earlyReturn(const float *in, float *out, unsigned count) {
  const unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= count)
    return;
  out[i] = in[i] + 1.0f;
}

__global__ void gridStride(float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    d[i] = d[i] * 2.0f + 1.0f;
}

__device__ float twice(float x) { return 2.0f * x; }

__global__ void helperUnderGuard(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && d[i] > 0.0f)
    d[i] = twice(d[i]);
}

__global__ void clamp(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? d[i] : 0.0f;
  if (i < n)
    d[i] = v > 1.0f ? 1.0f : v;
}

__global__ void strided(const float *in, float *out, int n) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += stride)
    out[i] = in[i] * in[i];
}

void safe(float *d, const float *in, int n, unsigned count) {
  guarded<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; safe here: every global memory access of 'guarded' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 127) / 128}}
  guarded<<<n / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'guarded' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 127) / 128 (n / 100 launched only n rounded down to a multiple of 100: the same threads pass the guard when n is a multiple of 100)}}
  earlyReturn<<<(count + 100 - 1) / 100, 100>>>(in, d, count); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'earlyReturn' is guarded by 'i < count', and the launch passes 'count' for 'count': the fix-it also rewrites the grid as (count + 127) / 128}}
  gridStride<<<264, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; safe here: 'gridStride' is a grid-stride loop (bound 'n') that does not communicate across threads: the block can change alone, the grid stay}}
  clamp<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'clamp' is guarded by 'i < n'}}
  strided<<<132, 100>>>(in, d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: 'strided' is a grid-stride loop (bound 'n')}}
  guarded<<<dim3((n + 99) / 100), 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: every global memory access of 'guarded' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 127) / 128}}
  helperUnderGuard<<<(n + 49) / 50, 50>>>(d, n); // expect-warning {{block of 50 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 64 threads launches 14 more threads per block: the kernel must ignore them and the grid must be recomputed; safe here: every global memory access of 'helperUnderGuard' is guarded by 'i < n', and the launch passes 'n' for 'n': the fix-it also rewrites the grid as (n + 63) / 64}}
}

// Each condition of the rule, failing.
__global__ void unguarded(float *d) { d[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }

__global__ void sharedTile(float *d, int n) {
  __shared__ float tile[100];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = tile[0];
}

__global__ void dynamicShared(float *d, int n) {
  extern __shared__ float buffer[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = buffer[0];
}

__global__ void barrier(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
  __syncthreads();
  if (i < n)
    d[i] += 1.0f;
}

__global__ void warpShuffle(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? d[i] : 0.0f;
  v += __shfl_down_sync(0xffffffffu, v, 1);
  if (i < n)
    d[i] = v;
}

__global__ void counts(const float *d, unsigned *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && d[i] > 0.0f)
    atomicAdd(hits, 1u);
}

__global__ void perBlock(const float *d, float *firsts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    firsts[blockIdx.x] = d[i];
}

__global__ void offByOne(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i + 1] = d[i];
}

__device__ float elsewhere(float x); // defined in another translation unit

__global__ void callsElsewhere(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = elsewhere(d[i]);
}

__global__ void carried(float *d, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    sum += d[i];
    d[i] = sum;
  }
}

__global__ void __launch_bounds__(100) bounded(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = 0.0f;
}

__global__ void warpSync(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
  __syncwarp();
}

__global__ void vote(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned positive = __ballot_sync(0xffffffffu, i < n && d[i] > 0.0f);
  if (i < n && positive)
    d[i] = 0.0f;
}

__global__ void groupSync(float *d, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
  block.sync();
}

__device__ void settle() { __syncthreads(); }

__global__ void callsBarrier(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] += 1.0f;
  settle();
}

__device__ float gScale;

__global__ void readsGlobal(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= gScale;
}

__global__ void stopsEarly(float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (d[i] < 0.0f)
      break;
    d[i] = 1.0f;
  }
}

__global__ void skipsNegative(float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    for (int k = 0; k < 4; ++k)
      if (k == 2)
        break; // leaves the inner loop only
    if (d[i] < 0.0f)
      continue;
    d[i] = 1.0f;
  }
}

// Code the extra threads run outside the guard must not use their index
// where it could reach memory: a thread's own array, a callee, a loop.
__global__ void localTable(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = i % 100;
  float table[100] = {};
  table[slot] = 1.0f;
  if (i < n)
    d[i] = table[slot];
}

__global__ void helperOutsideGuard(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = twice(i);
  if (i < n)
    d[i] = t;
}

__global__ void loopOutsideGuard(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float steps = 0.0f;
  for (int k = 0; k < i % 7; ++k)
    steps += 1.0f;
  if (i < n)
    d[i] = steps;
}

template <int Unused> void fromTemplate(float *d, int n) {
  guarded<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the launch is in a template: one edit would serve every instantiation}}
  gridStride<<<264, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the launch is in a template: one edit would serve every instantiation}}
}

void unsafe(float *d, const float *in, unsigned *hits, int n, int m) {
  unguarded<<<n / 100, 100>>>(d); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block: the kernel must ignore them and the grid must be recomputed; no fix-it: 'unguarded' accesses 'd[blockIdx.x * blockDim.x + threadIdx.x]' without a guard 'blockIdx.x * blockDim.x + threadIdx.x < n' (n a parameter) around it}}
  sharedTile<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'sharedTile' uses __shared__ memory ('tile')}}
  dynamicShared<<<(n + 99) / 100, 100, 400>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'dynamicShared' uses __shared__ memory ('buffer')}}
  barrier<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'barrier' calls __syncthreads (a barrier)}}
  warpShuffle<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'warpShuffle' calls __shfl_down_sync (a warp intrinsic)}}
  counts<<<(n + 99) / 100, 100>>>(in, hits, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'counts' calls atomicAdd (an atomic)}}
  perBlock<<<(n + 99) / 100, 100>>>(in, d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'perBlock' has a per-block result ('firsts[blockIdx.x]')}}
  offByOne<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'offByOne' accesses 'd[i + 1]', whose index is not i}}
  callsElsewhere<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'callsElsewhere' calls 'elsewhere', whose body is not in this translation unit}}
  carried<<<264, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'carried' carries 'sum' from one element of its grid-stride loop to the next}}
  bounded<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'bounded' has __launch_bounds__(100), which a larger block would exceed}}
  guarded<<<(n + 255) / 256, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the grid '(n + 255) / 256' is not written (n + 99) / 100 or n / 100 with the block's 100}}
  guarded<<<(m + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'guarded' guards its accesses with 'i < n' (n: 'n'), but the launch does not pass for it the 'm' its grid divides}}
  warpSync<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'warpSync' calls __syncwarp (a barrier)}}
  vote<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'vote' calls __ballot_sync (a warp intrinsic)}}
  groupSync<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'groupSync' calls this_thread_block (cooperative groups)}}
  callsBarrier<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'callsBarrier' calls 'settle', which calls __syncthreads (a barrier)}}
  readsGlobal<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'readsGlobal' uses the global variable 'gScale'}}
  void *args[] = {&d, &n};
  cudaLaunchKernel((const void *)guarded, dim3((n + 99) / 100), 100, args, 0, 0); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: the launch passes the arguments of 'guarded' through an array: occlint cannot check what it passes for the bound of its guard 'i < n' (n: 'n')}}
  stopsEarly<<<264, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'stopsEarly' leaves its grid-stride loop early (break)}}
  skipsNegative<<<264, 100>>>(d, n); // continue, and a break out of an inner loop, keep it safe: expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{safe here: 'skipsNegative' is a grid-stride loop (bound 'n')}}
  localTable<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'localTable' indexes its array 'table' with its thread index outside the guard}}
  helperOutsideGuard<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'helperOutsideGuard' calls 'twice' with its thread index outside the guard}}
  loopOutsideGuard<<<(n + 99) / 100, 100>>>(d, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{no fix-it: 'loopOutsideGuard' runs a loop on its thread index outside the guard}}
  fromTemplate<0>(d, n);
}
