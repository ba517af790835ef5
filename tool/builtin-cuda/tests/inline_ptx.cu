// Inline PTX (laneid, smid, globaltimer), clock64, __syncthreads_count/or/and,
// device printf, __threadfence, memset/memcpy.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime_api.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// __maxnreg__: Clang 22 does not know the maxnreg attribute (warning, ignored)
// with the real headers and the built-in ones alike.
__global__ void __maxnreg__(64) probe(unsigned *lanes, unsigned *sms, long long *cycles,
                      int *flags) {
  long long t0 = clock64();
  unsigned lane = lane_id();
  lanes[blockIdx.x * blockDim.x + threadIdx.x] = lane;
  if (threadIdx.x == 0) sms[blockIdx.x] = sm_id();
  int count = __syncthreads_count(lane < 16);
  int any = __syncthreads_or(lane == 3);
  int all = __syncthreads_and(lane < 32);
  __threadfence();
  if (threadIdx.x == 0) {
    flags[blockIdx.x] = count + any + all;
    printf("block %d on SM %u\n", blockIdx.x, sms[blockIdx.x]);
  }
  cycles[blockIdx.x * blockDim.x + threadIdx.x] = clock64() - t0;
}

int main() {
  unsigned *lanes, *sms;
  long long *cycles;
  int *flags;
  cudaMalloc(&lanes, 1024 * sizeof(unsigned));
  cudaMalloc(&sms, 8 * sizeof(unsigned));
  cudaMalloc(&cycles, 1024 * sizeof(long long));
  cudaMalloc(&flags, 8 * sizeof(int));
  cudaMemset(flags, 0, 8 * sizeof(int));
  probe<<<8, 128>>>(lanes, sms, cycles, flags);
  unsigned host[1024];
  cudaMemcpy(host, lanes, sizeof(host), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) fprintf(stderr, "%s\n", cudaGetErrorString(e));
  cudaFree(lanes);
  cudaFree(sms);
  cudaFree(cycles);
  cudaFree(flags);
  return 0;
}
