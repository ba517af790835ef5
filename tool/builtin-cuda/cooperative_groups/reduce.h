/*
 * occlint built-in CUDA headers (source-only mode): stand-in for the
 * toolkit's <cooperative_groups/reduce.h>: cg::reduce and the operator
 * functors (plus, less, greater, bit_and, bit_or, bit_xor).
 * Declarations only, enough for Clang to parse; never used to compile code.
 */
#ifndef OCCLINT_STUB_COOPERATIVE_GROUPS_REDUCE_H
#define OCCLINT_STUB_COOPERATIVE_GROUPS_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {

#define OCCLINT_CG_OP(NAME, EXPR)                                              \
  template <typename Ty> struct NAME {                                         \
    __device__ Ty operator()(const Ty a, const Ty b) const { return EXPR; }    \
  };
OCCLINT_CG_OP(plus, a + b)
OCCLINT_CG_OP(less, a < b ? a : b)
OCCLINT_CG_OP(greater, a < b ? b : a)
OCCLINT_CG_OP(bit_and, a & b)
OCCLINT_CG_OP(bit_or, a | b)
OCCLINT_CG_OP(bit_xor, a ^ b)
#undef OCCLINT_CG_OP

template <typename TyGroup, typename TyVal, typename TyFn>
__device__ auto reduce(const TyGroup &group, TyVal &&val, TyFn &&op)
    -> decltype(op(val, val));

} // namespace cooperative_groups

#endif /* OCCLINT_STUB_COOPERATIVE_GROUPS_REDUCE_H */
