#!/usr/bin/env bash
# Installs what occlint needs (only what is missing), then configures and
# builds it in build/. Idempotent: a no-op in seconds when all is there.
#   scripts/setup.sh            # build everything, tests included
#   scripts/setup.sh occlint    # build only the named targets (scripts/example.sh)
#   scripts/setup.sh --packages # install the missing packages, build nothing
#   BUILD_DIR=out scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build g++ git
  llvm-22-dev libclang-22-dev libclang-cpp22-dev clang-22 clang-tidy-22 clang-tools-22
  nlohmann-json3-dev libgtest-dev pre-commit)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# `scripts/setup.sh --packages`: the packages only (scripts/test.sh then
# fetches the test tools while the build runs).
[ "${1:-}" = --packages ] && exit 0

cuda="${CUDA_PATH:-/usr/local/cuda}"
if [ ! -x "$cuda/bin/ptxas" ]; then
  echo "setup: note: no CUDA toolkit at $cuda: occlint will run in source-only mode" \
       "(resource reports and the differential test need one; set CUDA_PATH)" >&2
fi

BUILD_DIR="${BUILD_DIR:-build}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # clang++-22 (a third less time than g++), its precompiled headers (see
  # CMakeLists.txt) and -O2 without debug information (debug information of
  # Clang's AST classes was a third of each file's compile time):
  # bench/results/build-time-*.md. OCCLINT_CXX=g++ builds with GCC instead.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER="${OCCLINT_CXX:-clang++-22}" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" >/dev/null
fi
# Two parallel jobs: LLVM-heavy translation units need ~1.5 GB each. The same
# build directory and type whatever the targets: what the example builds, the
# test suite does not build again.
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" "${targets[@]}"
