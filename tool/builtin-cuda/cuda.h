/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda.h>.  Runtime part from occlint_cuda_builtin.h plus a few driver-API names.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_H
#define OCCLINT_STUB_CUDA_H
#include "occlint_cuda_builtin.h"

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

extern "C" {
CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *driverVersion);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetCount(int *count);
CUresult cuGetErrorString(CUresult error, const char **pStr);
CUresult cuGetErrorName(CUresult error, const char **pStr);
}
#endif
