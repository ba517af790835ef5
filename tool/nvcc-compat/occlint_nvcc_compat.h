// occlint's nvcc compatibility prelude: force-included (-include) by occlint
// in every Clang parse it runs, after Clang's CUDA runtime wrapper. It
// declares what nvcc's own headers declare and Clang's CUDA headers do not,
// with nvcc's signatures, so that code nvcc compiles parses, and overload
// resolution picks the function nvcc picks. docs/nvcc-parity.md lists each
// item with the nvcc header it comes from and the test input that shows it
// (test-inputs/nvcc-parity/).
//
// Only declarations that nvcc makes visible to every .cu file belong here;
// nothing here may change the meaning of code that Clang already accepts.
#ifndef OCCLINT_NVCC_COMPAT_H
#define OCCLINT_NVCC_COMPAT_H

#if defined(__CUDA__) && defined(__cplusplus)

// --- 1. The C and C++ headers nvcc's runtime header includes --------------
// nvcc's cuda_runtime.h pulls these in for every .cu file
// (crt/common_functions.h: string.h, time.h, new, stdio.h, stdlib.h,
// assert.h; crt/math_functions.h: math.h, stdlib.h, cmath, cstdlib;
// crt/host_defines.h: ctype.h; cuda_runtime.h: utility, and functional
// with --extended-lambda, which Clang does not signal), so code
// calls clock(), CLOCKS_PER_SEC, memcpy or ::isfinite without including them.
// Clang's wrapper includes only some (cmath, cstdlib, stdlib.h, string.h) and
// not math.h, whose C++ form is what puts std::isfinite & co. into the global
// namespace for host code.
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmath>
#include <cstdlib>
#include <new>
#include <utility>
#if defined(__CUDACC_EXTENDED_LAMBDA__)
#include <functional> // costs ~0.2 s per parse: only where nvcc includes it
#endif

// --- 1b. __shared__ objects with a constructor -----------------------------
// nvcc accepts `__shared__ cuda::barrier<cuda::thread_scope_block> bar;` (it
// does not run the constructor); Clang rejects a __shared__ variable whose
// constructor is not empty. When it does, occlint parses the file again with
// that declaration's `__shared__` spelled `__occlsh__` (the same length, so
// every column stays the user's): a local whose uses stay valid, annotated
// so that the analyses count it as shared memory
// (tool/lint/SharedDeclarationOverlay.h, ast/SharedMemoryVariables.h).
#define __occlsh__ __attribute__((annotate("occlint.shared")))

#if defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__) // the toolkit's headers (not source-only mode)

// --- 2. Host-side min and max ---------------------------------------------
// crt/math_functions.hpp declares these overloads __host__ __device__ (the
// int/int pair in its !__CUDA_ARCH__ helper section); Clang's headers
// declare them for the device only, so host code calling min(a, b) does not
// parse. The same signatures, host side, give host code nvcc's overload set;
// device code keeps Clang's device overloads (same signatures, preferred on
// the device side).
#define OCCLINT_NVCC_HOST static inline __host__
#define OCCLINT_NVCC_MINMAX(R, A, B)                                                                               \
  OCCLINT_NVCC_HOST R min(const A a, const B b) {                                                                \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);                       \
  }                                                                                                              \
  OCCLINT_NVCC_HOST R max(const A a, const B b) {                                                                \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);                       \
  }
