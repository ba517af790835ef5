// nvcc preprocesses with the host compiler, so <omp.h> comes from GCC's own
// include directory (lib/gcc/<triple>/<version>/include) even without
// -fopenmp. Clang does not search it; occlint adds it with -idirafter, after
// Clang's own headers, found through the allowed host compiler
// (`g++ -print-file-name=include`).
// flags: -std=c++17
#include <omp.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

int hostThreads() { return omp_get_max_threads(); }

void launch(const float *x, float *y, int n) { axpy<<<(n + 127) / 128, 128>>>(2.0f, x, y, n); }
