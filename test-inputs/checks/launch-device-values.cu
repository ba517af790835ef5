// Test input for launch values read from the device, per target GPU
// (analyses/values/ValueEvaluatorDevice.cpp): cudaGetDeviceProperties,
// cudaDeviceGetAttribute, and the occupancy API answered by the engine for the
// kernel's ptxas resources (test-inputs/checks/ptxas/regenerate.sh), seen
// through cuda-occupancy-report's remark (it names the block and the grid).
// RUN-ARGS: --gpu=H100 --ptxas-log=%S/ptxas/launch-device-values.sm_90.log --checks=-*,cuda-occupancy-report
#include <cuda_runtime.h>

__global__ void work(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; } // expect-note 9 {{'work' uses 8 registers per thread, 0 bytes of static shared memory (ptxas, sm_90)}}

void properties(float *p) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  work<<<prop.multiProcessorCount * 4, prop.maxThreadsPerBlock>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 2 blocks of 1024 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 528 blocks runs in 2.00 waves}} [cuda-occupancy-report]
}

void attribute(float *p) {
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  work<<<sms, 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 132 blocks fills 12.5% of one wave}} [cuda-occupancy-report]
}

void activeBlocks(float *p) {
  int perSm;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, work, 256, 0);
  work<<<perSm * 132, 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 1056 blocks runs in 1.00 waves}} [cuda-occupancy-report]
}

void potentialBlockSize(float *p) {
  int minGrid, block;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, work, 0, 0);
  work<<<minGrid, block>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 2 blocks of 1024 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 264 blocks runs in 1.00 waves}} [cuda-occupancy-report]
}

// Written again after the query: not the device's value any more.
void notTheQuerysValue(float *p) {
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  sms = sms / 2;
  work<<<sms, 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps}} [cuda-occupancy-report]
}

// A global written once from the device, in a setup function, besides its
// constant initializer: the target's value, assumed set before it is read.
int gSms = 0;
int gThreadsPerSm = 0;
void setupDevice() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  gSms = prop.multiProcessorCount;
  gThreadsPerSm = prop.maxThreadsPerMultiProcessor;
}
void fillTheGpu(float *p) {
  work<<<gSms * 2, 1024>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 2 blocks of 1024 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 264 blocks runs in 1.00 waves}} [cuda-occupancy-report]
}
// A branch the device's values rule out on this target: one block row only
// when 48 blocks of 256 threads already hold half the GPU's threads.
void oneRowOnlyWhenTheGpuIsFull(float *p) {
  const int columns = 48;
  const int fill = gThreadsPerSm * gSms / (256 * columns);
  const int rows = fill > 1 ? fill : 1;
  if (rows == 1)
    work<<<dim3(columns, rows), 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): unknown}} [cuda-occupancy-report]
  else
    work<<<dim3(columns, rows), 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps; the grid of 1056 blocks runs in 1.00 waves}} [cuda-occupancy-report]
}
// Written twice: not the device's value.
int gWrittenTwice = 0;
void setTwice() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  gWrittenTwice = prop.multiProcessorCount;
  gWrittenTwice = 2 * prop.multiProcessorCount;
}
void readTwice(float *p) {
  work<<<gWrittenTwice, 256>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps}} [cuda-occupancy-report]
}

// A global cudaDeviceProp that one setup call fills (declared extern, as a
// header would, and defined here): its fields are the target's, assumed
// filled before they are read. Written anywhere else, it is not the device's.
extern cudaDeviceProp gProp;
cudaDeviceProp gProp;
void setupProp() { cudaGetDeviceProperties(&gProp, 0); }
void readProp(float *p) {
  const int threads = gProp.maxThreadsPerMultiProcessor == 1536 ? 768 : 1024;
  work<<<gProp.multiProcessorCount, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): 2 blocks of 1024 threads per SM}} [cuda-occupancy-report]
}
cudaDeviceProp gPropEdited;
void setupEdited() {
  cudaGetDeviceProperties(&gPropEdited, 0);
  gPropEdited.maxThreadsPerBlock = 256;
}
void readEdited(float *p) {
  work<<<8, gPropEdited.maxThreadsPerBlock>>>(p); // expect-remark {{predicted occupancy of 'work' on H100 SXM (sm_90, 132 SMs): unknown (block gPropEdited.maxThreadsPerBlock, dynamic shared memory 0)}} [cuda-occupancy-report]
}
