/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cuda_pipeline_primitives.h>: the cp.async primitives
 * __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior and,
 * for sm_70+, __pipeline_arrive_on with the __mbarrier_* primitives of
 * <cuda_awbarrier_primitives.h> (which the real header pulls in).
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_CUDA_PIPELINE_PRIMITIVES_H
#define OCCLINT_STUB_CUDA_PIPELINE_PRIMITIVES_H
#include "occlint_cuda_builtin.h"
#include <stdint.h>

/* Copy size_and_align (4, 8 or 16) bytes from global to shared memory
 * asynchronously; the last zfill bytes of the destination are zeroed. */
__device__ void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                        const void *__restrict__ src_global,
                                        size_t size_and_align,
                                        size_t zfill = 0);
/* Close the current batch of asynchronous copies. */
__device__ void __pipeline_commit();
/* Wait until at most `prior` committed batches are still in flight. */
__device__ void __pipeline_wait_prior(size_t prior);

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
typedef uint64_t __mbarrier_t;
typedef uint64_t __mbarrier_token_t;
__host__ __device__ uint32_t __mbarrier_maximum_count();
__device__ void __mbarrier_init(__mbarrier_t *barrier, uint32_t expected_count);
__device__ void __mbarrier_inval(__mbarrier_t *barrier);
__device__ __mbarrier_token_t __mbarrier_arrive(__mbarrier_t *barrier);
__device__ __mbarrier_token_t __mbarrier_arrive_and_drop(__mbarrier_t *barrier);
__device__ bool __mbarrier_test_wait(__mbarrier_t *barrier,
                                     __mbarrier_token_t token);
__device__ uint32_t __mbarrier_token_pending_count(__mbarrier_token_t token);
__device__ bool __mbarrier_test_wait_parity(__mbarrier_t *barrier,
                                            bool phase_parity);
__device__ bool __mbarrier_try_wait(__mbarrier_t *barrier,
                                    __mbarrier_token_t token,
                                    uint32_t max_sleep_nanosec);
__device__ bool __mbarrier_try_wait_parity(__mbarrier_t *barrier,
                                           bool phase_parity,
                                           uint32_t max_sleep_nanosec);
/* The barrier's pending count drops when this thread's earlier
 * __pipeline_memcpy_async copies have landed. */
__device__ void __pipeline_arrive_on(__mbarrier_t *barrier);
#endif

#endif /* OCCLINT_STUB_CUDA_PIPELINE_PRIMITIVES_H */
