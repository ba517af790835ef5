/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <curand_kernel.h>, minimal: the XORWOW (default), Philox and
 * MRG32k3a states, curand_init, curand, curand_uniform/normal(/double),
 * curand_uniform4/normal4 for Philox.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CURAND_KERNEL_H
#define OCCLINT_STUB_CURAND_KERNEL_H
#include "occlint_cuda_builtin.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandState_t curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

#define OCCLINT_CURAND(S)                                                      \
  __device__ void curand_init(unsigned long long seed,                         \
                              unsigned long long subsequence,                  \
                              unsigned long long offset, S *state);            \
  __device__ unsigned int curand(S *state);                                    \
  __device__ float curand_uniform(S *state);                                   \
  __device__ double curand_uniform_double(S *state);                           \
  __device__ float curand_normal(S *state);                                    \
  __device__ double curand_normal_double(S *state);                            \
  __device__ float2 curand_normal2(S *state);                                  \
  __device__ float curand_log_normal(S *state, float mean, float stddev);      \
  __device__ unsigned int curand_poisson(S *state, double lambda);             \
  __device__ void skipahead(unsigned long long n, S *state);
OCCLINT_CURAND(curandStateXORWOW_t)
OCCLINT_CURAND(curandStatePhilox4_32_10_t)
OCCLINT_CURAND(curandStateMRG32k3a_t)
#undef OCCLINT_CURAND

__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);

#endif /* OCCLINT_STUB_CURAND_KERNEL_H */