OCCLINT_NVCC_MINMAX(int, int, int)
OCCLINT_NVCC_MINMAX(unsigned int, unsigned int, unsigned int)
OCCLINT_NVCC_MINMAX(unsigned int, int, unsigned int)
OCCLINT_NVCC_MINMAX(unsigned int, unsigned int, int)
OCCLINT_NVCC_MINMAX(long int, long int, long int)
OCCLINT_NVCC_MINMAX(unsigned long int, unsigned long int, unsigned long int)
OCCLINT_NVCC_MINMAX(unsigned long int, long int, unsigned long int)
OCCLINT_NVCC_MINMAX(unsigned long int, unsigned long int, long int)
OCCLINT_NVCC_MINMAX(long long int, long long int, long long int)
OCCLINT_NVCC_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
OCCLINT_NVCC_MINMAX(unsigned long long int, long long int, unsigned long long int)
OCCLINT_NVCC_MINMAX(unsigned long long int, unsigned long long int, long long int)
OCCLINT_NVCC_MINMAX(float, float, float)
OCCLINT_NVCC_MINMAX(double, double, double)
OCCLINT_NVCC_MINMAX(double, float, double)
OCCLINT_NVCC_MINMAX(double, double, float)
#undef OCCLINT_NVCC_MINMAX
// The helpers nvcc's host section also defines (umin, llmin, ullmin, ...).
OCCLINT_NVCC_HOST unsigned int umin(const unsigned int a, const unsigned int b) { return a < b ? a : b; }
OCCLINT_NVCC_HOST unsigned int umax(const unsigned int a, const unsigned int b) { return a > b ? a : b; }
OCCLINT_NVCC_HOST long long int llmin(const long long int a, const long long int b) { return a < b ? a : b; }
OCCLINT_NVCC_HOST long long int llmax(const long long int a, const long long int b) { return a > b ? a : b; }
OCCLINT_NVCC_HOST unsigned long long int ullmin(const unsigned long long int a, const unsigned long long int b) {
  return a < b ? a : b;
}
OCCLINT_NVCC_HOST unsigned long long int ullmax(const unsigned long long int a, const unsigned long long int b) {
  return a > b ? a : b;
}
#undef OCCLINT_NVCC_HOST

// --- 3. Cache-operator loads and stores -------------------------------------
// sm_32_intrinsics.h declares __ldca, __ldlu (loads) and __stwb, __stcg,
// __stcs (stores) for every scalar and vector type below; Clang 22's
// __clang_cuda_intrinsics.h has only __ldcg, __ldcs, __ldcv and __stwt. The
// cache operator is a hint: for the analysis these are a load and a store.
#define OCCLINT_NVCC_CACHE_OPS(T)                                                                                  \
  static __device__ __inline__ T __ldca(const T *ptr) { return *ptr; }                                           \
  static __device__ __inline__ T __ldlu(const T *ptr) { return *ptr; }                                           \
  static __device__ __inline__ void __stwb(T *ptr, T value) { *ptr = value; }                                    \
  static __device__ __inline__ void __stcg(T *ptr, T value) { *ptr = value; }                                    \
  static __device__ __inline__ void __stcs(T *ptr, T value) { *ptr = value; }
OCCLINT_NVCC_CACHE_OPS(long)
OCCLINT_NVCC_CACHE_OPS(unsigned long)
OCCLINT_NVCC_CACHE_OPS(char)
OCCLINT_NVCC_CACHE_OPS(signed char)
OCCLINT_NVCC_CACHE_OPS(short)
OCCLINT_NVCC_CACHE_OPS(int)
OCCLINT_NVCC_CACHE_OPS(long long)
OCCLINT_NVCC_CACHE_OPS(char2)
OCCLINT_NVCC_CACHE_OPS(char4)
OCCLINT_NVCC_CACHE_OPS(short2)
OCCLINT_NVCC_CACHE_OPS(short4)
OCCLINT_NVCC_CACHE_OPS(int2)
OCCLINT_NVCC_CACHE_OPS(int4)
OCCLINT_NVCC_CACHE_OPS(longlong2)
OCCLINT_NVCC_CACHE_OPS(unsigned char)
OCCLINT_NVCC_CACHE_OPS(unsigned short)
OCCLINT_NVCC_CACHE_OPS(unsigned int)
OCCLINT_NVCC_CACHE_OPS(unsigned long long)
OCCLINT_NVCC_CACHE_OPS(uchar2)
OCCLINT_NVCC_CACHE_OPS(uchar4)
OCCLINT_NVCC_CACHE_OPS(ushort2)
OCCLINT_NVCC_CACHE_OPS(ushort4)
OCCLINT_NVCC_CACHE_OPS(uint2)
OCCLINT_NVCC_CACHE_OPS(uint4)
OCCLINT_NVCC_CACHE_OPS(ulonglong2)
OCCLINT_NVCC_CACHE_OPS(float)
OCCLINT_NVCC_CACHE_OPS(double)
OCCLINT_NVCC_CACHE_OPS(float2)
OCCLINT_NVCC_CACHE_OPS(float4)
OCCLINT_NVCC_CACHE_OPS(double2)
#undef OCCLINT_NVCC_CACHE_OPS

