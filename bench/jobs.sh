#!/usr/bin/env bash
# What --jobs buys: occlint --no-compile on every test input
# (test-inputs/checks/*.cu, one file per translation unit), with --jobs 1 and
# --jobs N side by side in one hyperfine call, against N sequential runs of
# clang -fsyntax-only as the reference for the parse alone. Resources are
# estimated (--no-compile) so that no nvcc time is measured. Builds nothing.
#
#   bench/jobs.sh                  # N = the CPU cores, RUNS=3 WARMUP=1
# Writes bench/results/jobs-<UTC date_time>.md (and the hyperfine JSON).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OCCLINT="${OCCLINT:-$ROOT/build/bin/occlint}"
CLANG="${CLANG:-clang++-22}"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
RUNS="${RUNS:-3}"
WARMUP="${WARMUP:-1}"
N="${N:-$(nproc)}"
STAMP="$(date -u +%Y-%m-%d_%H%M)"
OUT="$ROOT/bench/results/jobs-$STAMP"
command -v hyperfine >/dev/null || { echo "jobs.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$OCCLINT" ] || { echo "jobs.sh: $OCCLINT missing; build first" >&2; exit 1; }
FILES=("$ROOT"/test-inputs/checks/*.cu)
FLAGS="-x cuda -Wno-unknown-cuda-version"
if [ -x "$CUDA/bin/ptxas" ]; then
  PARSE="--cuda-path=$CUDA -isystem $CUDA/include/cccl"
else
  PARSE="-nocudainc -nocudalib -I$ROOT/tool/builtin-cuda"
fi
# The reference: the device-side parse of every file, one after the other.
CLANG_ALL=""
for F in "${FILES[@]}"; do
  CLANG_ALL+="$CLANG -fsyntax-only --cuda-device-only --cuda-gpu-arch=sm_90 $PARSE $FLAGS $F >/dev/null 2>&1; "
done
hyperfine --runs "$RUNS" --warmup "$WARMUP" --ignore-failure --export-json "$OUT.json" \
  -n "clang -fsyntax-only, ${#FILES[@]} files in a row" "$CLANG_ALL" \
  -n "occlint --jobs 1" "$OCCLINT --quiet --no-compile --gpu H100 --jobs 1 ${FILES[*]} -- $FLAGS" \
  -n "occlint --jobs $N" "$OCCLINT --quiet --no-compile --gpu H100 --jobs $N ${FILES[*]} -- $FLAGS" >/dev/null
python3 - "$OUT.json" "$OUT.md" "$STAMP" "$N" "${#FILES[@]}" "$(git -C "$ROOT" rev-parse --short HEAD)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)" "$RUNS" "$WARMUP" <<'PY'
import json, sys
src, out, stamp, n, files, rev, load, runs, warmup = sys.argv[1:]
results = json.load(open(src))["results"]
base = results[1]["median"]
lines = [f"# --jobs, {stamp}", "",
         f"occlint {rev}, {files} files (test-inputs/checks/*.cu), --no-compile --gpu H100; "
         f"hyperfine --runs {runs} --warmup {warmup}; {n} jobs = `nproc`; load at start: {load}.", "",
         "| command | median (s) | min (s) | max (s) | vs occlint --jobs 1 |", "|---|---:|---:|---:|---:|"]
for r in results:
    lines.append(f"| {r['command']} | {r['median']:.2f} | {r['min']:.2f} | {r['max']:.2f} | {r['median'] / base:.2f} |")
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
