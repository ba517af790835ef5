// occlint-wrap: the compiler launcher (docs/build-integration.md). A small
// executable without LLVM or Clang, linked with occlint_core only, so that
// wrapping every compile of a build costs little:
//   cmake -DCMAKE_CUDA_COMPILER_LAUNCHER=occlint-wrap ...
//   occlint-wrap [--no-sidecar] [--no-cache] [--] nvcc -c a.cu -o a.o ...
// `occlint wrap ...` runs the same code (core/CompilerLauncher.h).
#include "core/CompilerLauncher.h"

int main(int argc, const char **argv) { return occlint::compilerLauncherMain(argc, argv); }
