#!/usr/bin/env python3
"""Writes a CMake CUDA project of N translation units for the scale
benchmark (bench/build_scale.py, issue 17 item 5). Our own code, written to
look like what real projects compile, one pattern per unit in turn:

- reduction: a block-wide tree reduction in shared memory with
  __syncthreads, finished with warp shuffles (a helper in the shared header);
- stencil: a 2D 5-point stencil over a shared-memory tile with a halo;
- gemm: a templated shared-memory tiled matrix multiply (TILE a template
  parameter, instantiated at two sizes);
- elementwise: a grid-stride template (axpy, scale, clamp) over float and
  double;
- histogram: shared-memory bins with atomics, merged into global memory;
- scan: a warp-level inclusive scan with __shfl_up_sync and a block pass.

Every unit includes one shared header (common.cuh) and has a host function
that launches its kernels; block sizes vary (128, 256, 512) and about one
unit in twelve launches a block that is not a multiple of 32, so the lint
has something to report, as on real code. The choices are seeded: the same
N and --seed give the same files.

  bench/generate_cmake_project.py OUT_DIR [--units 200] [--seed 1] [--arch 90]
"""
import argparse
import os
import random

HEADER = r"""#pragma once
#include <cuda_runtime.h>

namespace scale {

__host__ __device__ inline int ceilDiv(int a, int b) { return (a + b - 1) / b; }

__device__ inline float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T> __device__ inline T clampValue(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

} // namespace scale
"""

REDUCTION = r"""#include "common.cuh"

namespace unit{i} {{

template <int BLOCK> __global__ void blockSum(const float *in, float *out, int n) {{
  __shared__ float partial[BLOCK];
  const int tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
    sum += in[i] * {scale}f;
  partial[tid] = sum;
  __syncthreads();
  for (int stride = BLOCK / 2; stride >= 32; stride /= 2) {{
    if (tid < stride)
      partial[tid] += partial[tid + stride];
    __syncthreads();
  }}
  if (tid < 32) {{
    float v = scale::warpReduceSum(partial[tid]);
    if (tid == 0)
      atomicAdd(out, v);
  }}
}}

void run(const float *in, float *out, int n, cudaStream_t stream) {{
  const int blocks = scale::ceilDiv(n, {block} * 4);
  blockSum<{block}><<<blocks, {block}, 0, stream>>>(in, out, n);
}}

}} // namespace unit{i}
"""

STENCIL = r"""#include "common.cuh"

namespace unit{i} {{

constexpr int TX = {tx}, TY = {ty};

__global__ void stencil5(const float *in, float *out, int nx, int ny, float c0, float c1) {{
  __shared__ float tile[TY + 2][TX + 2];
  const int x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  const bool inside = x < nx && y < ny;
  tile[ly][lx] = inside ? in[y * nx + x] : 0.0f;
  if (threadIdx.x == 0)
    tile[ly][0] = (inside && x > 0) ? in[y * nx + x - 1] : 0.0f;
  if (threadIdx.x == TX - 1)
    tile[ly][TX + 1] = (y < ny && x + 1 < nx) ? in[y * nx + x + 1] : 0.0f;
  if (threadIdx.y == 0)
    tile[0][lx] = (x < nx && y > 0) ? in[(y - 1) * nx + x] : 0.0f;
  if (threadIdx.y == TY - 1)
    tile[TY + 1][lx] = (x < nx && y + 1 < ny) ? in[(y + 1) * nx + x] : 0.0f;
  __syncthreads();
  if (inside)
    out[y * nx + x] = c0 * tile[ly][lx] + c1 * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx]);
}}

void run(const float *in, float *out, int nx, int ny) {{
  dim3 block(TX, TY);
  dim3 grid(scale::ceilDiv(nx, TX), scale::ceilDiv(ny, TY));
  stencil5<<<grid, block>>>(in, out, nx, ny, {c0}f, {c1}f);
}}

}} // namespace unit{i}
"""

GEMM = r"""#include "common.cuh"

namespace unit{i} {{

template <int TILE> __global__ void tiledGemm(const float *A, const float *B, float *C, int M, int N, int K, float alpha) {{
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {{
    As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }}
  if (row < M && col < N)
    C[row * N + col] = alpha * acc;
}}

void run(const float *A, const float *B, float *C, int M, int N, int K, bool large) {{
  if (large) {{
    dim3 block(32, 32);
    tiledGemm<32><<<dim3(scale::ceilDiv(N, 32), scale::ceilDiv(M, 32)), block>>>(A, B, C, M, N, K, {alpha}f);
  }} else {{
    dim3 block({small}, {small});
    tiledGemm<{small}><<<dim3(scale::ceilDiv(N, {small}), scale::ceilDiv(M, {small})), block>>>(A, B, C, M, N, K, {alpha}f);
  }}
}}

}} // namespace unit{i}
"""

