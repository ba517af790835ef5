// A project header that picks its runtime by the compiler, as portable
// CUDA/HIP code does: nvcc defines __NVCC__, hipcc does not.
#pragma once
#ifdef __NVCC__
#include <cuda_runtime.h>
#define PICKED_CUDA 1
#else
#include <hip/hip_runtime.h>
#endif
