#!/usr/bin/env bash
# Checks that the lines a change touches follow .clang-format (LLVM style, 120
# columns), as `git clang-format` would leave them:
#
#   scripts/check-format.sh [BASE]
#
# BASE: by default the last commit that changed .clang-format (the tree was
# formatted there as a whole), so every line changed since is checked.
# Only the C++ sources and headers changed since BASE are looked at, and only
# their changed lines (folders with DisableFormat are left out: test inputs,
# the built-in CUDA headers). Prints the reformatting it would make, as a diff.
# Exit status: 0 formatted, 1 not (the diff printed), 2 cannot check (no
# clang-format-22 or git, or BASE is not a commit).
set -uo pipefail
cd "$(dirname "$0")/.."
BASE="${1:-$(git log -1 --format=%H -- .clang-format 2>/dev/null)}"
[ -n "$BASE" ] || { echo "check-format: no commit has a .clang-format to start from" >&2; exit 2; }
CLANG_FORMAT="${CLANG_FORMAT:-clang-format-22}"
GIT_CLANG_FORMAT="${GIT_CLANG_FORMAT:-git-clang-format-22}"
for tool in "$CLANG_FORMAT" "$GIT_CLANG_FORMAT"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check-format: no $tool (apt-get install clang-format-22)" >&2; exit 2; }
done
command -v git >/dev/null 2>&1 || { echo "check-format: no git" >&2; exit 2; }
git rev-parse --verify -q "$BASE^{commit}" >/dev/null || { echo "check-format: '$BASE' is not a commit of this checkout" >&2; exit 2; }
OUT="$("$GIT_CLANG_FORMAT" --binary "$(command -v "$CLANG_FORMAT")" --diff --extensions cpp,h "$BASE" -- \
       analyses tool tests 2>&1)"
STATUS=$?
case "$OUT" in
  "" | "no modified files to format"* | "clang-format did not modify any files"*) exit 0 ;;
esac
if [ $STATUS -gt 1 ] || ! echo "$OUT" | grep -q '^diff --git\|^@@'; then
  echo "check-format: git clang-format failed: $OUT" >&2
  exit 2
fi
echo "$OUT"
echo "check-format: the lines above, changed since $BASE, are not formatted: run" >&2
echo "  $GIT_CLANG_FORMAT --binary $CLANG_FORMAT $BASE" >&2
exit 1
