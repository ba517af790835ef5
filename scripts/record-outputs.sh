#!/usr/bin/env bash
# Records what occlint prints for every test input and for the bundled project,
# so that a change meant to keep behaviour (a refactor, a move of files) can be
# shown byte-identical: record before, record after, diff -r the two folders.
#
#   scripts/record-outputs.sh OUT_DIR [BUILD_DIR]      # BUILD_DIR default: build
#   scripts/compare-records.py before/ after/ BUILD_A BUILD_B   # must find none
#   (diff -r, less the build folders' paths and the SARIF rules' embedded pages)
#
# For each .cu file under test-inputs/ (and the bundled project through its
# compile_commands.json) it writes the text, --format=json, --format=sarif and
# `report --markdown` outputs, each with the toolkit (ptxas runs) and with
# --no-compile, with every cuda-* check on, for H100 and A100. Each file starts
# from an empty cache (OCCLINT_CACHE_DIR in a fresh temporary folder): its
# first run compiles, the other three formats of the same mode read what that
# run cached, as a user's second run would (sharing it runs ptxas a quarter
# as often).
# Compare records made from the same checkout path: outputs name absolute paths.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: scripts/record-outputs.sh OUT_DIR [BUILD_DIR]}"
BUILD="${2:-build}"
OCCLINT="$PWD/$BUILD/bin/occlint"
[ -x "$OCCLINT" ] || { echo "record-outputs: no occlint at $OCCLINT (build first)" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT

COMMON=(--gpu H100 --gpu A100 --checks='-*,cuda-*' --jobs 1)

# run NAME -- ARGS...: stdout, stderr (the exit code appended) into $OUT/NAME.*,
# with the cache in $cache (set by record).
run() {
  local name="$1"; shift
  OCCLINT_CACHE_DIR="$cache" "$OCCLINT" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  echo "exit $?" >>"$OUT/$name.err"
}

# record NAME WHAT...: the four formats, with and without the compiler.
record() {
  local name="$1"; shift
  for mode in compile no-compile; do
    local cache="$SCRATCH/cache-$name.$mode"
    rm -rf "$cache"
    local extra=()
    [ "$mode" = no-compile ] && extra=(--no-compile)
    run "$name.$mode.text" "${COMMON[@]}" "${extra[@]}" "$@"
    run "$name.$mode.json" "${COMMON[@]}" "${extra[@]}" --format=json "$@"
    run "$name.$mode.sarif" "${COMMON[@]}" "${extra[@]}" --format=sarif "$@"
    run "$name.$mode.report" report --markdown --gpu H100 --gpu A100 --jobs 1 "${extra[@]}" "$@"
  done
}

while IFS= read -r file; do
  name="$(echo "$file" | tr '/' '_')"
  record "$name" "$PWD/$file" -- -I"$(dirname "$PWD/$file")"
done < <(find test-inputs -name '*.cu' -not -path 'test-inputs/project/*' | LC_ALL=C sort)

# The bundled project, through the nvcc compile database (as scripts/example.sh).
PROJECT="$PWD/test-inputs/project"
DB="$SCRATCH/project-build"
mkdir -p "$DB"
sed -e "s|@PROJECT_SOURCE@|$PROJECT|g" -e "s|@PROJECT_BUILD@|$DB|g" \
    -e "s|@NVCC@|${CUDA_PATH:-/usr/local/cuda}/bin/nvcc|g" \
    "$PROJECT/compile_commands.json.in" > "$DB/compile_commands.json"
record project -p "$DB"
# The database folder is a fresh temporary one each time: name it the same way.
sed -i "s|$DB|<project-build>|g" "$OUT"/project.*
echo "record-outputs: $(ls "$OUT" | wc -l) files in $OUT" >&2
