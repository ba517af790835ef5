// A pipelined kernel at depths S = 1..4 (our own code), timed on a GPU, to set
// the measured best depth beside occlint's staircase (bench/pipeline_gpu.sh).
// Each block streams `tiles` tiles of 2048 floats (8 KB) through a ring of S
// stages with cp.async (__pipeline_memcpy_async) and does `work` FMAs per
// element on each: small `work` is load-bound (depth helps), large is
// compute-bound.
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstdlib>

constexpr int TileFloats = 2048;

template <int S>
__global__ void __launch_bounds__(256) ring(const float4 *in, float *out, int tiles, int work) {
  __shared__ float4 stage[S][TileFloats / 4];
  const float4 *src = in + size_t(blockIdx.x) * tiles * (TileFloats / 4);
  for (int s = 0; s < S - 1; ++s) {
    if (s < tiles)
      for (int i = threadIdx.x; i < TileFloats / 4; i += blockDim.x)
        __pipeline_memcpy_async(&stage[s][i], &src[size_t(s) * (TileFloats / 4) + i], sizeof(float4));
    __pipeline_commit();
  }
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    const int ahead = t + S - 1;
    if (ahead < tiles)
      for (int i = threadIdx.x; i < TileFloats / 4; i += blockDim.x)
        __pipeline_memcpy_async(&stage[ahead % S][i], &src[size_t(ahead) * (TileFloats / 4) + i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(S - 1);
    __syncthreads();
    for (int i = threadIdx.x; i < TileFloats / 4; i += blockDim.x) {
      float4 v = stage[t % S][i];
      for (int w = 0; w < work; ++w)
        acc = fmaf(acc, v.x, v.y) + fmaf(v.z, v.w, acc);
    }
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int S> float timeDepth(const float4 *in, float *out, int blocks, int tiles, int work) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  ring<S><<<blocks, 256>>>(in, out, tiles, work); // warm-up
  cudaEventRecord(start);
  for (int r = 0; r < 10; ++r)
    ring<S><<<blocks, 256>>>(in, out, tiles, work);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms / 10;
}

int main(int argc, char **argv) {
  const int work = argc > 1 ? std::atoi(argv[1]) : 1;
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = sms * 8, tiles = 64;
  float4 *in = nullptr;
  float *out = nullptr;
  cudaMalloc(&in, size_t(blocks) * tiles * TileFloats * sizeof(float));
  cudaMalloc(&out, size_t(blocks) * 256 * sizeof(float));
  cudaMemset(in, 0, size_t(blocks) * tiles * TileFloats * sizeof(float));
  std::printf("work %d, %d blocks of 256 threads, %d tiles of 8 KB each\n", work, blocks, tiles);
  std::printf("S=1 %.3f ms\n", timeDepth<1>(in, out, blocks, tiles, work));
  std::printf("S=2 %.3f ms\n", timeDepth<2>(in, out, blocks, tiles, work));
  std::printf("S=3 %.3f ms\n", timeDepth<3>(in, out, blocks, tiles, work));
  std::printf("S=4 %.3f ms\n", timeDepth<4>(in, out, blocks, tiles, work));
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
