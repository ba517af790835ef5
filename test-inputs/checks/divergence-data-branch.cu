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

// The mark survives a compound assignment and an element of a thread's own
// array: the mask is a table entry picked by loaded values, then narrowed
// by an index-dependent mask; the score is kept in a local array.
__global__ void edgeMaskOfLoadedCase(const float *grid, const unsigned short *table, float *out, float iso) {
  unsigned caseIndex = 0;
  if (grid[threadIdx.x] < iso)
    caseIndex |= 1;
  if (grid[threadIdx.x + 1] < iso)
    caseIndex |= 2;
  unsigned edges = table[caseIndex];
  edges &= (threadIdx.x % 4 == 3) ? 6u : 7u;
  if (edges & 4u) { // expect-warning {{depending on per-thread data on 'edges & 4u'}} [cuda-divergence-data-branch]
    out[threadIdx.x] = expf(grid[threadIdx.x]) * iso + logf(iso) * grid[threadIdx.x + 1];
    out[threadIdx.x + 64] = sqrtf(grid[threadIdx.x]) - iso * iso;
  }
}

__global__ void scoreInALocalArray(const float *scores, float *out, float threshold) {
  float best[2] = {-1.0f, 0.0f};
  best[1] = scores[blockIdx.x * blockDim.x + threadIdx.x];
  if (best[1] >= threshold) { // expect-warning {{depending on per-thread data on 'best[1] >= threshold'}} [cuda-divergence-data-branch]
    out[threadIdx.x] = expf(best[1]) * threshold + logf(threshold) * best[1];
    out[threadIdx.x + 64] = sqrtf(best[1]) - threshold * threshold;
  }
}

// Data through a short-circuit condition (its parts are branches of their
// own) and through a shuffle (data moved between lanes is still data).
__global__ void rankAgainstLabel(const float *scores, const int *labels, int *out, int n) {
  const int label = labels[blockIdx.x];
  const float labelScore = scores[blockIdx.x * n + label];
  int above = 0;
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    const float s = scores[blockIdx.x * n + c];
    if (s > labelScore || (s == labelScore && c <= label)) { // expect-warning {{depending on per-thread data on 's > labelScore || (s == labelScore && c <= label)'}} [cuda-divergence-data-branch]
      ++above;
      out[c] = above * 3 + c * 7 - above * above + (c ^ 5) * 11;
    }
  }
  float best = scores[threadIdx.x];
  const float other = __shfl_down_sync(0xffffffff, best, 1);
  if (other > best) { // expect-warning {{depending on per-thread data on 'other > best'}} [cuda-divergence-data-branch]
    best = other;
    for (int k = 0; k < 32; ++k) // enough work for the split to cost next to the loop above (issue 47)
      out[threadIdx.x + 64 + k] = int(expf(best) * 3.0f + logf(best) * other - sqrtf(other + k));
  }
}
