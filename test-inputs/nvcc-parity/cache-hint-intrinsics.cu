// nvcc: sm_32_intrinsics.h declares the cache-operator loads (__ldca, __ldlu)
// and stores (__stwb, __stcg, __stcs) for every scalar and vector type.
// Clang 22's headers have __ldcg, __ldcs, __ldcv and __stwt for them, but the
// others only for __half and __nv_bfloat16 (from cuda_fp16/cuda_bf16), so a
// streaming store of a float does not parse without occlint's prelude.
// flags: -std=c++17
#include <cuda_runtime.h>

__global__ void streamCopy(const float4 *in, float4 *out, const float *bias, float *sums, int2 *pairs, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 v = __ldlu(in + i);
  const float b = __ldca(bias + i);
  v.x += b;
  __stcs(out + i, v);
  __stcg(sums + i, v.x + v.y + v.z + v.w);
  __stwb(pairs + i, make_int2(i, n));
}

void launch(const float4 *in, float4 *out, const float *bias, float *sums, int2 *pairs, int n) {
  streamCopy<<<(n + 255) / 256, 256>>>(in, out, bias, sums, pairs, n);
}
