#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh, then the test-only tools:
# scripts/test-tools.sh) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/test-tools.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
