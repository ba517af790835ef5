// Cooperative groups: thread_block, tiled_partition<32>, cg::reduce,
// grid-wide sync via this_grid() with cudaLaunchCooperativeKernel.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v) {
  for (int off = tile.size() / 2; off > 0; off /= 2)
    v += tile.shfl_down(v, off);
  return v;
}

__global__ void __launch_bounds__(256) tiled_sum(const float *in, float *out,
                                                 int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  __shared__ float warp_sums[8];
  int i = blockIdx.x * block.size() + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  float s = tile_sum(tile, v);
  if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = s;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    float w = tile.thread_rank() < 8 ? warp_sums[tile.thread_rank()] : 0.0f;
    w = cg::reduce(tile, w, cg::plus<float>());
    if (tile.thread_rank() == 0) atomicAdd(out, w);
  }
  tile.sync();
}

__global__ void grid_normalize(float *data, float *total, int n) {
  cg::grid_group grid = cg::this_grid();
  auto block = cg::this_thread_block();
  auto tile16 = cg::tiled_partition<16>(block);
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    atomicAdd(total, data[i]);
  grid.sync();
  float t = *total;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    data[i] /= t;
  cg::sync(tile16);
  cg::sync(block);
}

int main() {
  int n = 1 << 16;
  float *d = nullptr, *total = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  tiled_sum<<<n / 256, 256>>>(d, total, n);

  int dev = 0, numBlocksPerSm = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  if (!prop.cooperativeLaunch) return 1;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocksPerSm,
                                                grid_normalize, 256, 0);
  dim3 grid(prop.multiProcessorCount * numBlocksPerSm), block(256);
  void *args[] = {&d, &total, &n};
  cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_normalize, grid,
                                                block, args, 0, 0);
  if (err != cudaSuccess) printf("%s\n", cudaGetErrorString(err));
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaFree(total);
  return 0;
}
