// Test input for launch values read from the device when the target is a
// bare arch (--gpu=sm_90): the SM count is the arch's default product's, and
// the note that derives the value says it is assumed
// (analyses/values/ValueEvaluatorDevice.cpp, TargetGpu::productAssumed).
// RUN-ARGS: --gpu=sm_90 --checks=-*,cuda-launch-tiny-grid
#include <cuda_runtime.h>

// A grid-stride kernel: more blocks would share its work, so a grid that
// leaves SMs idle is worth a finding (cuda-launch-tiny-grid).
__global__ void work(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = 0.0f;
}

void halfTheSms(float *p) {
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0); // expect-note {{'sms' is 132 on H100 SXM (assumed: the default product of sm_90) (cudaDevAttrMultiProcessorCount)}}
  work<<<sms / 2, 256>>>(p, 1 << 24); // expect-warning {{grid of 66 blocks on H100 SXM (sm_90, 132 SMs) leaves 66 of its 132 SMs idle (50.0%)}} [cuda-launch-tiny-grid]
}

void aFixedProduct(float *p) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // One block per SM: nothing idle, nothing to say.
  work<<<prop.multiProcessorCount, 256>>>(p, 1 << 24);
}
