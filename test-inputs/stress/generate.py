#!/usr/bin/env python3
"""Writes the stress inputs: CUDA files that are large or deep in one dimension
each, the shapes generated code and unusual code take (chemistry kernels with
20,000-term expressions, unrolled stencils, thousands of kernels in one file).
occlint must end every one with exit 0, 1 or 2, never a signal, and in time
linear in the file (bench/scaling.sh measures that against Clang's parse).

    generate.py OUT_DIR [CASE ...]      # every case, or the named ones
    generate.py --list                  # the case names
    generate.py OUT_DIR --scale N CASE  # one case at size N (bench/scaling.sh)

The files are generated at test time and never committed (tests/stress/).
"""
import argparse
import os
import sys

HEADER = "#include <cuda_runtime.h>\n\n"


def deep_expression(n):
    # One expression of n terms: a left-leaning tree of depth n.
    terms = " + ".join(f"x[{i % 64}] * {i % 7 + 1}.0f" for i in range(n))
    return HEADER + f"""__global__ void chemistry(float *x, float *out) {{
  int i = threadIdx.x;
  out[i] = {terms};
}}
"""


def deep_host_expression(n):
    # The launch values' host-side walks: a deep expression in a host function
    # whose launches read a device query and a global written from one (the
    # guards' parent map and the references' ancestors are as deep as it).
    terms = " + ".join(f"(p[{i % 7}] * {i % 13}.0f)" for i in range(n))
    return HEADER + f"""__global__ void fill(float *p) {{ p[threadIdx.x] = 1.0f; }}
int g_sms;
void host(float *p, int n) {{
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  g_sms = prop.multiProcessorCount;
  float big = {terms};
  p[0] = big;
  if (n == 256)
    fill<<<prop.multiProcessorCount * 2, n>>>(p);
  fill<<<g_sms, 256>>>(p);
}}
"""


def deep_condition(n):
    # A condition of n && terms, some of them thread-dependent.
    terms = " && ".join(f"(v[{i % 32}] > {i % 5})" if i % 3 else f"(threadIdx.x != {i})" for i in range(n))
    return HEADER + f"""__global__ void guard(const int *v, int *out) {{
  if ({terms})
    out[threadIdx.x] = 1;
  __syncthreads();
}}
"""


def deep_nesting(n):
    # n nested blocks of if/for/while, alternating thread-dependent and uniform.
    body, close = [], []
    for d in range(n):
        kind = d % 3
        if kind == 0:
            body.append(f"if (threadIdx.x > {d % 32}) {{")
        elif kind == 1:
            body.append(f"for (int i{d} = 0; i{d} < n; ++i{d}) {{")
        else:
            body.append(f"while (acc < {d}) {{ acc += n;")
        close.append("}")
    return HEADER + "__global__ void nest(int *out, int n) {\n  int acc = 0;\n" + "\n".join(body) + \
        "\n  acc += __shfl_sync(0xffffffffu, acc, 0);\n" + "\n".join(close) + \
        "\n  out[threadIdx.x] = acc;\n}\n"


def big_switch(n):
    cases = "\n".join(
        f"  case {i}: acc += __shfl_xor_sync(0xffffffffu, acc, {i % 16 + 1}); "
        f"{'__syncwarp();' if i % 5 == 0 else ''} break;" for i in range(n))
    return HEADER + f"""__global__ void dispatch(int *out, int op) {{
  int acc = threadIdx.x;
  switch (op + (threadIdx.x & 1)) {{
{cases}
  default: break;
  }}
  out[threadIdx.x] = acc;
}}
"""


def many_kernels(n):
    kernels = "\n".join(
        f"__global__ void k{i}(float *p, int n) {{ int t = blockIdx.x * blockDim.x + threadIdx.x; "
        f"if (t < n) p[t] += {i}.0f; }}" for i in range(n))
    launches = "\n".join(f"  k{i}<<<(n + {32 * (i % 8 + 1) - 1}) / {32 * (i % 8 + 1)}, {32 * (i % 8 + 1)}>>>(p, n);"
                         for i in range(n))
    return HEADER + kernels + "\n\nvoid launchAll(float *p, int n) {\n" + launches + "\n}\n"


def sequential_loops(n):
    loops = "\n".join(
        f"  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += p[i] * {i % 9 + 1};"
        f"{' __syncthreads();' if i % 10 == 0 else ''}" for i in range(n))
    return HEADER + f"""__global__ void loops(const float *p, float *out, int n) {{
  float acc = 0;
{loops}
  out[threadIdx.x] = acc;
}}
"""


