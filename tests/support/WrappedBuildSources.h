// The small CUDA build the build-launcher tests compile (WrapLintMergeTest,
// CompilerCachesTest): two units that include one header with a launch of
// 48 threads per block; a.cu has its own launch of 100 threads.
#pragma once

namespace occlint::testing::wrapped_build {

inline constexpr const char *Header = R"(#pragma once
__global__ void fill(float *p) { p[threadIdx.x] = 0; }
inline void launchFill(float *p) { fill<<<1000, 48>>>(p); }
)";
inline constexpr const char *UnitA = R"(#include "common.cuh"
__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2.0f;
}
void run(float *p, int n) { scale<<<(n + 99) / 100, 100>>>(p, n); }
)";
inline constexpr const char *UnitB = R"(#include "common.cuh"
void run2(float *p) { launchFill(p); }
)";

} // namespace occlint::testing::wrapped_build
