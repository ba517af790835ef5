// 1-D box filters of radius STENCIL_RADIUS (set by CMakeLists.txt) and, wide, twice that.
#include "kernels.h"

#include "stencil_impl.cu"

namespace {
constexpr int kThreads = 256;
constexpr int kBigTileBytes = 64 * 1024;                              // 64 KB of dynamic shared memory expect-note {{'kBigTileBytes' is defined here as 65536}}
constexpr int kBigTile = kBigTileBytes / sizeof(float) - 4 * STENCIL_RADIUS; // outputs per block, room for either halo
} // namespace

void stencil(const float *in, float *out, int n, cudaStream_t stream) {
  const int tile = 4 * kThreads;
  const size_t smem = (tile + 2 * STENCIL_RADIUS) * sizeof(float);
  stencil_1d<STENCIL_RADIUS><<<(n + tile - 1) / tile, kThreads, smem, stream>>>(in, out, n, tile);
  fix_stencil_edges(in, out, n, stream);
}

void stencil_wide_big_tile(const float *in, float *out, int n, cudaStream_t stream) {
  stencil_1d<2 * STENCIL_RADIUS><<<(n + kBigTile - 1) / kBigTile, kThreads, kBigTileBytes, stream>>>(in, out, n, kBigTile); // 64 KB dynamic smem, no opt-in for this kernel anywhere: cannot launch expect-error {{the launch cannot start on H100 SXM (sm_90, 132 SMs): 65536 bytes of dynamic shared memory exceed the default limit of 49152 bytes per block, and 'stencil_1d<8>' does not opt in}} [cuda-launch-invalid-config]
  // (the wide filter's edges stay zero-padded)
}

void stencil_big_tile_opt_in(const float *in, float *out, int n, cudaStream_t stream) {
  cudaFuncSetAttribute(stencil_1d<STENCIL_RADIUS>, cudaFuncAttributeMaxDynamicSharedMemorySize, kBigTileBytes);
  stencil_1d<STENCIL_RADIUS><<<(n + kBigTile - 1) / kBigTile, kThreads, kBigTileBytes, stream>>>(in, out, n, kBigTile); // the same 64 KB, this kernel opted in on the line above: valid
  fix_stencil_edges(in, out, n, stream);
}
