/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's crt/sm_70_rt.hpp, which Clang's __clang_cuda_intrinsics.h
 * includes.  Declarations only, enough for Clang to parse; never used to
 * compile code.
 */
#ifndef __SM_70_RT_HPP__
#define __SM_70_RT_HPP__

#define OCCLINT_MATCH(T)                                                       \
  __device__ unsigned int __match_any_sync(unsigned mask, T value);            \
  __device__ unsigned int __match_all_sync(unsigned mask, T value, int *pred);
OCCLINT_MATCH(unsigned)
OCCLINT_MATCH(int)
OCCLINT_MATCH(unsigned long)
OCCLINT_MATCH(long)
OCCLINT_MATCH(unsigned long long)
OCCLINT_MATCH(long long)
OCCLINT_MATCH(float)
OCCLINT_MATCH(double)
#undef OCCLINT_MATCH

__device__ void __nanosleep(unsigned int ns);
__device__ unsigned short int atomicCAS(unsigned short int *address,
                                        unsigned short int compare,
                                        unsigned short int val);

#endif /* __SM_70_RT_HPP__ */
