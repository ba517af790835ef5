// The library's host API (plain C++: main.cu and the .cu files include it).
#pragma once

#include <cuda_runtime.h>

void saxpy(int n, float a, const float *x, float *y, cudaStream_t stream);
void scale_into(int n, float a, const float *x, float *y, cudaStream_t stream);
void saxpy_one_thread_per_block(int n, float a, const float *x, float *y, cudaStream_t stream);
void saxpy_warp_blocks(int n, float a, const float *x, float *y, cudaStream_t stream);

void reduce_sum(const float *in, float *partial, int n, cudaStream_t stream);
void reduce_sum_small_grid(const float *in, float *partial, int n, cudaStream_t stream);
void reduce_sum_wide(const float *in, float *partial, int n, cudaStream_t stream);
void reduce_sum_tile2048(const float *in, float *partial, int n, cudaStream_t stream);
void reduce_columns(const float *in, float *sums, int rows, cudaStream_t stream);

void stencil(const float *in, float *out, int n, cudaStream_t stream);
void stencil_wide_big_tile(const float *in, float *out, int n, cudaStream_t stream);
void stencil_big_tile_opt_in(const float *in, float *out, int n, cudaStream_t stream);
