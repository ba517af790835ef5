#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh, and the test-only tools:
# scripts/test-tools.sh, installed while the build runs) and runs the whole
# test suite. In CI (CI=true), or
# when asked (OCCLINT_SANITIZERS=1), then also the sanitizer run:
# scripts/test-sanitizers.sh (a second build, ASan + UBSan, in build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=0
{ [ "${CI:-}" = true ] || [ "${OCCLINT_SANITIZERS:-0}" = 1 ]; } && sanitizers=1

start=$(date +%s)
scripts/setup.sh --packages
echo "test: packages: $(( $(date +%s) - start )) s" >&2
# What only the tests need (test-tools.sh: chromium, node and the SARIF
# validator; the sanitizer runtimes) is downloaded and installed while the
# build runs: that is network and disk, and the build has the two cores.
tools_log="$(mktemp)"
trap 'rm -f "$tools_log"' EXIT
( scripts/test-tools.sh && if [ "$sanitizers" = 1 ]; then scripts/test-sanitizers.sh --packages; fi ) \
  >"$tools_log" 2>&1 &
tools=$!
build_status=0
start=$(date +%s)
scripts/setup.sh || build_status=$?
echo "test: build: $(( $(date +%s) - start )) s" >&2
tools_status=0
wait "$tools" || tools_status=$?
cat "$tools_log" >&2
if [ "$build_status" != 0 ] || [ "$tools_status" != 0 ]; then
  echo "test: the build (exit $build_status) or the test tools' installation (exit $tools_status) failed" >&2
  exit 1
fi
start=$(date +%s)
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
echo "test: suite: $(( $(date +%s) - start )) s" >&2
if [ "$sanitizers" = 1 ]; then
  scripts/test-sanitizers.sh
fi
