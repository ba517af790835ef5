// Test input for the opt-in to more than 48 KB of dynamic shared memory when
// occlint cannot tell which kernel a cudaFuncSetAttribute call opts in (a
// wrapper's parameter): every kernel of the file may be the one, so no launch
// is an error for lacking the opt-in, and a runtime amount may be as large as
// the GPU allows (docs/launch-analysis.md, "A runtime amount of dynamic shared
// memory"). No ptxas report: registers unknown, the figures are upper bounds.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-invalid-config,cuda-occupancy-report
#include <cuda_runtime.h>

extern __shared__ float tile[];

__global__ void tiled(float *p) { p[threadIdx.x] = tile[threadIdx.x]; } // expect-note {{'tiled': registers unknown}}

// Opts in whichever kernel it is handed.
static void allowSharedMemory(const void *kernel, int bytes) {
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

void launch(float *p, size_t bytes) {
  allowSharedMemory((const void *)tiled, 65536);
  // 64 KB: valid when the call above opted 'tiled' in, which occlint cannot
  // rule out: no error, and 64 KB + 1 KB reserved fit 3 times in 228 KB.
  tiled<<<132, 256, 65536>>>(p); // expect-remark {{predicted occupancy of 'tiled' on H100 SXM (sm_90, 132 SMs): at most 3 blocks of 256 threads per SM, 24 of 64 warps (37.5% occupancy), limited by shared memory (registers unknown)}} [cuda-occupancy-report]
  // A runtime amount may then be up to the 227 KB opt-in limit: one block of
  // 1024 threads, where the warps allow two. Unknown.
  tiled<<<132, 1024, bytes>>>(p); // expect-remark {{predicted occupancy of 'tiled' on H100 SXM (sm_90, 132 SMs): unknown (block 1024, dynamic shared memory bytes)}} [cuda-occupancy-report]
}
