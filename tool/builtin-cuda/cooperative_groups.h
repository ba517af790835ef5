/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cooperative_groups.h>, minimal: thread_group, thread_block,
 * thread_block_tile<N>, coalesced_group, grid_group, cluster_group and the
 * functions that make them (this_thread_block, tiled_partition, this_grid,
 * this_cluster, coalesced_threads), cg::sync / thread_rank / group_size.
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_COOPERATIVE_GROUPS_H
#define OCCLINT_STUB_COOPERATIVE_GROUPS_H
#include "occlint_cuda_builtin.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ void sync() const;
  __device__ unsigned int get_type() const;
};

class thread_block : public thread_group {
public:
  __device__ static void sync();
  __device__ static unsigned int thread_rank();
  __device__ static unsigned int size();
  __device__ static unsigned int num_threads();
  __device__ static dim3 group_index();
  __device__ static dim3 thread_index();
  __device__ static dim3 group_dim();
  __device__ static dim3 dim_threads();
};
__device__ thread_block this_thread_block();

class grid_group {
public:
  __device__ static void sync();
  __device__ static bool is_valid();
  __device__ static unsigned long long thread_rank();
  __device__ static unsigned long long size();
  __device__ static unsigned long long num_threads();
  __device__ static unsigned long long block_rank();
  __device__ static unsigned long long num_blocks();
  __device__ static dim3 group_dim();
  __device__ static dim3 dim_blocks();
  __device__ static dim3 block_index();
};
__device__ grid_group this_grid();

/* Thread block clusters: the real header only offers these on sm_90+ (and,
 * under Clang, not at all: it wants __NVCC__); it signals them with
 * _CG_HAS_CLUSTER_GROUP. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define _CG_HAS_CLUSTER_GROUP
#endif
class cluster_group {
public:
  __device__ static void sync();
  __device__ static bool is_valid();
  __device__ static unsigned int thread_rank();
  __device__ static unsigned int size();
  __device__ static unsigned int num_threads();
  __device__ static unsigned int block_rank();
  __device__ static unsigned int num_blocks();
  __device__ static dim3 block_index();
  __device__ static dim3 dim_blocks();
  __device__ static unsigned int query_shared_rank(const void *addr);
  template <typename T>
  __device__ static T *map_shared_rank(T *addr, int rank);
};
__device__ cluster_group this_cluster();

/* Members shared by coalesced_group and thread_block_tile. */
#define OCCLINT_CG_WARP_MEMBERS                                                \
  __device__ void sync() const;                                                \
  __device__ unsigned int thread_rank() const;                                 \
  __device__ unsigned int size() const;                                        \
  __device__ unsigned int num_threads() const;                                 \
  __device__ unsigned int meta_group_rank() const;                             \
  __device__ unsigned int meta_group_size() const;                             \
  template <typename T> __device__ T shfl(T var, int srcRank) const;           \
  template <typename T>                                                        \
  __device__ T shfl_down(T var, unsigned int delta) const;                     \
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const; \
  template <typename T>                                                        \
  __device__ T shfl_xor(T var, unsigned int laneMask) const;                   \
  __device__ int any(int predicate) const;                                     \
  __device__ int all(int predicate) const;                                     \
  __device__ unsigned int ballot(int predicate) const;                         \
  template <typename T> __device__ unsigned int match_any(T val) const;         \
  template <typename T>                                                        \
  __device__ unsigned int match_all(T val, int &pred) const;

class coalesced_group : public thread_group {
public:
  OCCLINT_CG_WARP_MEMBERS
};
__device__ coalesced_group coalesced_threads();

template <unsigned int Size, typename ParentT = void>
class thread_block_tile;

template <unsigned int Size>
class thread_block_tile<Size, void> : public thread_group {
public:
  static constexpr unsigned int num_threads_v = Size;
  OCCLINT_CG_WARP_MEMBERS
};

template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {};

#undef OCCLINT_CG_WARP_MEMBERS

template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent,
                                        unsigned int tilesz);

template <class CGTy> __device__ void sync(CGTy const &g);
template <class CGTy>
__device__ unsigned long long thread_rank(CGTy const &g);
template <class CGTy>
__device__ unsigned long long group_size(CGTy const &g);

} // namespace cooperative_groups

#endif /* OCCLINT_STUB_COOPERATIVE_GROUPS_H */