def statements(n):
    body = "\n".join(f"  int v{i} = v{i - 1} * 3 + (threadIdx.x & {i % 31 + 1});" for i in range(1, n))
    return HEADER + f"""__global__ void straight(int *out) {{
  int v0 = threadIdx.x;
{body}
  out[threadIdx.x] = v{n - 1};
}}
"""


def template_recursion(n):
    return HEADER + f"""template <int N> struct Sum {{
  __device__ static int get(const int *p) {{ return p[N % 32] + Sum<N - 1>::get(p); }}
}};
template <> struct Sum<0> {{
  __device__ static int get(const int *p) {{ return p[0]; }}
}};
template <int Depth>
__global__ void unrolled(const int *p, int *out) {{
  if (threadIdx.x < Depth % 64) out[threadIdx.x] = Sum<Depth>::get(p);
  __syncthreads();
}}
void run(const int *p, int *out) {{ unrolled<{n}><<<1, 128>>>(p, out); }}
"""


def odd_constructs(n):
    # Lambdas in kernels, device-side launches, launches through function
    # pointers, variadic kernels, goto loops, recursive device functions.
    return HEADER + f"""__device__ int fib(int k) {{ return k < 2 ? k : fib(k - 1) + fib(k - 2); }}

template <typename... Args>
__global__ void variadic(int *out, Args... args) {{
  int s = (0 + ... + int(args));
  out[threadIdx.x] = s;
}}

__global__ void child(int *out) {{ out[threadIdx.x] = threadIdx.x; }}

__global__ void parent(int *out, int n) {{
  if (threadIdx.x == 0) child<<<n, 64>>>(out);
  auto twice = [=](int v) {{ return 2 * v + threadIdx.x; }};
  int i = 0;
again:
  out[i] = twice(fib(i % 10));
  if (++i < n) goto again;
  __syncthreads();
}}

using Kernel = void (*)(int *);
void viaPointer(int *out, bool which) {{
  Kernel k = which ? child : child;
  k<<<{n}, 96>>>(out);
  void *args[] = {{&out}};
  cudaLaunchKernel((const void *)k, dim3({n}), dim3(100), args, 0, 0);
  variadic<<<2, 48>>>(out, 1, 2.0f, 'c');
}}
"""


def call_chain(n):
    # n device functions, each calling the next: call summaries n deep.
    fns = [f"__device__ int f{n}(int v) {{ return v + threadIdx.x; }}"]
    for i in range(n - 1, -1, -1):
        fns.append(f"__device__ int f{i}(int v) {{ return f{i + 1}(v * 3 + {i % 7}); }}")
    return HEADER + "\n".join(fns) + f"""
__global__ void top(int *out) {{
  if (f0(out[0]) > 5)
    __syncthreads();
}}
void run(int *out) {{ top<<<2, 96>>>(out); }}
"""


