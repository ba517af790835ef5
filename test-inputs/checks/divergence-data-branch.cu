// Test input for cuda-divergence-data-branch (analyses/checks/DivergenceBranchCheck.cpp,
// DivergenceDataBranchCheck): splits decided by data; the splits decided by
// the thread index are cuda-divergence-branch's (divergence-branch.cu).
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-divergence-data-branch
#include <cuda_runtime.h>

// A value loaded at a per-thread address.
__global__ void loadedKey(const int *keys, float *out) {
  int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  if (k > 0) { // expect-warning {{this branch splits warps: lanes take different paths depending on per-thread data on 'k > 0'}} [cuda-divergence-data-branch]
    out[threadIdx.x] = sinf(float(k)) * 2.0f + cosf(float(k));
    out[threadIdx.x + 1] = float(k) * 3.0f;
  }
}

// A per-thread trip count read from memory (CSR rows).
__global__ void csrRows(const int *rowPtr, const float *vals, float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int k = rowPtr[row]; k < rowPtr[row + 1]; ++k) // expect-warning {{the trip count of this loop differs between the lanes of a warp (lanes take different paths depending on per-thread data}} [cuda-divergence-data-branch]
      sum += vals[k] * vals[k] + 1.0f;
    y[row] = sum;
  }
}

// An atomic's result.
__global__ void ticket(int *counter, float *out) {
  int t = atomicAdd(counter, 1);
  if (t % 2 == 0) { // expect-warning {{depending on per-thread data on 't % 2 == 0'}} [cuda-divergence-data-branch]
    out[threadIdx.x] = out[threadIdx.x] * 2.0f + out[threadIdx.x + 1];
    out[threadIdx.x + 2] = 1.0f;
  }
}

// A variable assigned under a data branch is data where the paths join.
__global__ void joinedUnderData(const float *in, float *out) {
  int n = 4;
  if (in[threadIdx.x] > 0.5f) // a light branch: not reported itself
    n = 8;
  for (int k = 0; k < n; k++) // expect-warning {{depending on per-thread data on 'k < n'}} [cuda-divergence-data-branch]
    out[threadIdx.x * 8 + k] = in[k] * 2.0f + in[k + 1];
}

// Splits decided by the thread index alone are not this check's.
__global__ void indexOnly(float *a) {
  if (threadIdx.x % 2 == 0) {
    a[threadIdx.x] = a[threadIdx.x] * a[threadIdx.x] + 1.0f;
    a[threadIdx.x + 1] = a[threadIdx.x + 2] * 3.0f;
  }
}
