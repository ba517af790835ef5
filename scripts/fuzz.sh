#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/, OCCLINT_FUZZERS=ON with
# clang++-22, in build-fuzz/) and runs one of them for a CPU budget, then
# merges what it found into the committed corpus and records the run in the
# ledger (tests/fuzz/ledger.tsv). docs/fuzzing.md.
#   scripts/fuzz.sh build                 # configure and build every target
#   scripts/fuzz.sh run TARGET [SECONDS]  # fuzz one target (default 60 s), merge, record
#   scripts/fuzz.sh replay [TARGET...]    # run the committed corpora once (regressions)
#   scripts/fuzz.sh totals                # CPU time, executions, coverage per target so far
#   scripts/fuzz.sh list
# One process per run (one core). Environment: BUILD_DIR (build-fuzz), JOBS (1),
# FUZZ_SLOT (empty): give two concurrent runs of one target different slots
# (1, 2) so that each has its own work folder and log; their merges into the
# committed corpus and the ledger take turns (flock).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR="${BUILD_DIR:-build-fuzz}"
TARGETS=(fuzz-ptxas-report fuzz-nvcc-command fuzz-gpu-database fuzz-compile-database
         fuzz-lsp fuzz-check-options fuzz-cuda-source)
LEDGER=tests/fuzz/ledger.tsv
# LLVM and Clang (Debian's shared libraries) are not instrumented; the leaks
# LeakSanitizer would see in them are not ours, see docs/fuzzing.md.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-22 \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      -DOCCLINT_FUZZERS=ON -DOCCLINT_BUILD_TESTS=OFF >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j "${JOBS:-1}" --target "$@"
}

# The flags and extra seed directories of each target.
target_flags() {
  case "$1" in
    fuzz-cuda-source) echo "-dict=tests/fuzz/cuda.dict -rss_limit_mb=4096 -timeout=60 -max_len=8192" ;;
    fuzz-lsp | fuzz-compile-database | fuzz-check-options) echo "-rss_limit_mb=4096 -timeout=30" ;;
    fuzz-gpu-database) echo "-rss_limit_mb=2048 -timeout=10 -max_len=8192" ;;
    *) echo "-rss_limit_mb=2048 -timeout=10" ;;
  esac
}
target_seeds() {
  case "$1" in
    fuzz-cuda-source) find test-inputs -name '*.cu' -size -8k ;;
    fuzz-ptxas-report) find test-inputs -name '*.log' ;;
  esac
}

check_target() {
  local t
  for t in "${TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
  echo "fuzz.sh: unknown target '$1' (scripts/fuzz.sh list)" >&2
  exit 2
}

