// occlint-wrap: the compiler launcher (docs/build-integration.md). A small
// executable without LLVM or Clang, linked with occlint_toolchain (and occlint_gpu) only, so that
// wrapping every compile of a build costs little:
//   cmake -DCMAKE_CUDA_COMPILER_LAUNCHER=occlint-wrap ...
//   occlint-wrap [--no-sidecar] [--no-cache] [--] nvcc -c a.cu -o a.o ...
// `occlint wrap ...` runs the same code (toolchain/CompilerLauncher.h).
#include "toolchain/CompilerLauncher.h"

int main(int argc, const char **argv) { return occlint::compilerLauncherMain(argc, argv); }