ELEMENTWISE = r"""#include "common.cuh"

namespace unit{i} {{

template <typename T> __global__ void axpy(T a, const T *x, T *y, int n) {{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}}

template <typename T> __global__ void clampAll(T *v, int n, T lo, T hi) {{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = scale::clampValue(v[i], lo, hi);
}}

void run(float *xf, float *yf, double *xd, double *yd, int n) {{
  const int threads = {block};
  axpy<float><<<scale::ceilDiv(n, threads), threads>>>({alpha}f, xf, yf, n);
  axpy<double><<<scale::ceilDiv(n, threads), threads>>>({alpha}, xd, yd, n);
  clampAll<float><<<scale::ceilDiv(n, {block2}), {block2}>>>(yf, n, -1.0f, 1.0f);
}}

}} // namespace unit{i}
"""

HISTOGRAM = r"""#include "common.cuh"

namespace unit{i} {{

constexpr int BINS = {bins};

__global__ void histogram(const unsigned char *data, unsigned int *bins, int n) {{
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&bins[b], local[b]);
}}

void run(const unsigned char *data, unsigned int *bins, int n, int smCount) {{
  histogram<<<smCount * {per_sm}, {block}>>>(data, bins, n);
}}

}} // namespace unit{i}
"""

SCAN = r"""#include "common.cuh"

namespace unit{i} {{

__device__ inline int warpInclusiveScan(int v) {{
  const int lane = threadIdx.x & 31;
  for (int offset = 1; offset < 32; offset *= 2) {{
    int up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset)
      v += up;
  }}
  return v;
}}

__global__ void blockScan(const int *in, int *out, int *blockTotals, int n) {{
  __shared__ int warpTotals[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  int v = i < n ? in[i] : 0;
  v = warpInclusiveScan(v);
  if (lane == 31)
    warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {{
    int t = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    warpTotals[lane] = warpInclusiveScan(t);
  }}
  __syncthreads();
  if (warp > 0)
    v += warpTotals[warp - 1];
  if (i < n)
    out[i] = v;
  if (threadIdx.x == blockDim.x - 1)
    blockTotals[blockIdx.x] = v;
}}

void run(const int *in, int *out, int *totals, int n) {{
  blockScan<<<scale::ceilDiv(n, {block}), {block}>>>(in, out, totals, n);
}}

}} // namespace unit{i}
"""

PATTERNS = ["reduction", "stencil", "gemm", "elementwise", "histogram", "scan"]


def unit_source(i, pattern, rng):
    # About one unit in twelve gets a block size that is not a multiple of 32.
    odd = rng.random() < 1 / 12
    block = rng.choice([128, 256, 512])
    if pattern == "reduction":
        return REDUCTION.format(i=i, block=block, scale=rng.choice(["1.0", "0.5", "2.0"]))
    if pattern == "stencil":
        tx, ty = rng.choice([(32, 8), (32, 4), (16, 16), (30, 8) if odd else (64, 4)])
        return STENCIL.format(i=i, tx=tx, ty=ty, c0=rng.choice(["0.5", "0.25"]), c1=rng.choice(["0.125", "0.1875"]))
    if pattern == "gemm":
        return GEMM.format(i=i, small=rng.choice([8, 16]), alpha=rng.choice(["1.0", "0.5"]))
    if pattern == "elementwise":
        return ELEMENTWISE.format(i=i, block=100 if odd else block, block2=rng.choice([256, 1024]),
                                  alpha=rng.choice(["2.0", "0.5"]))
    if pattern == "histogram":
        return HISTOGRAM.format(i=i, bins=rng.choice([64, 256]), per_sm=rng.choice([2, 4, 8]),
                                block=96 if odd else block)
    return SCAN.format(i=i, block=block)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--arch", default="90")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(os.path.join(args.out, "src"), exist_ok=True)
    with open(os.path.join(args.out, "src", "common.cuh"), "w") as f:
        f.write(HEADER)
    names = []
    for i in range(args.units):
        pattern = PATTERNS[i % len(PATTERNS)]
        name = f"src/{pattern}_{i:04d}.cu"
        names.append(name)
        with open(os.path.join(args.out, name), "w") as f:
            f.write(unit_source(i, pattern, rng))
    with open(os.path.join(args.out, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.24)\n")
        f.write("project(occlint_scale LANGUAGES CXX CUDA)\n")
        f.write(f"set(CMAKE_CUDA_ARCHITECTURES {args.arch})\n")
        f.write("set(CMAKE_EXPORT_COMPILE_COMMANDS ON)\n")
        f.write("add_library(scale_kernels STATIC\n")
        for name in names:
            f.write(f"  {name}\n")
        f.write(")\n")
        f.write("target_include_directories(scale_kernels PRIVATE src)\n")
    print(f"{args.out}: {args.units} translation units")


if __name__ == "__main__":
    main()
