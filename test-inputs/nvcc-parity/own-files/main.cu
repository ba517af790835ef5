// nvcc defines __NVCC__ in everything it compiles; Clang does not. The
// project's own header picks CUDA or HIP by it (picks-cuda-or-hip.h); a
// library header found through -I tests it too (library/library-probe.h).
// Under occlint, with an nvcc compile command, the own files see __NVCC__
// (so the CUDA branch is parsed, as nvcc compiles it) and the library does
// not (libraries' nvcc branches use nvcc-only builtins). docs/nvcc-parity.md.
// Compile command: nvcc -std=c++17 -I<this folder>/library -c main.cu
#include "picks-cuda-or-hip.h"
#include "library-probe.h"

#if !defined(PICKED_CUDA)
#error "the own header did not pick CUDA"
#endif
#if defined(__clang__) && defined(LIBRARY_SAW_NVCC)
#error "a library header found through -I saw __NVCC__ under Clang"
#endif

__global__ void scale(float *data, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

void launch(float *data, int n) { scale<<<(n + 255) / 256, 256>>>(data, 2.0f, n); }
