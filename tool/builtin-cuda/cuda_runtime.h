/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda_runtime.h>.  Everything lives in occlint_cuda_builtin.h.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_RUNTIME_H
#define OCCLINT_STUB_CUDA_RUNTIME_H
#include "occlint_cuda_builtin.h"
#endif
