/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <vector_types.h>.  Everything lives in occlint_cuda_builtin.h.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_VECTOR_TYPES_H
#define OCCLINT_STUB_VECTOR_TYPES_H
#include "occlint_cuda_builtin.h"
#endif
