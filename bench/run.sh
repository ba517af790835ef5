#!/usr/bin/env bash
# $COMMON, $F, $flags are word lists on purpose (no path in them has blanks).
# shellcheck disable=SC2086
# occlint's cost per file, side by side with the tools it is compared with.
# Method, caveats and the last results: bench/README.md.
#
#   bench/run.sh                     # all files, RUNS=2 WARMUP=0 (6 minutes on the shared 2-core VM
#                                    #  at load ~2.5; RUNS=3 went past 10 minutes when the load rose to 7)
#   RUNS=5 WARMUP=1 bench/run.sh     # the full protocol (about 20-30 minutes on the 2-core VM)
#   FILES='launches|saxpy' bench/run.sh   # only the files whose name matches (grep -E)
#
# Writes bench/results/<UTC date_time>.md and .json. Builds nothing: it times
# build/bin/occlint and build/lib/libOcclintTidyModule.so as they are, and says
# so in the results when they are older than the sources.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
OCCLINT="${OCCLINT:-$ROOT/build/bin/occlint}"
MODULE="${MODULE:-$ROOT/build/lib/libOcclintTidyModule.so}"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
CLANG="${CLANG:-clang++-22}"
TIDY="${TIDY:-clang-tidy-22}"
NVCC="$CUDA/bin/nvcc"
RUNS="${RUNS:-2}"
WARMUP="${WARMUP:-0}"
FILES="${FILES:-}"
GPU=H100   # sm_90: one parse and one ptxas run per file
ARCH=sm_90
STAMP="$(date -u +%Y-%m-%d_%H%M)"
OUT="$BENCH/results"

for tool in "$OCCLINT" "$MODULE" "$NVCC"; do
  { [ -s "$tool" ] && [ -x "$tool" ]; } || { echo "run.sh: $tool is missing, empty or not executable (being linked? build occlint first; this script builds nothing)" >&2; exit 1; }
done
for tool in "$CLANG" "$TIDY" python3; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool not found" >&2; exit 1; }
done
if command -v hyperfine >/dev/null; then TIMER=hyperfine; else TIMER=timeloop; fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/occlint-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT" "$WORK/json" "$WORK/log"
# Nothing below may touch ~/.cache/occlint: every occlint run gets its own cache dir.
export OCCLINT_CACHE_DIR="$WORK/cache-unused"
START_EPOCH="$(date +%s)"
cut -d' ' -f1-3 /proc/loadavg > "$WORK/load_start"
# Someone may rebuild while this runs: time copies taken now (cp -p keeps the
# build time), and note whether the originals changed by the end.
stat -c '%n %s %Y' "$OCCLINT" "$MODULE" > "$WORK/binaries_start"
mkdir -p "$WORK/bin" "$WORK/lib"
cp -p "$OCCLINT" "$WORK/bin/occlint"
cp -p "$MODULE" "$WORK/lib/$(basename "$MODULE")"
ORIG_OCCLINT="$OCCLINT" ORIG_MODULE="$MODULE"
OCCLINT="$WORK/bin/occlint" MODULE="$WORK/lib/$(basename "$MODULE")"

python3 "$BENCH/files.py" > "$WORK/files.tsv"
if [ -n "$FILES" ]; then
  grep -E -- "$FILES" "$WORK/files.tsv" > "$WORK/files.sel" || { echo "run.sh: no file matches '$FILES'" >&2; exit 1; }
  mv "$WORK/files.sel" "$WORK/files.tsv"
fi
NFILES="$(wc -l < "$WORK/files.tsv")"

# The flags every tool gets (occlint adds the same -isystem for CUDA 13's
# libcu++ itself; clang and clang-tidy get it here so that all parse the same).
COMMON="--cuda-path=$CUDA --cuda-device-only --cuda-gpu-arch=$ARCH -Wno-unknown-cuda-version -isystem $CUDA/include/cccl"

q() { printf '%q' "$1"; }

# Untimed: load every binary and the CUDA headers into the page cache once, and
# check that occlint compiles, stores and then finds its cache entry.
echo "run.sh: pre-warm and sanity check on example/launches.cu"
EX="$ROOT/test-inputs/example/launches.cu"
"$CLANG" -fsyntax-only $COMMON -x cuda "$EX"
"$TIDY" --quiet --load="$MODULE" --checks='-*,cuda-*' "$EX" -- $COMMON > /dev/null 2>&1 || true
"$NVCC" -arch=$ARCH -Xptxas -v --cubin -o /dev/null "$EX" > /dev/null 2>&1
OCCLINT_CACHE_DIR="$WORK/cache-sanity" "$OCCLINT" --verbose --gpu $GPU "$EX" -- $COMMON > "$WORK/log/sanity-cold.txt" 2>&1 || true
OCCLINT_CACHE_DIR="$WORK/cache-sanity" "$OCCLINT" --verbose --gpu $GPU "$EX" -- $COMMON > "$WORK/log/sanity-warm.txt" 2>&1 || true
grep -q "resources: ptxas, $ARCH\$" "$WORK/log/sanity-cold.txt" || { echo "run.sh: occlint did not compile on the cold run:" >&2; cat "$WORK/log/sanity-cold.txt" >&2; exit 1; }
grep -q "resources: ptxas, $ARCH, cached" "$WORK/log/sanity-warm.txt" || { echo "run.sh: occlint missed its cache on the warm run:" >&2; cat "$WORK/log/sanity-warm.txt" >&2; exit 1; }

