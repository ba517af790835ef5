#!/usr/bin/env bash
# Installs what only the tests need (only what is missing); scripts/test.sh
# runs it while scripts/setup.sh builds occlint:
#   - Debian's chromium: the report test renders `occlint report --html` headless;
#   - Debian's clang-format-22: the format test checks the lines changed since
#     .clang-format was applied (scripts/check-format.sh);
#   - Debian's sccache and distcc: the build launcher is tested behind both
#     (tests/tool/buildlint/CompilerCachesTest.cpp, with a local distccd);
#   - Node.js/npm and Microsoft's SARIF Multitool (npm, pinned), into
#     $BUILD_DIR/test-tools: the SARIF tests validate occlint's SARIF with it.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-dejavu-core)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
command -v sccache >/dev/null 2>&1 || missing+=(sccache)
command -v distccd >/dev/null 2>&1 || missing+=(distcc)
command -v git-clang-format-22 >/dev/null 2>&1 || missing+=(clang-format-22)
if ((${#missing[@]})); then
  echo "test-tools: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x "$BUILD_DIR/test-tools/node_modules/.bin/sarif-multitool" ]; then
  echo "test-tools: installing @microsoft/sarif-multitool into $BUILD_DIR/test-tools" >&2
  npm install --prefix "$BUILD_DIR/test-tools" --no-audit --no-fund --loglevel=error \
    @microsoft/sarif-multitool@5.7.0 >/dev/null
fi
