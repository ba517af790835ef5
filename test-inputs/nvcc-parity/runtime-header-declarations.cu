// nvcc: cuda_runtime.h includes <time.h>, <string.h>, <stdio.h>, <stdlib.h>,
// <math.h> and others for every .cu file (crt/common_functions.h,
// crt/math_functions.h), so host code uses clock(), CLOCKS_PER_SEC, memcpy and
// the global isfinite/isnan without including them. Clang's CUDA wrapper
// includes only some of them (not <math.h>, whose C++ form puts isfinite into
// the global namespace; not <time.h>).
// flags: -std=c++17

__global__ void fill(float *data, float value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value;
}

double elapsedSeconds(clock_t start) { return double(clock() - start) / CLOCKS_PER_SEC; }

bool allFinite(const double *values, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(values[i]) || isnan(values[i]))
      return false;
  return true;
}

void copyName(char *to, const char *from) { memcpy(to, from, strlen(from) + 1); }

void launch(float *data, int n) { fill<<<(n + 255) / 256, 256>>>(data, 1.0f, n); }
