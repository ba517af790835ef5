// nvcc: crt/math_functions.hpp declares min/max for int, unsigned, long,
// long long, float and double (and the mixed signed/unsigned and float/double
// pairs) __host__ __device__. Clang 22's CUDA headers declare them for the
// device only, so host code calling min(a, b) does not parse without occlint's
// prelude. Each static_assert checks that the call picks the overload nvcc
// picks (its return type), in host, device and host-device code.
// flags: -std=c++17
#include <type_traits>

#define SAME_TYPE(E, T) static_assert(std::is_same<decltype(E), T>::value, #E " resolves as under nvcc")
#define NVCC_OVERLOADS(i, u, l, ul, f, d)                                                                            \
  SAME_TYPE(min(i, i), int);                                                                                     \
  SAME_TYPE(max(i, u), unsigned int);                                                                            \
  SAME_TYPE(min(u, i), unsigned int);                                                                            \
  SAME_TYPE(min(l, l), long);                                                                                    \
  SAME_TYPE(max(l, ul), unsigned long);                                                                          \
  SAME_TYPE(min(1LL, 2ULL), unsigned long long);                                                                 \
  SAME_TYPE(min(f, f), float);                                                                                   \
  SAME_TYPE(max(f, d), double);                                                                                  \
  SAME_TYPE(min(d, f), double)

int clampHost(int value, int limit, unsigned count, long l, unsigned long ul, float f, double d) {
  NVCC_OVERLOADS(value, count, l, ul, f, d);
  return min(value, limit) + max(value, 0);
}

__device__ int clampDevice(int value, unsigned count, long l, unsigned long ul, float f, double d) {
  NVCC_OVERLOADS(value, count, l, ul, f, d);
  return min(value, 4);
}

__host__ __device__ int clampBoth(int value, unsigned count, long l, unsigned long ul, float f, double d) {
  NVCC_OVERLOADS(value, count, l, ul, f, d);
  return max(value, 1);
}

__global__ void scale(float *data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = min(data[i], 1.0f);
}

void launch(float *data, int n) { scale<<<max((n + 255) / 256, 1), 256>>>(data, n); }
