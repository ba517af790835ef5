/*
 * occlint_cuda_builtin.h -- occlint's built-in minimal CUDA headers
 * ("source-only mode").
 *
 * Declarations only, enough for Clang to parse; never used to compile code.
 *
 * occlint force-includes this file (-include occlint_cuda_builtin.h, with
 * -nocudainc -nocudalib) when no CUDA toolkit is installed, so that typical
 * CUDA sources that #include <cuda_runtime.h> and friends still parse and
 * give Clang the same AST facts (CUDAGlobalAttr, CUDALaunchBoundsAttr,
 * CUDAKernelCallExpr, __shared__/__constant__ variables, ...) as the real
 * toolkit headers would.  The stubs next to this file (cuda_runtime.h,
 * cooperative_groups.h, cuda_fp16.h, curand_kernel.h, ...) only include this
 * file or add their small part.
 *
 * What is here mirrors clang's __clang_cuda_runtime_wrapper.h: the attribute
 * macros of crt/host_defines.h, the builtin variables and device intrinsics
 * from Clang's own resource headers (__clang_cuda_*.h), plus hand-written
 * declarations of the runtime API (cudaMalloc, cudaLaunchKernelEx, ...).
 * Host functions have no bodies.  See docs/source-only-mode.md.
 */
#ifndef OCCLINT_CUDA_BUILTIN_H
#define OCCLINT_CUDA_BUILTIN_H

/* With the real toolkit Clang has already included its runtime wrapper;
 * then this file must do nothing. */
#if defined(__CUDA__) && defined(__clang__) && \
    !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)

#define OCCLINT_CUDA_SOURCE_ONLY 1

/* ---- version macros (what user code tests with #if) -------------------- */
#define CUDA_VERSION 12080
#define CUDART_VERSION 12080
#define __CUDART_API_VERSION 12080
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0

/* Standard headers first, as the Clang wrapper does (__CUDACC__ keeps
 * libstdc++ away from __float128). */
#include <__clang_cuda_math_forward_declares.h>
#define __CUDACC__
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>
#undef __CUDACC__

/* ---- crt/host_defines.h ------------------------------------------------- */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __maxnreg__(a) __attribute__((maxnreg(a)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __no_return__ __attribute__((noreturn))
#define __thread__ __thread
#define __device_builtin__
#define __cudart_builtin__
#define __nv_pure__
#define CUDARTAPI
#define CUDARTAPI_CDECL
/* __restrict__ and __inline__ are GNU keywords Clang already knows. */

/* ---- built-in variables: threadIdx, blockIdx, blockDim, gridDim, warpSize */
#include <__clang_cuda_builtin_vars.h>
#define __DEVICE_LAUNCH_PARAMETERS_H__

/* ---- vector_types.h ---------------------------------------------------- */
#define OCCLINT_VEC(T, N, ALIGN2, ALIGN4)                                      \
  struct N##1 { T x; };                                                        \
  struct __align__(ALIGN2) N##2 { T x, y; };                                   \
  struct N##3 { T x, y, z; };                                                  \
  struct __align__(ALIGN4) N##4 { T x, y, z, w; };                             \
  typedef struct N##1 N##1;                                                    \
  typedef struct N##2 N##2;                                                    \
  typedef struct N##3 N##3;                                                    \
  typedef struct N##4 N##4;                                                    \
  static __inline__ __host__ __device__ N##1 make_##N##1(T x) {                \
    N##1 t; t.x = x; return t; }                                               \
  static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) {           \
    N##2 t; t.x = x; t.y = y; return t; }                                      \
  static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z) {      \
    N##3 t; t.x = x; t.y = y; t.z = z; return t; }                             \
  static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { \
    N##4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }

OCCLINT_VEC(signed char, char, 2, 4)
OCCLINT_VEC(unsigned char, uchar, 2, 4)
OCCLINT_VEC(short, short, 4, 8)
OCCLINT_VEC(unsigned short, ushort, 4, 8)
OCCLINT_VEC(int, int, 8, 16)
OCCLINT_VEC(unsigned int, uint, 8, 16)
OCCLINT_VEC(long, long, 16, 16)
OCCLINT_VEC(unsigned long, ulong, 16, 16)
OCCLINT_VEC(long long, longlong, 16, 16)
OCCLINT_VEC(unsigned long long, ulonglong, 16, 16)
OCCLINT_VEC(float, float, 8, 16)
OCCLINT_VEC(double, double, 16, 16)
#undef OCCLINT_VEC

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3(void) const {
    return uint3{x, y, z};
  }
};
typedef struct dim3 dim3;

/* Out-of-line parts of __clang_cuda_builtin_vars.h (as in the wrapper). */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

/* ---- driver_types.h (subset) ------------------------------------------- */
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorLaunchFailure = 719,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotReady = 600,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUfunc_st *cudaFunction_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
};

/* Common fields only (CUDA 13 removed clockRate & co., so they are absent). */
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

/* ---- launch configuration (cudaLaunchKernelEx) ------------------------- */
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8
};
typedef enum cudaLaunchAttributeID cudaLaunchAttributeID;

enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0,
  cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2
};

union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  int priority;
};
typedef union cudaLaunchAttributeValue cudaLaunchAttributeValue;

struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
typedef struct cudaLaunchAttribute_st cudaLaunchAttribute;

struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
};
typedef struct cudaLaunchConfig_st cudaLaunchConfig_t;

/* ---- <<<grid, block, smem, stream>>> -------------------------------------
 * Sema looks the configure function up by name: __cudaPushCallConfiguration
 * when the CUDA SDK version it was given is >= 9.2, cudaConfigureCall
 * otherwise (no toolkit found => no SDK version).  Declare both.  The
 * __cudaPushCallConfiguration signature is the one Clang's wrapper uses. */
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0,
                                                void *stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                         size_t sharedMem = 0,
                                         cudaStream_t stream = 0);

/* ---- cuda_runtime_api.h (host functions, declarations only) ------------ */
extern "C" {
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream = 0);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                               size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);

cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
/* also callable from device code (device runtime) */
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                   int device);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);

cudaError_t cudaStreamCreate(cudaStream_t *pStream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                      unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags = 0);
cudaError_t cudaStreamQuery(cudaStream_t stream);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem,
                             cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                const void *func, void **args);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                        dim3 blockDim, void **args,
                                        size_t sharedMem,
                                        cudaStream_t stream);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                  const void *func);
cudaError_t cudaFuncSetCacheConfig(const void *func,
                                   enum cudaFuncCache cacheConfig);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                          const void *func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags);
cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize,
                                                 const void *func,
                                                 const cudaLaunchConfig_t *config);
cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                           const cudaLaunchConfig_t *config);
} /* extern "C" */

/* ---- cuda_runtime.h C++ overloads (templates taking the kernel itself) --
 * Declared without bodies and without "static inline" (which would make
 * Clang warn -Wundefined-internal for every use). */
template <class T>
__host__ cudaError_t cudaMalloc(T **devPtr, size_t size);
template <class T>
__host__ cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal);
template <class T>
__host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
                                                      unsigned int flags = 0);
template <class T>
__host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
__host__ cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T>
__host__ cudaError_t
cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0);
template <typename... ExpTypes, typename... ActTypes>
__host__ cudaError_t
cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                   void (*kernel)(ExpTypes...), ActTypes &&...args);
template <class T>
__host__ cudaError_t
cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                            void **args, size_t sharedMem = 0,
                            cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t
cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value);
template <class T>
__host__ cudaError_t
cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry);
template <class T>
__host__ cudaError_t
cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig);
template <class T>
__host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMemSize);
template <class T>
__host__ cudaError_t
cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                   size_t dynamicSMemSize = 0,
                                   int blockSizeLimit = 0);
template <class T>
__host__ cudaError_t
cudaOccupancyMaxPotentialClusterSize(int *clusterSize, T *func,
                                     const cudaLaunchConfig_t *config);
template <class T>
__host__ cudaError_t
cudaOccupancyMaxActiveClusters(int *numClusters, T *func,
                               const cudaLaunchConfig_t *config);

/* ---- device side: math and intrinsics from Clang's resource headers ---- */
/* These need CUDA_VERSION, __device__, __forceinline__, dim3, the vector
 * types and cuuint32_t, all defined above.  __clang_cuda_intrinsics.h
 * includes "crt/sm_70_rt.hpp", for which a stub lives next to this file. */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
}
namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) { return ::malloc(__size); }
} // namespace std

#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#undef __THROW
#define __THROW

/* __isShared & co. (sm_20_intrinsics), needed by __clang_cuda_intrinsics.h */
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isShared(const void *p) { return __nvvm_isspacep_shared(p); }
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isConstant(const void *p) { return __nvvm_isspacep_const(p); }
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isLocal(const void *p) { return __nvvm_isspacep_local(p); }

