// Monte Carlo estimate of pi with cuRAND device API (XORWOW and Philox).
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cstdio>

__global__ void setup_states(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void __launch_bounds__(256)
estimate_pi(curandState *states, unsigned long long *hits, int samples) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned long long inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++inside;
  }
  unsigned int r = curand(&local);
  (void)r;
  states[id] = local;
  atomicAdd(hits, inside);
}

__global__ void gaussian_philox(float4 *out, unsigned long long seed, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, id, 0, &st);
  if (id < n) out[id] = curand_normal4(&st);
  float u = curand_uniform(&st);
  double d = curand_normal_double(&st);
  if (id == 0) out[0].x += u + static_cast<float>(d);
}

int main() {
  const int blocks = 64, threads = 256;
  curandState *states;
  unsigned long long *hits;
  cudaMalloc(&states, blocks * threads * sizeof(curandState));
  cudaMallocManaged(&hits, sizeof(unsigned long long));
  *hits = 0;
  setup_states<<<blocks, threads>>>(states, 1234ULL);
  estimate_pi<<<blocks, threads>>>(states, hits, 1000);
  cudaDeviceSynchronize();
  printf("pi ~ %f\n", 4.0 * *hits / (1000.0 * blocks * threads));
  cudaFree(states);
  cudaFree(hits);
  return 0;
}
