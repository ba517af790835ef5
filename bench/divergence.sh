#!/usr/bin/env bash
# The cost of the divergence analysis (issue 4: "adds under 10 % to a file's
# analysis time"): occlint --no-compile with every default check against the
# same run with the cuda-divergence-* checks turned off, side by side per file
# in one hyperfine call. Resources are estimated (--no-compile) so that no
# nvcc time hides the difference. Builds nothing; times build/bin/occlint.
#
#   bench/divergence.sh            # RUNS=5 WARMUP=1
# Writes bench/results/divergence-<UTC date_time>.md (and the hyperfine JSON).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OCCLINT="${OCCLINT:-$ROOT/build/bin/occlint}"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-1}"
STAMP="$(date -u +%Y-%m-%d_%H%M)"
OUT="$ROOT/bench/results/divergence-$STAMP"
command -v hyperfine >/dev/null || { echo "divergence.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$OCCLINT" ] || { echo "divergence.sh: $OCCLINT missing; build first" >&2; exit 1; }
FILES=("$ROOT"/test-inputs/checks/divergence-*.cu "$ROOT"/test-inputs/checks/seed-examples.cu)
mkdir -p "$OUT"
{
  echo "# Divergence analysis cost, $STAMP"
  echo
  echo "occlint $(git -C "$ROOT" rev-parse --short HEAD), --no-compile --gpu H100, hyperfine --runs $RUNS --warmup $WARMUP; load at start: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| file | without divergence checks (s) | with (s) | added |"
  echo "|---|---:|---:|---:|"
} > "$OUT.md"
for F in "${FILES[@]}"; do
  NAME="$(basename "$F" .cu)"
  hyperfine --style none --runs "$RUNS" --warmup "$WARMUP" -i --export-json "$OUT/$NAME.json" \
    -n without "$OCCLINT --quiet --no-compile --gpu H100 --checks=-*,cuda-*,-cuda-divergence-* $F --" \
    -n with "$OCCLINT --quiet --no-compile --gpu H100 $F --" >/dev/null
  python3 - "$OUT/$NAME.json" "$NAME" >> "$OUT.md" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
w, d = r["without"], r["with"]
print(f"| {sys.argv[2]} | {w:.3f} | {d:.3f} | {100 * (d - w) / w:+.1f} % |")
PY
done
cat "$OUT.md"
