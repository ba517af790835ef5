#!/usr/bin/env bash
# Remakes the committed ptxas resource logs in this directory from the .cu
# sources next to it. Needs the CUDA toolkit (nvcc, ptxas), clang 22 and, for
# the mixed build log, cmake + make. Usage:
#   test-inputs/ptxas/regenerate.sh            # CUDA_PATH or /usr/local/cuda
#   CUDA_PATH=/opt/cuda CLANG=clang++-22 test-inputs/ptxas/regenerate.sh
# The tests in tests/gpu/PtxasReportTest.cpp assert on numbers read from these
# logs: after regenerating with another toolkit, update them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cuda="${CUDA_PATH:-/usr/local/cuda}"
nvcc="$cuda/bin/nvcc"
ptxas="$cuda/bin/ptxas"
clang="${CLANG:-/usr/lib/llvm-22/bin/clang++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Run from a scratch copy so no absolute path of this checkout lands in a log.
cp "$here"/*.cu "$here"/*.cpp "$work"/
cd "$work"

sources="kernels.cu spill.cu bounds.cu"

# 1. One log per arch, nvcc -Xptxas -v (plus -warn-spills for the spill warnings).
for arch in 75 80 86 89 90 100 120; do
  out="$here/nvcc_sm$arch.log"
  : > "$out"
  for src in $sources; do
    "$nvcc" -c -O3 -arch=sm_$arch -Xptxas -v -Xptxas -warn-spills "$src" -o "${src%.cu}.o" >>"$out" 2>&1
  done
done

# 2. Several archs in one nvcc call (-gencode), including the arch-specific sm_90a.
"$nvcc" -c -O3 -Xptxas -v \
  -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_90a,code=sm_90a \
  -gencode arch=compute_120,code=sm_120 \
  kernels.cu -o multi.o > "$here/nvcc_multi_gencode.log" 2>&1

# 3. --resource-usage: whole-program mode (it implies -Xptxas -v) and, with
#    -rdc=true, the device link step (it implies nvlink --verbose).
"$nvcc" -c -O3 --resource-usage -arch=sm_86 spill.cu -o ru.o > "$here/nvcc_resource_usage.log" 2>&1
"$nvcc" -c -O3 -rdc=true -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 kernels.cu -o rdc.o
"$nvcc" --resource-usage -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  -dlink rdc.o -o rdc_link.o > "$here/nvcc_resource_usage_dlink.log" 2>&1

# 4. clang: it runs ptxas itself for -c; -Xcuda-ptxas -v passes -v to it.
"$clang" -x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_90 --cuda-device-only -O3 \
  -c kernels.cu -o clang.o -Xcuda-ptxas -v > "$here/clang_sm90.log" 2>&1

# 5. Plain ptxas -v on PTX that nvcc emitted.
"$nvcc" -ptx -O3 -arch=compute_89 spill.cu -o spill.ptx
"$ptxas" -v --gpu-name sm_89 spill.ptx -o spill.cubin > "$here/ptxas_sm89.log" 2>&1

# 6. A CMake + make -j2 build: progress lines, host-compiler warnings and the
#    ptxas output of two CUDA files compiled in parallel, interleaved as it came.
mkdir proj && cp kernels.cu spill.cu host_warn.cpp proj/
cat > proj/CMakeLists.txt <<'CMK'
cmake_minimum_required(VERSION 3.20)
project(mixed LANGUAGES CXX CUDA)
add_library(mixed STATIC kernels.cu spill.cu host_warn.cpp)
target_compile_options(mixed PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v> $<$<COMPILE_LANGUAGE:CXX>:-Wall>)
CMK
cmake -S proj -B proj/build -G "Unix Makefiles" -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_CUDA_ARCHITECTURES=86 -DCMAKE_BUILD_TYPE=Release > /dev/null
make -C proj/build -j2 --no-print-directory 2>&1 | sed "s|$work|/tmp/work|g" > "$here/make_j2.log"

echo "regenerated logs in $here"
