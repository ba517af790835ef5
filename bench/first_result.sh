#!/usr/bin/env bash
# Time to the first result for a newcomer (issue 44, item 1).
#
# Method: a fresh clone of the repository (default: this checkout's HEAD) in
# WORKDIR, then the README's first command, scripts/example.sh, as a newcomer
# runs it: it installs what is missing (nothing when the packages are already
# there: the result says which), builds only occlint (not the test suite) and
# runs it on the bundled example. Measured with the wall clock from before the
# clone: the moment the first finding (a warning or error line naming a
# cuda-* check) appears on the example's output, and the end. One run: a build from scratch
# takes minutes, and the figure is about minutes, not seconds. The same
# clone's build directory then serves scripts/test.sh (NEXT=test), whose time
# is recorded too, to show that the example's targets are not built twice.
#
# Usage: bench/first_result.sh [REPO] [WORKDIR]      NEXT=test to run the suite after
# Writes bench/results/first-result-<date>.md.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="${1:-$here}"
work="${2:-/tmp/occlint-first-result}"
rm -rf "$work"
stamp() { date +%s.%N; }
t0=$(stamp)
git clone -q "$repo" "$work" || exit 2
t_clone=$(stamp)
missing=$(for p in llvm-22-dev libclang-22-dev libclang-cpp22-dev clang-22 clang-tidy-22 clang-tools-22 nlohmann-json3-dev libgtest-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"; done | tr '\n' ' ')
first=""
log="$work.example.log"
(cd "$work" && scripts/example.sh) 2>&1 | while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  # An occlint finding names its check ("... [cuda-launch-tiny-grid]"); the
  # build's own compiler warnings do not.
  if [ -z "$first" ] && [[ "$line" =~ (warning|error):.*\[cuda-[a-z-]+\]$ ]]; then
    first=$(stamp); echo "$first" > "$log.first"
  fi
done
t_end=$(stamp)
t_first=$(cat "$log.first" 2>/dev/null || echo "")
suite=""
if [ "${NEXT:-}" = test ]; then
  s0=$(stamp)
  (cd "$work" && scripts/test.sh) > "$work.test.log" 2>&1; rc=$?
  s1=$(stamp)
  suite=$(printf 'scripts/test.sh in the same clone afterwards: %.0f s, exit %d (%s)' "$(echo "$s1 - $s0" | bc)" "$rc" \
    "$(grep -E 'tests passed|tests failed' "$work.test.log" | tail -1)")
fi
out="$here/bench/results/first-result-$(date -u +%Y-%m-%d_%H%M).md"
{
  echo "# Time to the first result (bench/first_result.sh)"
  echo
  echo "- commit: $(git -C "$work" rev-parse --short HEAD); machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB"
  echo "- packages missing before the run: ${missing:-none (already installed: the apt step is not in the figure)}"
  printf -- '- clone: %.1f s\n' "$(echo "$t_clone - $t0" | bc)"
  if [ -n "$t_first" ]; then printf -- '- first finding on the output: %.0f s after the clone began\n' "$(echo "$t_first - $t0" | bc)"; else echo "- no finding was printed (see $log)"; fi
  printf -- '- scripts/example.sh done: %.0f s\n' "$(echo "$t_end - $t0" | bc)"
  echo "- targets built by the example: $(grep -c '^\[' "$log" 2>/dev/null || echo '?') build steps"
  [ -n "$suite" ] && echo "- $suite"
} > "$out"
cat "$out"