// --- 4. nvcc's built-in atomics with memory order and scope -----------------
// The order and scope constants are crt/device_functions.h's (same names,
// same values, under __CUDACC__), which Clang's wrapper does not include.
// __nv_atomic_* are nvcc built-ins (CUDA 12.8+, "built-in atomic functions"
// in the programming guide), generic in the pointee type; templates give
// them the same calls: the `_n` forms take and return values, the others
// pointers; the scope defaults to the system. For the analysis they are a
// load, a store or a read-modify-write of *ptr.
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#define OCCLINT_NVCC_SCOPE int scope = __NV_THREAD_SCOPE_SYSTEM
template <class T> static __device__ __inline__ T __nv_atomic_load_n(T *ptr, int order, OCCLINT_NVCC_SCOPE) {
  return *ptr;
}
template <class T> static __device__ __inline__ void __nv_atomic_load(T *ptr, T *ret, int order, OCCLINT_NVCC_SCOPE) {
  *ret = *ptr;
}
template <class T, class U>
static __device__ __inline__ void __nv_atomic_store_n(T *ptr, U val, int order, OCCLINT_NVCC_SCOPE) {
  *ptr = val;
}
template <class T> static __device__ __inline__ void __nv_atomic_store(T *ptr, T *val, int order, OCCLINT_NVCC_SCOPE) {
  *ptr = *val;
}
template <class T, class U>
static __device__ __inline__ T __nv_atomic_exchange_n(T *ptr, U val, int order, OCCLINT_NVCC_SCOPE) {
  T old = *ptr;
  *ptr = val;
  return old;
}
template <class T>
static __device__ __inline__ void __nv_atomic_exchange(T *ptr, T *val, T *ret, int order, OCCLINT_NVCC_SCOPE) {
  *ret = *ptr;
  *ptr = *val;
}
template <class T, class U>
static __device__ __inline__ bool __nv_atomic_compare_exchange_n(T *ptr, T *expected, U desired, bool weak,
                                                                  int success_order, int failure_order,
                                                                  OCCLINT_NVCC_SCOPE) {
  const bool equal = *ptr == *expected;
  if (equal)
    *ptr = desired;
  else
    *expected = *ptr;
  return equal;
}
template <class T>
static __device__ __inline__ bool __nv_atomic_compare_exchange(T *ptr, T *expected, T *desired, bool weak,
                                                                int success_order, int failure_order,
                                                                OCCLINT_NVCC_SCOPE) {
  return __nv_atomic_compare_exchange_n(ptr, expected, *desired, weak, success_order, failure_order, scope);
}
#define OCCLINT_NVCC_FETCH_OP(NAME, EXPR)                                                                          \
  template <class T, class U>                                                                                    \
  static __device__ __inline__ T NAME(T *ptr, U val, int order, OCCLINT_NVCC_SCOPE) {                            \
    T old = *ptr;                                                                                                \
    *ptr = EXPR;                                                                                                 \
    return old;                                                                                                  \
  }
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_add, old + val)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_sub, old - val)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_and, old & val)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_or, old | val)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_xor, old ^ val)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_min, val < old ? val : old)
OCCLINT_NVCC_FETCH_OP(__nv_atomic_fetch_max, val > old ? val : old)
#undef OCCLINT_NVCC_FETCH_OP
static __device__ __inline__ void __nv_atomic_thread_fence(int order, OCCLINT_NVCC_SCOPE) {}
#undef OCCLINT_NVCC_SCOPE

#endif // __CLANG_CUDA_RUNTIME_WRAPPER_H__
#endif // __CUDA__ && __cplusplus
#endif // OCCLINT_NVCC_COMPAT_H
