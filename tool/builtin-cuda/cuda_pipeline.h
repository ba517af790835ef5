/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda_pipeline.h>: the primitives of cuda_pipeline_primitives.h
 * plus the older C++ wrapper nvcuda::experimental::pipeline with its
 * memcpy_async overloads and segment<N>().
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_PIPELINE_H
#define OCCLINT_STUB_CUDA_PIPELINE_H
#include "cuda_pipeline_primitives.h"

namespace nvcuda {
namespace experimental {

class pipeline {
public:
  __device__ pipeline();
  pipeline(const pipeline &) = delete;
  pipeline(pipeline &&) = delete;
  pipeline &operator=(const pipeline &) = delete;
  pipeline &operator=(pipeline &&) = delete;
  __device__ size_t commit();
  __device__ void commit_and_wait();
  __device__ void wait(size_t batch);
  template <unsigned N> __device__ void wait_prior();

private:
  size_t batch_;
};

template <class T>
__device__ void memcpy_async(T &dst, const T &src, pipeline &pipe);
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T (*dst)[DstN], const T (*src)[SrcN],
                             pipeline &pipe);
/* A pointer viewed as a pointer to an array of N elements. */
template <size_t N, typename T> __device__ auto segment(T *ptr) -> T (*)[N];

} // namespace experimental
} // namespace nvcuda

#endif /* OCCLINT_STUB_CUDA_PIPELINE_H */