i=0
while IFS=$'\t' read -r name path flags _dropped; do
  i=$((i + 1))
  echo "run.sh: [$i/$NFILES] $name"
  cache="$WORK/cache-$i"
  F="$COMMON $flags"
  NVCCF="$flags"
  names=(clang occlint-no-compile clang-tidy nvcc occlint-cold occlint-warm)
  cmds=(
    "$(q "$CLANG") -fsyntax-only $F -x cuda $(q "$path")"
    "OCCLINT_CACHE_DIR=$(q "$WORK/cache-none") $(q "$OCCLINT") --no-compile --gpu $GPU $(q "$path") -- $F"
    "$(q "$TIDY") --quiet --load=$(q "$MODULE") --checks='-*,cuda-*' $(q "$path") -- $F"
    "$(q "$NVCC") -arch=$ARCH -Xptxas -v --cubin -o /dev/null $NVCCF $(q "$path")"
    "OCCLINT_CACHE_DIR=$(q "$cache") $(q "$OCCLINT") --gpu $GPU $(q "$path") -- $F"
    "OCCLINT_CACHE_DIR=$(q "$cache") $(q "$OCCLINT") --gpu $GPU $(q "$path") -- $F"
  )
  # Cold: the cache dir is emptied before every run (and every warm-up run).
  # Warm: runs right after the cold runs on the same dir, so the entry exists.
  preps=(true true true true "rm -rf $(q "$cache")" true)
  json="$WORK/json/$i.json"
  if [ "$TIMER" = hyperfine ]; then
    args=(--runs "$RUNS" --warmup "$WARMUP" --ignore-failure --style basic --export-json "$json")
    for k in "${!cmds[@]}"; do args+=(--prepare "${preps[$k]}"); done
    for k in "${!cmds[@]}"; do args+=(--command-name "${names[$k]}"); done
    hyperfine "${args[@]}" "${cmds[@]}" > "$WORK/log/$i.txt" 2>&1 || { cat "$WORK/log/$i.txt" >&2; exit 1; }
    grep -E '^(Benchmark|  Time)' "$WORK/log/$i.txt" | paste - - | sed -E 's/Benchmark [0-9]+: ([^ ]+).*Time \(mean ± σ\): +/  \1: /' || true
  else
    args=(--runs "$RUNS" --warmup "$WARMUP" --export-json "$json")
    for k in "${!cmds[@]}"; do args+=(--name "${names[$k]}" --prepare "${preps[$k]}" --command "${cmds[$k]}"); done
    python3 "$BENCH/timeloop.py" "${args[@]}"
  fi
  # One cache entry per file (one arch): the cold runs compiled and stored it.
  { find "$cache" -name '*.json' 2> /dev/null || true; } | wc -l > "$WORK/json/$i.entries"
  if [ "$(cat "$WORK/json/$i.entries")" != 1 ]; then
    # Why (untimed): occlint's own warning, e.g. the device compile failed.
    OCCLINT_CACHE_DIR="$cache" "$OCCLINT" --verbose --gpu $GPU "$path" -- $F 2>&1 |
      grep -E '^occlint: (warning|.*resources:)' > "$WORK/json/$i.why" || true
  fi
  printf '%s\n' "${cmds[@]}" > "$WORK/json/$i.commands"
done < "$WORK/files.tsv"

cut -d' ' -f1-3 /proc/loadavg > "$WORK/load_end"
stat -c '%n %s %Y' "$ORIG_OCCLINT" "$ORIG_MODULE" > "$WORK/binaries_end"
echo $(( $(date +%s) - START_EPOCH )) > "$WORK/wall_s"
python3 "$BENCH/report.py" --work "$WORK" --out "$OUT/$STAMP" --timer "$TIMER" --runs "$RUNS" --warmup "$WARMUP" \
  --occlint "$OCCLINT" --module "$MODULE" --occlint-orig "$ORIG_OCCLINT" --module-orig "$ORIG_MODULE" --clang "$CLANG" --tidy "$TIDY" --nvcc "$NVCC" --gpu "$GPU" --arch "$ARCH" \
  --common "$COMMON"
echo "run.sh: wrote $OUT/$STAMP.md and $OUT/$STAMP.json"
