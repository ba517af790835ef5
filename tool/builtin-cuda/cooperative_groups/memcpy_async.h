/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cooperative_groups/memcpy_async.h> (not included by
 * <cooperative_groups.h>): cg::memcpy_async (bytes, with a size_t or a
 * cuda::aligned_size_t<N> count, or elements with a count on each side),
 * cg::wait and cg::wait_prior<N>.  Like the real one it includes
 * <cuda_pipeline.h>.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define OCCLINT_STUB_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include "../cuda_pipeline.h"

namespace cooperative_groups {

/* The group copies count bytes (T = void) or bytes of T elements and
 * commits them as one batch. */
template <class Group, typename T, typename Size>
__device__ void memcpy_async(const Group &group, T *__restrict__ dst,
                             const T *__restrict__ src, const Size &count);
/* The group copies min(dst_count, src_count) elements of T. */
template <class Group, class T, typename DstCount, typename SrcCount>
__device__ void memcpy_async(const Group &group, T *__restrict__ dst,
                             const DstCount &dst_count,
                             const T *__restrict__ src,
                             const SrcCount &src_count);
/* Wait until at most Stage batches are in flight, then sync the group. */
template <unsigned int Stage, class Group>
__device__ void wait_prior(const Group &group);
/* Wait for all batches, then sync the group. */
template <class Group> __device__ void wait(const Group &group);

} // namespace cooperative_groups

#endif /* OCCLINT_STUB_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H */
