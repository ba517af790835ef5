// Test input for cuda-occupancy-report (analyses/checks/OccupancyReportCheck.cpp, on the OcclintCheck base and its shared facts): a remark
// with the predicted occupancy of every launch, here for each way of launching a kernel.
// Off by default in occlint; enabled by name. No ptxas report: registers unknown, so the
// predictions are upper bounds and say so.
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-occupancy-report
#include <cuda_runtime.h>

__global__ void work(float *p) { p[threadIdx.x] = 0.0f; } // expect-note 8 {{'work': registers unknown, 0 bytes of static shared memory declared}}

template <int Threads>
void launchTemplate(float *p) {
  work<<<216, Threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 216 blocks fills 25.0% of one wave}} [cuda-occupancy-report] expect-remark {{at most 32 blocks of 32 threads per SM, 32 of 64 warps (50.0% occupancy), limited by blocks}} [cuda-occupancy-report]
}

#define LAUNCH_WORK(grid, block, p) work<<<grid, block>>>(p)

void launches(float *p, int n) {
  launchTemplate<256>(p);
  launchTemplate<32>(p);
  LAUNCH_WORK(108, 128, p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report]
  cudaLaunchKernel(work, dim3(108), dim3(64), nullptr, 0, 0); // expect-remark {{at most 32 blocks of 64 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps, blocks}} [cuda-occupancy-report]

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2160);
  config.blockDim = dim3(512);
  config.dynamicSmemBytes = 0;
  cudaLaunchKernelEx(&config, work, p); // expect-remark {{at most 4 blocks of 512 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 2160 blocks runs in 5.00 waves}} [cuda-occupancy-report]

  work<<<n, 1024>>>(p); // expect-remark {{at most 2 blocks of 1024 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown)}} [cuda-occupancy-report]
  // A launch that cannot start: the remark says why. (With cuda-launch-invalid-config
  // enabled, its error is the launch's one finding and this remark is moot:
  // launch-precedence-report.cu.)
  work<<<216, 2048>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): cannot launch: 2048 threads per block exceed the maximum of 1024 on sm_80}} [cuda-occupancy-report]
  work<<<1, n>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block n, dynamic shared memory 0)}} [cuda-occupancy-report]
}

// A runtime amount of dynamic shared memory: at most 48 KB ('work' does not
// opt in), 49 KB with the reserve, which fits 3 times in the A100's 164 KB.
void runtimeSharedMemory(float *p, size_t bytes) {
  // 1024 threads: 2 blocks by warps whatever the amount.
  work<<<216, 1024, bytes>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 1024 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown) (the same for any dynamic shared memory up to the 49152 B the launch can be given); the grid of 216 blocks runs in 1.00 waves}} [cuda-occupancy-report]
  // 512 threads: 4 blocks by warps at a small amount, 3 at 48 KB: unknown.
  work<<<216, 512, bytes>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block 512, dynamic shared memory bytes)}} [cuda-occupancy-report]
}
