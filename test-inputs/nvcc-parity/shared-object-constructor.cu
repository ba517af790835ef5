// nvcc accepts a __shared__ variable of a class type whose constructor is not
// empty (it warns that the dynamic initialization is not supported and does
// not run it). Clang rejects it ("initialization is not supported for
// __shared__ variables"); occlint parses the file again with that
// declaration's `__shared__` spelled `__occlsh__` (same length; the prelude
// makes it an annotated local that the analyses count as shared memory), so
// the kernel is analysed (tool/lint/SharedDeclarationOverlay.h).
// flags: -std=c++17

struct Counter {
  int value;
  __device__ Counter() : value(0) {}
};

__global__ void countFlags(int *out) {
  __shared__ Counter counter;
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = counter.value;
  __syncthreads();
  out[threadIdx.x] = flag;
}

__global__ void clean(float *data) { data[threadIdx.x] = 0.0f; }

void launch(int *out, float *data) {
  countFlags<<<1, 128>>>(out);
  clean<<<1, 100>>>(data);
}