/* address-space conversions (sm_20_intrinsics.h) */
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_constant(const void *ptr);
__device__ size_t __cvta_generic_to_local(const void *ptr);
__device__ void *__cvta_global_to_generic(size_t rawbits);
__device__ void *__cvta_shared_to_generic(size_t rawbits);
__device__ void *__cvta_constant_to_generic(size_t rawbits);
__device__ void *__cvta_local_to_generic(size_t rawbits);

#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>

/* ---- math_functions.hpp: min/max overloads beyond clang's int ones ----- */
__host__ __device__ unsigned int min(unsigned int a, unsigned int b);
__host__ __device__ unsigned int min(int a, unsigned int b);
__host__ __device__ unsigned int min(unsigned int a, int b);
__host__ __device__ long long min(long long a, long long b);
__host__ __device__ unsigned long long min(unsigned long long a,
                                           unsigned long long b);
__host__ __device__ float min(float a, float b);
__host__ __device__ double min(double a, double b);
__host__ __device__ double min(float a, double b);
__host__ __device__ double min(double a, float b);
__host__ __device__ unsigned int max(unsigned int a, unsigned int b);
__host__ __device__ unsigned int max(int a, unsigned int b);
__host__ __device__ unsigned int max(unsigned int a, int b);
__host__ __device__ long long max(long long a, long long b);
__host__ __device__ unsigned long long max(unsigned long long a,
                                           unsigned long long b);
__host__ __device__ float max(float a, float b);
__host__ __device__ double max(double a, double b);
__host__ __device__ double max(float a, double b);
__host__ __device__ double max(double a, float b);

/* ---- device_atomic_functions.h / sm_60 / sm_90 (declarations) ---------- */
#define OCCLINT_ATOMIC_RMW(NAME)                                               \
  __device__ int NAME(int *address, int val);                                  \
  __device__ unsigned int NAME(unsigned int *address, unsigned int val);       \
  __device__ unsigned long long NAME(unsigned long long *address,              \
                                     unsigned long long val);                  \
  __device__ int NAME##_block(int *address, int val);                          \
  __device__ unsigned int NAME##_block(unsigned int *address,                  \
                                       unsigned int val);                      \
  __device__ int NAME##_system(int *address, int val);                         \
  __device__ unsigned int NAME##_system(unsigned int *address,                 \
                                        unsigned int val);
OCCLINT_ATOMIC_RMW(atomicAdd)
OCCLINT_ATOMIC_RMW(atomicExch)
OCCLINT_ATOMIC_RMW(atomicMin)
OCCLINT_ATOMIC_RMW(atomicMax)
OCCLINT_ATOMIC_RMW(atomicAnd)
OCCLINT_ATOMIC_RMW(atomicOr)
OCCLINT_ATOMIC_RMW(atomicXor)
#undef OCCLINT_ATOMIC_RMW
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ float atomicAdd_block(float *address, float val);
__device__ float atomicAdd_system(float *address, float val);
__device__ float2 atomicAdd(float2 *address, float2 val);
__device__ float4 atomicAdd(float4 *address, float4 val);
__device__ float atomicExch(float *address, float val);
__device__ long long atomicMin(long long *address, long long val);
__device__ long long atomicMax(long long *address, long long val);
__device__ float atomicMin(float *address, float val);
__device__ float atomicMax(float *address, float val);
__device__ int atomicSub(int *address, int val);
__device__ unsigned int atomicSub(unsigned int *address, unsigned int val);
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address,
                                        unsigned long long compare,
                                        unsigned long long val);
__device__ int atomicCAS_block(int *address, int compare, int val);
__device__ int atomicCAS_system(int *address, int compare, int val);

/* ---- misc device functions --------------------------------------------- */
/* __syncthreads is a Clang builtin; crt/device_functions.h declares it, so
 * declare it too (otherwise Clang adds an implicit declaration at the first
 * call, inside the user's file). */
extern "C" __device__ void __syncthreads(void);
__device__ unsigned long long __globaltimer(void);
__device__ void __nanosleep(unsigned int ns);

#endif /* __CUDA__ && __clang__ && !__CLANG_CUDA_RUNTIME_WRAPPER_H__ */
#endif /* OCCLINT_CUDA_BUILTIN_H */