def truncated(n):
    # A kernel cut off mid-expression, as an editor buffer is while typing.
    full = sequential_loops(max(n, 2))
    return full[: len(full) * 2 // 3]


def ring4_kernel(helpers, prologue_copy, body):
    # A 4-stage ring of 256 floats: 3 tiles fetched ahead, then a loop that
    # waits for the oldest, reads it and refills (body), with the barriers.
    return HEADER + f"""#include <cuda_pipeline.h>
{helpers}__global__ void ring4(const float *in, float *out, int tiles) {{
  __shared__ float ring[4][256];
  for (int s = 0; s < 3; ++s) {{
    {prologue_copy}
    __pipeline_commit();
  }}
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {{
    __pipeline_wait_prior(2);
    __syncthreads();
{body}
    __pipeline_commit();
    __syncthreads();
  }}
  out[threadIdx.x] = acc;
}}
void run(const float *in, float *out, int tiles) {{ ring4<<<132, 256>>>(in, out, tiles); }}
"""


def pipelined_loop(n):
    # An async-copy ring whose pipelined loop body holds n statements of
    # arithmetic on the current stage and n/8 copies into the next: the
    # hazard analysis runs the loop 2 S + 3 times (pipelines/AsyncPipelineHazards.h).
    body = "\n".join(
        f"    __pipeline_memcpy_async(&ring[(k + 3) % 4][threadIdx.x], &in[(k + 3) * 256 + threadIdx.x], 4);"
        if i % 8 == 0 else f"    acc = acc * {i % 5 + 1}.0f + ring[k % 4][(threadIdx.x + {i}) % 256];"
        for i in range(n))
    return ring4_kernel("", "__pipeline_memcpy_async(&ring[s][threadIdx.x], &in[s * 256 + threadIdx.x], 4);", body)


def pipelined_calls(n):
    # The same ring filled and read through called functions: n/8 calls of a
    # loader that copies one element into a stage, and n reads through a
    # helper; the hazard run follows each call into its body
    # (pipelines/AsyncPipelineRun.h), so the work stays n per trip.
    body = "\n".join(
        f"    loadElement(ring, (k + 3) % 4, in + (k + 3) * 256);"
        if i % 8 == 0 else f"    acc = acc * {i % 5 + 1}.0f + readElement(ring[k % 4], {i});"
        for i in range(n))
    helpers = """__device__ void loadElement(float (*ring)[256], int stage, const float *src) {
  __pipeline_memcpy_async(&ring[stage][threadIdx.x], src + threadIdx.x, 4);
}
__device__ float readElement(const float *tile, int i) { return tile[(threadIdx.x + i) % 256]; }
"""
    return ring4_kernel(helpers, "loadElement(ring, s, in + s * 256);", body)


def one_stage_span(n):
    # A one-stage ring in dynamic shared memory of no declared size: its bytes
    # are what one trip's copies span for the launch's block
    # (pipelines/AsyncPipelineOffsets.h, oneStageSpan: a second run of the
    # body with threadIdx bounded). n/8 copies at rows that mix a uniform and
    # a thread part, then n reads of the stage.
    copies = "\n".join(
        f"    CP_ASYNC(__cvta_generic_to_shared(&tile[threadIdx.x / 8 + {c % 16} * 32][(threadIdx.x % 8) * 4]), "
        f"in + k * 16384 + {c} * 1024 + threadIdx.x * 4);"
        for c in range(max(n // 8, 1)))
    reads = "\n".join(f"    acc = acc * {i % 5 + 1}.0f + tile[{i % 512}][threadIdx.x % 32];" for i in range(n))
    return HEADER + f"""#define CP_ASYNC(dst, src) \\
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\\n" ::"r"((unsigned)(dst)), "l"(src))
extern __shared__ __align__(16) float tile[][32];
__global__ void oneStage(const float *in, float *out, int tiles) {{
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {{
{copies}
    asm volatile("cp.async.commit_group;\\n" ::);
    asm volatile("cp.async.wait_group 0;\\n" ::);
    __syncthreads();
{reads}
    __syncthreads();
  }}
  out[threadIdx.x] = acc;
}}
void run(const float *in, float *out, int tiles) {{ oneStage<<<132, 256, 65536>>>(in, out, tiles); }}
"""


CASES = {
    # name: (writer, the size the stress set uses)
    "deep-expression": (deep_expression, 20000),
    "deep-condition": (deep_condition, 5000),
    "deep-host-expression": (deep_host_expression, 20000),
    "deep-nesting": (deep_nesting, 400),
    "big-switch": (big_switch, 3000),
    "many-kernels": (many_kernels, 3000),
    "sequential-loops": (sequential_loops, 2000),
    "statements": (statements, 10000),
    "template-recursion": (template_recursion, 900),
    "odd-constructs": (odd_constructs, 64),
    "call-chain": (call_chain, 3000),
    "truncated": (truncated, 200),
    "pipelined-loop": (pipelined_loop, 4000),
    "pipelined-calls": (pipelined_calls, 4000),
    "one-stage-span": (one_stage_span, 4000),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?")
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--scale", type=int, help="size of the (single) case instead of its stress size")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_intermixed_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if not args.out:
        parser.error("OUT_DIR is required")
    names = args.cases or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error("unknown case(s): " + ", ".join(unknown) + "; --list names them")
    if args.scale is not None and len(names) != 1:
        parser.error("--scale takes exactly one case")
    os.makedirs(args.out, exist_ok=True)
    for name in names:
        writer, size = CASES[name]
        n = args.scale if args.scale is not None else size
        path = os.path.join(args.out, f"{name}.cu" if args.scale is None else f"{name}-{n}.cu")
        with open(path, "w") as f:
            f.write(writer(n))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
