// NOLINT comments on occlint's findings (tests/tool/lint/EcosystemTest.cpp, docs/integrations.md).
// occlint and clang-tidy-22 --load must print exactly the `expect-*` diagnostics.
// `silenced-warning`/`silenced-error`/`silenced-note` mark a finding that a NOLINT comment
// hides: the test also runs a copy with every NOLINT spelled out of existence
// (and those markers turned into expectations), which proves that each of them
// is a real finding that only the comment silences.
// RUN-ARGS: --gpu=H100 --checks=-*,cuda-launch-*,cuda-occupancy-spills --ptxas-log=%S/../checks/ptxas/occupancy-spills.sm_90.log
#include <cuda_runtime.h>

// A grid-stride kernel: more blocks would share its work, so a grid of fewer
// blocks than SMs is a finding (cuda-launch-tiny-grid).
__global__ void fill(float *p) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (1 << 20); i += gridDim.x * blockDim.x)
    p[i] = 1.0f;
}

// Grids of 264 blocks: two per SM on an H100 (132 SMs), so only the block
// size is wrong in the launches below.
void onTheLaunchLine(float *p) {
  fill<<<264, 100>>>(p); // expect-warning {{block of 100 threads is not a multiple of the warp size}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<264, 100>>>(p); // NOLINT silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<264, 100>>>(p); // NOLINT(cuda-launch-block-not-warp-multiple) silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<264, 100>>>(p); // NOLINT(cuda-launch-*) silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  // A NOLINT naming another check silences nothing here.
  fill<<<264, 100>>>(p); // NOLINT(cuda-launch-tiny-grid) expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  // Two findings on one line: the NOLINT names one, the other stays.
  fill<<<10, 100>>>(p); // NOLINT(cuda-launch-block-not-warp-multiple) silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-warning {{grid of 10 blocks}} [cuda-launch-tiny-grid] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<10, 100>>>(p); // NOLINT(cuda-launch-block-not-warp-multiple, cuda-launch-tiny-grid) silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-warning {{grid of 10 blocks}} [cuda-launch-tiny-grid] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
}

void onTheLineBefore(float *p) {
  // NOLINTNEXTLINE(cuda-launch-block-not-warp-multiple)
  fill<<<264, 100>>>(p); // silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<264, 100>>>(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block}}
}

// NOLINTBEGIN(cuda-launch-block-not-warp-multiple)
void inARegion(float *p) {
  fill<<<264, 100>>>(p); // silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
  fill<<<264, dim3(10, 10)>>>(p); // silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  fill<<<10, 128>>>(p); // expect-warning {{grid of 10 blocks}} [cuda-launch-tiny-grid]
}
// NOLINTEND(cuda-launch-block-not-warp-multiple)

// A launch split over lines: each finding is on the line of what it points
// at: tiny-grid at the launch's first line, block-not-warp-multiple at the
// block argument.
void overSeveralLines(float *p) {
  fill<<<10, // expect-warning {{grid of 10 blocks}} [cuda-launch-tiny-grid]
         100>>>(p); // NOLINT silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] silenced-note {{rounding the block up to 128 threads launches 28 more threads per block}}
}

// Launches written in macros are reported at the macro's use, so the NOLINT
// goes there. A NOLINT in the macro's definition does not reach them.
#define LAUNCH_FILL(p) fill<<<264, 100>>>(p)
#define LAUNCH_FILL_WITH_COMMENT(p) fill<<<264, 100>>>(p) // NOLINT(cuda-launch-block-not-warp-multiple)
void inMacros(float *p) {
  LAUNCH_FILL(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  LAUNCH_FILL(p); // NOLINT(cuda-launch-block-not-warp-multiple) silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  // NOLINTNEXTLINE(cuda-launch-block-not-warp-multiple)
  LAUNCH_FILL(p); // silenced-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
  LAUNCH_FILL_WITH_COMMENT(p); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple]
}

// A NOLINT on a kernel's declaration silences the findings reported at the
// kernel (cuda-occupancy-spills, from the ptxas log: 40 registers, spills),
// not those of its launches, which are reported at each launch.
__global__ void __maxnreg__(40) forcedByMaxnreg(const float *in, float *out, int n) { out[0] = in[n]; } // NOLINT silenced-warning {{'forcedByMaxnreg' spills registers on sm_90}} [cuda-occupancy-spills] silenced-note {{the register limit comes from here}}
__global__ void __launch_bounds__(256, 4) forcedByBounds(const float *in, float *out, int n) { out[0] = in[n]; } // expect-warning {{'forcedByBounds' spills registers on sm_90}} [cuda-occupancy-spills] expect-note {{the register limit comes from here}}
__global__ void __launch_bounds__(64) bounded(float *p) { p[threadIdx.x] = 0; } // expect-note {{__launch_bounds__ declared here}}

void kernelsDeclaredWithNolint(const float *in, float *out, int n) {
  forcedByMaxnreg<<<792, 256>>>(in, out, n); // 6 blocks per SM: whole waves
  forcedByMaxnreg<<<792, 100>>>(in, out, n); // expect-warning {{block of 100 threads}} [cuda-launch-block-not-warp-multiple] expect-note {{rounding the block up to 128 threads launches 28 more threads per block}}
}

// clang-tidy never suppresses a diagnostic at error level, and
// cuda-launch-invalid-config reports errors (a launch that cannot start): a
// NOLINT does not hide them. Turn the check off instead (--checks or
// .clang-tidy: -cuda-launch-invalid-config).
void errorsStay(float *p) {
  bounded<<<264, 128>>>(p); // NOLINT(cuda-launch-invalid-config) expect-error {{a block of 128 threads exceeds the maximum of 64 that 'bounded' declares}} [cuda-launch-invalid-config]
  bounded<<<264, 64>>>(p);
}
