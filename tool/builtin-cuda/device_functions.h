/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <device_functions.h>.  Everything lives in occlint_cuda_builtin.h.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_DEVICE_FUNCTIONS_H
#define OCCLINT_STUB_DEVICE_FUNCTIONS_H
#include "occlint_cuda_builtin.h"
#endif