run() {
  local target="$1" seconds="${2:-60}"
  check_target "$target"
  build "$target"
  local bin="$BUILD_DIR/bin/$target" corpus="tests/fuzz/corpus/$target"
  local work="$BUILD_DIR/fuzz-work/$target${FUZZ_SLOT:+-$FUZZ_SLOT}" artifacts
  artifacts="$BUILD_DIR/fuzz-artifacts/$target/$(date -u +%Y%m%dT%H%M%S)${FUZZ_SLOT:+-$FUZZ_SLOT}/" # this run's crashes
  local seeds log times
  mkdir -p "$corpus" "$work" "$artifacts"
  seeds="$(mktemp -d)"
  log="$BUILD_DIR/fuzz-work/$target${FUZZ_SLOT:+-$FUZZ_SLOT}.log"
  times="$(mktemp)"
  while IFS= read -r f; do cp "$f" "$seeds/$(echo "$f" | tr / _)"; done < <(target_seeds "$target")
  # shellcheck disable=SC2046
  local rc=0
  /usr/bin/time -f "%U %S" -o "$times" "$bin" $(target_flags "$target") -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$corpus" "$seeds" >"$log" 2>&1 || rc=$?
  local cpu execs cov ft
  cpu="$(tail -1 "$times" | awk '{printf "%.0f", $1 + $2}')" # after "Command exited with..."
  execs="$(grep -a '^stat::number_of_executed_units:' "$log" | tail -1 | awk '{print $2}')"
  cov="$(grep -aoE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)"
  ft="$(grep -aoE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)"
  # The committed corpus: a fresh edge-coverage minimization of the old one
  # plus everything this and earlier runs found (-use_counters=0 keeps one
  # input per edge rather than per hit count: a small corpus, same coverage).
  local fresh
  exec 9>"$BUILD_DIR/fuzz-work/$target.lock"
  flock 9 # one merge into the corpus (and one ledger line) at a time
  fresh="$(mktemp -d)"
  # shellcheck disable=SC2046
  "$bin" $(target_flags "$target") -merge=1 -use_counters=0 "$fresh" "$corpus" "$work" "$seeds" >"$log.merge" 2>&1
  rm -f "$corpus"/*
  cp "$fresh"/* "$corpus"/ 2>/dev/null || true
  rm -rf "$fresh" "$seeds" "$times"
  local crashes
  crashes="$(find "$artifacts" -type f | wc -l)"
  [ -f "$LEDGER" ] || printf 'date\ttarget\tcpu_s\texecutions\tcov\tft\tcorpus_files\tcorpus_bytes\tartifacts\tcommit\n' >"$LEDGER"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$target" "$cpu" "${execs:-?}" \
    "${cov:-?}" "${ft:-?}" "$(find "$corpus" -type f | wc -l)" "$(cat "$corpus"/* 2>/dev/null | wc -c)" \
    "$crashes" "$(git rev-parse --short HEAD)" >>"$LEDGER"
  tail -1 "$LEDGER"
  flock -u 9
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    echo "fuzz.sh: $target: exit $rc, $crashes artifact(s) in $artifacts; log: $log" >&2
    return 1
  fi
}

replay() {
  local targets=("$@") t status=0
  ((${#targets[@]})) || targets=("${TARGETS[@]}")
  build "${targets[@]}"
  for t in "${targets[@]}"; do
    local dirs=()
    [ -d "tests/fuzz/corpus/$t" ] && dirs+=("tests/fuzz/corpus/$t")
    [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
    ((${#dirs[@]})) || continue
    # shellcheck disable=SC2046
    if "$BUILD_DIR/bin/$t" $(target_flags "$t") -runs=0 "${dirs[@]}" >"$BUILD_DIR/replay-$t.log" 2>&1; then
      echo "replay: $t: ok"
    else
      echo "replay: $t: FAILED ($BUILD_DIR/replay-$t.log)"; status=1
    fi
  done
  return $status
}

# Per target: the ledger's CPU time and executions added up, against the
# budget (issue 13: 30 CPU-minutes per parser, 3 CPU-hours for the source
# target), and the last run's coverage.
totals() {
  awk -F'\t' 'NR > 1 {
      cpu[$2] += $3; ex[$2] += $4; runs[$2]++; cov[$2] = $5; ft[$2] = $6; order[$2] = order[$2] ? order[$2] : NR }
    END {
      printf "| Target | Runs | CPU time | Budget | Executions | cov (last run) | ft (last run) |\n"
      printf "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
      for (t in cpu) {
        budget = (t == "fuzz-cuda-source") ? 10800 : 1800
        printf "| `%s` | %d | %.1f min | %.0f%% of %d min | %d | %s | %s |\n", t, runs[t], cpu[t] / 60,
               100 * cpu[t] / budget, budget / 60, ex[t], cov[t], ft[t]
      }
    }' "$LEDGER"
}

case "${1:-}" in
  build) build "${TARGETS[@]}" ;;
  run) shift; [ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh run TARGET [SECONDS]" >&2; exit 2; }; run "$@" ;;
  replay) shift; replay "$@" ;;
  totals) totals ;;
  list) printf '%s\n' "${TARGETS[@]}" ;;
  *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
