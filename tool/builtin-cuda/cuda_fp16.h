/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda_fp16.h>, minimal: __half / half / __half2, conversions,
 * arithmetic operators and the common __h* intrinsics.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_FP16_H
#define OCCLINT_STUB_CUDA_FP16_H
#include "occlint_cuda_builtin.h"

struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const __half_raw &hr);
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(short v);
  __host__ __device__ __half(unsigned short v);
  __host__ __device__ __half(int v);
  __host__ __device__ __half(unsigned int v);
  __host__ __device__ __half(long long v);
  __host__ __device__ __half(unsigned long long v);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __half_raw() const;
};
typedef __half half;

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &h2r);
  __host__ __device__ operator __half2_raw() const;
};
typedef __half2 half2;

/* Shared by cuda_fp16.h and cuda_bf16.h: operators and the __h* set. */
#define OCCLINT_HALF_LIKE(H, H2, S, S2)                                             \
  __device__ H operator+(const H &a, const H &b);                              \
  __device__ H operator-(const H &a, const H &b);                              \
  __device__ H operator*(const H &a, const H &b);                              \
  __device__ H operator/(const H &a, const H &b);                              \
  __device__ H &operator+=(H &a, const H &b);                                  \
  __device__ H &operator-=(H &a, const H &b);                                  \
  __device__ H &operator*=(H &a, const H &b);                                  \
  __device__ H &operator/=(H &a, const H &b);                                  \
  __device__ H operator-(const H &a);                                          \
  __device__ bool operator==(const H &a, const H &b);                          \
  __device__ bool operator!=(const H &a, const H &b);                          \
  __device__ bool operator<(const H &a, const H &b);                           \
  __device__ bool operator>(const H &a, const H &b);                           \
  __device__ bool operator<=(const H &a, const H &b);                          \
  __device__ bool operator>=(const H &a, const H &b);                          \
  __device__ H2 operator+(const H2 &a, const H2 &b);                           \
  __device__ H2 operator-(const H2 &a, const H2 &b);                           \
  __device__ H2 operator*(const H2 &a, const H2 &b);                           \
  __device__ H2 &operator+=(H2 &a, const H2 &b);                               \
  __device__ H2 &operator*=(H2 &a, const H2 &b);                               \
  __device__ H __hadd(const H a, const H b);                                   \
  __device__ H __hsub(const H a, const H b);                                   \
  __device__ H __hmul(const H a, const H b);                                   \
  __device__ H __hdiv(const H a, const H b);                                   \
  __device__ H __hfma(const H a, const H b, const H c);                        \
  __device__ H __hneg(const H a);                                              \
  __device__ H __habs(const H a);                                              \
  __device__ H __hmax(const H a, const H b);                                   \
  __device__ H __hmin(const H a, const H b);                                   \
  __device__ bool __heq(const H a, const H b);                                 \
  __device__ bool __hlt(const H a, const H b);                                 \
  __device__ bool __hgt(const H a, const H b);                                 \
  __device__ H2 __hadd2(const H2 a, const H2 b);                               \
  __device__ H2 __hsub2(const H2 a, const H2 b);                               \
  __device__ H2 __hmul2(const H2 a, const H2 b);                               \
  __device__ H2 __hfma2(const H2 a, const H2 b, const H2 c);                   \
  __host__ __device__ H2 __halves2##S2(const H a, const H b);                  \
  __host__ __device__ float __low2float(const H2 a);                           \
  __host__ __device__ float __high2float(const H2 a);                          \
  __host__ __device__ float2 __##S2##2float2(const H2 a);                      \
  __device__ H __low2##S(const H2 a);                                          \
  __device__ H __high2##S(const H2 a);                                         \
  __device__ H hsqrt(const H a);                                               \
  __device__ H hrsqrt(const H a);                                              \
  __device__ H hexp(const H a);                                                \
  __device__ H hlog(const H a);                                                \
  __device__ H __shfl_sync(unsigned mask, H var, int srcLane,                  \
                           int width = warpSize);                              \
  __device__ H __shfl_up_sync(unsigned mask, H var, unsigned delta,            \
                              int width = warpSize);                           \
  __device__ H __shfl_down_sync(unsigned mask, H var, unsigned delta,          \
                                int width = warpSize);                         \
  __device__ H __shfl_xor_sync(unsigned mask, H var, int laneMask,             \
                               int width = warpSize);                          \
  __device__ H2 __shfl_sync(unsigned mask, H2 var, int srcLane,                \
                            int width = warpSize);                             \
  __device__ H2 __shfl_down_sync(unsigned mask, H2 var, unsigned delta,        \
                                 int width = warpSize);                        \
  __device__ H2 __shfl_xor_sync(unsigned mask, H2 var, int laneMask,           \
                                int width = warpSize);                         \
  __device__ H __ldg(const H *ptr);                                            \
  __device__ H2 __ldg(const H2 *ptr);                                          \
  __device__ H atomicAdd(H *address, H val);                                   \
  __device__ H2 atomicAdd(H2 *address, H2 val);

OCCLINT_HALF_LIKE(__half, __half2, half, half2)

__host__ __device__ __half __float2half(const float a);
__host__ __device__ __half __float2half_rn(const float a);
__host__ __device__ __half __float2half_rz(const float a);
__host__ __device__ __half __double2half(const double a);
__host__ __device__ float __half2float(const __half a);
__host__ __device__ __half2 __float2half2_rn(const float a);
__host__ __device__ __half2 __floats2half2_rn(const float a, const float b);
__host__ __device__ __half2 __half2half2(const __half a);
__device__ __half __int2half_rn(const int i);
__device__ int __half2int_rn(const __half h);
__device__ int __half2int_rz(const __half h);

#endif /* OCCLINT_STUB_CUDA_FP16_H */
