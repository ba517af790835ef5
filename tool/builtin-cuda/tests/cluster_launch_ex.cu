// Thread block clusters (sm_90+): compile-time __cluster_dims__ and a
// runtime cluster launch via cudaLaunchKernelEx + cudaLaunchAttribute;
// also a cooperative launch attribute.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

// Clang (like nvcc) rejects __cluster_dims__ below sm_90.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER_2X1X1 __cluster_dims__(2, 1, 1)
#else
#define CLUSTER_2X1X1
#endif

__global__ void CLUSTER_2X1X1 __launch_bounds__(128)
cluster_fixed(float *out) {
  __shared__ float smem[128];
  // The real cooperative_groups.h offers cluster_group only on sm_90+ and
  // only under nvcc; it says so with _CG_HAS_CLUSTER_GROUP.
#if defined(_CG_HAS_CLUSTER_GROUP)
  cg::cluster_group cluster = cg::this_cluster();
  smem[threadIdx.x] = static_cast<float>(cluster.block_rank());
  cluster.sync();
  float *peer = cluster.map_shared_rank(smem, (cluster.block_rank() + 1) %
                                                  cluster.num_blocks());
  out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x];
  cluster.sync();
#else
  smem[threadIdx.x] = 0.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = smem[threadIdx.x];
#endif
}

__global__ void cluster_runtime(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f;
}

int launch(float *out, const float *in, int n, cudaStream_t stream) {
  cluster_fixed<<<dim3(8), dim3(128), 0, stream>>>(out);

  cudaFuncSetAttribute(cluster_runtime,
                       cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 255) / 256);
  config.blockDim = dim3(256);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 4;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributeCooperative;
  attrs[1].val.cooperative = 1;
  config.attrs = attrs;
  config.numAttrs = 1;
  int clusters = 0;
  cudaOccupancyMaxActiveClusters(&clusters, cluster_runtime, &config);
  cudaError_t err = cudaLaunchKernelEx(&config, cluster_runtime, out, in, n);
  if (err != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorName(err));
    return 1;
  }
  return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}
