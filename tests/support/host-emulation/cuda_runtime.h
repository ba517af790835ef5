// Host emulation of CUDA kernels, for tests/tool/lint/SafeFixesTest.cpp only.
// A test input's kernels compile as plain C++ against this header (found as
// <cuda_runtime.h> first on the include path); the test rewrites each
// `k<<<grid, block>>>(args);` into occlintEmulateLaunch(dim3(grid),
// dim3(block), [&] { k(args); }), which runs the kernel's body once per
// thread of every block, in order, with blockIdx/threadIdx/blockDim/gridDim
// set as on the device. Sequential, so it fits kernels without cross-thread
// communication (the only ones whose launches the fix-its may change), and,
// built with -fsanitize=address, it reports a write past the end of a buffer
// that a launch of too many threads makes.
#pragma once

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};

inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

template <class Body> void occlintEmulateLaunch(dim3 Grid, dim3 Block, Body Run) {
  gridDim = Grid;
  blockDim = Block;
  for (unsigned BZ = 0; BZ < Grid.z; ++BZ)
    for (unsigned BY = 0; BY < Grid.y; ++BY)
      for (unsigned BX = 0; BX < Grid.x; ++BX)
        for (unsigned TZ = 0; TZ < Block.z; ++TZ)
          for (unsigned TY = 0; TY < Block.y; ++TY)
            for (unsigned TX = 0; TX < Block.x; ++TX) {
              blockIdx = {BX, BY, BZ};
              threadIdx = {TX, TY, TZ};
              Run();
            }
}
