#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh, then the test-only tools:
# scripts/test-tools.sh) and runs the whole test suite. In CI (CI=true), or
# when asked (OCCLINT_SANITIZERS=1), then also the sanitizer run:
# scripts/test-sanitizers.sh (a second build, ASan + UBSan, in build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/test-tools.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
if [ "${CI:-}" = true ] || [ "${OCCLINT_SANITIZERS:-0}" = 1 ]; then
  scripts/test-sanitizers.sh
fi
