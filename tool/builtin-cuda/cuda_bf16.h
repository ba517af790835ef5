/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda_bf16.h>, minimal: __nv_bfloat16 / nv_bfloat16 /
 * __nv_bfloat162, conversions, operators and the common __h* intrinsics.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_BF16_H
#define OCCLINT_STUB_CUDA_BF16_H
#include "cuda_fp16.h" /* for OCCLINT_HALF_LIKE; the real one includes it too */

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &hr);
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ __nv_bfloat16(double f);
  __host__ __device__ __nv_bfloat16(short v);
  __host__ __device__ __nv_bfloat16(unsigned short v);
  __host__ __device__ __nv_bfloat16(int v);
  __host__ __device__ __nv_bfloat16(unsigned int v);
  __host__ __device__ __nv_bfloat16(long long v);
  __host__ __device__ __nv_bfloat16(unsigned long long v);
  __host__ __device__ operator float() const;
  __host__ __device__ operator __nv_bfloat16_raw() const;
};
typedef __nv_bfloat16 nv_bfloat16;

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a,
                                     const __nv_bfloat16 &b)
      : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &h2r);
  __host__ __device__ operator __nv_bfloat162_raw() const;
};
typedef __nv_bfloat162 nv_bfloat162;

OCCLINT_HALF_LIKE(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)

__host__ __device__ __nv_bfloat16 __float2bfloat16(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rz(const float a);
__host__ __device__ __nv_bfloat16 __double2bfloat16(const double a);
__host__ __device__ float __bfloat162float(const __nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(const float a);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(const float a,
                                                         const float b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);

#endif /* OCCLINT_STUB_CUDA_BF16_H */
