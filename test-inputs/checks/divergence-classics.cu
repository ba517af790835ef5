// Classic CUDA kernels for the precision table of docs/divergence-precision.md:
// every branch the three cuda-divergence-* checks report here, and why it is
// (or is not) a real warp split / a real bug. Launched with the shapes they
// are written for, so the analysis knows the block size.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-divergence-*
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL 0xffffffffu

// 1. Reduction, interleaved addressing with % (Harris #1): splits warps at every step.
__global__ void reduceInterleavedModulo(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) // expect-warning {{this branch splits warps: even and odd lanes take different paths on 'tid % (2 * stride) == 0'}} [cuda-divergence-branch]
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// 2. Interleaved addressing with a strided index (Harris #2): the active threads are contiguous.
__global__ void reduceInterleavedStrided(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    unsigned index = 2 * stride * tid;
    if (index < blockDim.x)
      s[index] += s[index + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// 3. Sequential addressing (Harris #3): splits a warp only once s < 32.
__global__ void reduceSequential(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// 4. Sequential addressing, last warp unrolled with shuffles (Harris #5 in modern form).
__global__ void reduceWarpUnrolled(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) { // warp 0 only: the full mask is right
    float v = s[tid] + s[tid + 32];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(FULL, v, o);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

// 5. Shuffle reduction: warps reduce, warp 0 reduces the partial sums.
__device__ float warpReduceSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(FULL, v, o);
  return v;
}
__global__ void reduceShuffle(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = i < n ? in[i] : 0.0f;
  v = warpReduceSum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
  if (warp == 0)
    v = warpReduceSum(v);
  if (threadIdx.x == 0)
    atomicAdd(out, v);
}

// 6. Out-of-range threads leave before the barrier. Not a deadlock: they have
// exited, and the PTX ISA releases a barrier held up only by exited threads
// (quiet unless cuda-divergence-barrier.ReportExitedThreads is on). Earlier
// versions of this input called it a deadlock; the issue-16 labels of real
// code found it relied on deliberately.
__global__ void reduceEarlyExit(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0] + s[1];
}

// 7. Hillis-Steele inclusive scan in shared memory.
__global__ void scanHillisSteele(const float *in, float *out) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned offset = 1; offset < BLOCK; offset *= 2) {
    float t = 0.0f;
    if (tid >= offset)
      t = s[tid - offset];
    __syncthreads();
    if (tid >= offset)
      s[tid] += t;
    __syncthreads();
  }
  out[blockIdx.x * BLOCK + tid] = s[tid];
}

// 8. Warp-level inclusive scan with shuffles.
__global__ void scanWarp(const int *in, int *out) {
  unsigned lane = threadIdx.x & 31;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(FULL, v, d);
    if (lane >= d) // a select, not a branch
      v += n;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// 9. Shared-memory histogram with a grid-stride loop.
__global__ void histogram(const unsigned char *data, int n, unsigned *hist) {
  __shared__ unsigned local[256];
  for (int j = threadIdx.x; j < 256; j += blockDim.x)
    local[j] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int j = threadIdx.x; j < 256; j += blockDim.x)
    atomicAdd(&hist[j], local[j]);
}

// 10. Tiled transpose (32x8 threads, 32x32 tile), with edge guards.
__global__ void transpose(const float *in, float *out, int width, int height) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 11. 1-D stencil with a halo loaded by the first RADIUS threads.
#define RADIUS 3
__global__ void stencil1d(const float *in, float *out) {
  __shared__ float temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  temp[l] = in[g];
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = in[g - RADIUS];
    temp[l + BLOCK] = in[g + BLOCK];
  }
  __syncthreads();
  float r = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    r += temp[l + k];
  out[g] = r;
}

// 12. Bitonic sort of one block in shared memory: partners and directions split warps while j, k < 32.
// The compare-and-swap at the bottom is a swap: too little work to report.
__global__ void bitonicSort(float *data) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = data[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned k = 2; k <= BLOCK; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) { // expect-warning {{this branch splits warps: lanes take different paths depending on a value computed from the thread index on 'ixj > tid'}} [cuda-divergence-branch]
        if ((tid & k) == 0) { // expect-warning {{this branch splits warps}} [cuda-divergence-branch]
          if (s[tid] > s[ixj]) {
            float t = s[tid];
            s[tid] = s[ixj];
            s[ixj] = t;
          }
        } else {
          if (s[tid] < s[ixj]) {
            float t = s[tid];
            s[tid] = s[ixj];
            s[ixj] = t;
          }
        }
      }
      __syncthreads();
    }
  }
  data[blockIdx.x * BLOCK + tid] = s[tid];
}

// 13. Warp-aggregated atomic increment (the leader lane does the atomic).
__global__ void aggregatedIncrement(int *counter, int *slots, const int *keep) {
  if (keep[blockIdx.x * blockDim.x + threadIdx.x]) { // expect-warning {{this branch splits warps: lanes take different paths depending on per-thread data}} [cuda-divergence-data-branch]
    unsigned active = __activemask();
    unsigned lane = threadIdx.x % 32;
    int leader = __ffs(active) - 1;
    int base = 0;
    if (lane == leader)
      base = atomicAdd(counter, __popc(active));
    base = __shfl_sync(active, base, leader);
    slots[base + __popc(active & ((1u << lane) - 1))] = threadIdx.x;
  }
}

// 14. Bug: a shuffle with the full mask under a data-dependent branch.
__global__ void compactBuggy(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) { // expect-note {{the branch on 'v > 0' depends on the thread: lanes take different paths depending on per-thread data}}
    unsigned m = __ballot_sync(FULL, 1); // expect-error {{'__ballot_sync' with the full mask 0xffffffff is reached by only some lanes of the warp}} [cuda-divergence-warp-sync-mask]
    out[blockIdx.x * 32 + __popc(m)] = v;
  }
}

// 15. Per-thread work lists: a data-dependent trip count (SpMV, CSR scalar kernel).
__global__ void spmvCsrScalar(const int *rowPtr, const int *cols, const float *vals, const float *x, float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int k = rowPtr[row]; k < rowPtr[row + 1]; ++k) // expect-warning {{the trip count of this loop differs between the lanes of a warp}} [cuda-divergence-data-branch]
      sum += vals[k] * x[cols[k]];
    y[row] = sum;
  }
}

void launchAll(float *f, float *g, int *ints, unsigned *u, unsigned char *bytes, int n) {
  reduceInterleavedModulo<<<n / BLOCK, BLOCK>>>(f, g);
  reduceInterleavedStrided<<<n / BLOCK, BLOCK>>>(f, g);
  reduceSequential<<<n / BLOCK, BLOCK>>>(f, g);
  reduceWarpUnrolled<<<n / BLOCK, BLOCK>>>(f, g);
  reduceShuffle<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(f, g, n);
  reduceEarlyExit<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(f, g, n);
  scanHillisSteele<<<n / BLOCK, BLOCK>>>(f, g);
  scanWarp<<<n / BLOCK, BLOCK>>>(ints, ints);
  histogram<<<128, BLOCK>>>(bytes, n, u);
  transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(f, g, n, n);
  stencil1d<<<n / BLOCK, BLOCK>>>(f, g);
  bitonicSort<<<n / BLOCK, BLOCK>>>(f);
  aggregatedIncrement<<<n / BLOCK, BLOCK>>>(ints, ints, ints);
  compactBuggy<<<n / BLOCK, BLOCK>>>(ints, ints);
  spmvCsrScalar<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(ints, ints, f, f, g, n);
}
