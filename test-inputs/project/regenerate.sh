#!/usr/bin/env bash
# Regenerates compile_commands.json.in: configures and builds this project with
# the real toolkit, then replaces the machine's paths with placeholders.
#   test-inputs/project/regenerate.sh
#   NVCC=/opt/cuda/bin/nvcc BUILD_DIR=/tmp/other test-inputs/project/regenerate.sh
# Needs CMake (3.25 was used), Ninja and nvcc (13.0 was used).
set -euo pipefail
src="$(cd "$(dirname "$0")" && pwd)"
build="${BUILD_DIR:-/tmp/proj-build}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"

if [ -e "$build" ] && [ ! -f "$build/CMakeCache.txt" ] && [ -n "$(ls -A "$build")" ]; then
  echo "regenerate.sh: $build exists and is not a CMake build directory; not touching it" >&2
  exit 1
fi
rm -rf "$build"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc"
cmake --build "$build"   # proves that it compiles

# Literal (not regex) replacements, longest-lived path first.
SRC="$src" BUILD="$build" NVCC="$nvcc" perl -pe \
  's/\Q$ENV{NVCC}\E/\@NVCC\@/g; s/\Q$ENV{SRC}\E/\@PROJECT_SOURCE\@/g; s/\Q$ENV{BUILD}\E/\@PROJECT_BUILD\@/g' \
  "$build/compile_commands.json" > "$src/compile_commands.json.in"
echo "wrote $src/compile_commands.json.in"
