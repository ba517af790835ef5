#!/usr/bin/env bash
# occlint's predicted active threads per warp (--format json:
# kernels[].predictedActiveThreadsPerWarp, divergence/BranchLoss.h) next to
# what Nsight Compute measures on a GPU (Avg. Active Threads Per Warp,
# smsp__thread_inst_executed_per_inst_executed.ratio), kernel by kernel, on
# our own input test-inputs/checks/divergence-branch-loss.cu.
#
# Needs a GPU, nvcc and ncu (CI has none; run it where one is):
#   bench/divergence/ncu_active_threads.sh [build/bin/occlint]
# Prints one row per kernel: name, predicted, measured, difference.
set -euo pipefail
cd "$(dirname "$0")/../.."
OCCLINT="${1:-build/bin/occlint}"
CUDA="${CUDA_PATH:-/usr/local/cuda}"
NCU="${NCU:-$(command -v ncu || echo "$CUDA/bin/ncu")}"
INPUT=test-inputs/checks/divergence-branch-loss.cu
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# A host driver that launches every kernel of the input once (its run()).
cat > "$WORK/driver.cu" <<CU
#include "$PWD/$INPUT"
int main() {
  const int n = 1 << 20;
  float *a, *b, *out;
  cudaMalloc(&a, (256 + 64) * size_t(n) * sizeof(float));
  cudaMalloc(&b, size_t(n + 64) * sizeof(float));
  cudaMalloc(&out, size_t(n + 64) * sizeof(float));
  cudaMemset(a, 0, (256 + 64) * size_t(n) * sizeof(float));
  cudaMemset(b, 0, size_t(n + 64) * sizeof(float));
  run(a, b, out, n);
  return cudaDeviceSynchronize() != cudaSuccess;
}
CU
"$CUDA/bin/nvcc" -O3 -arch=native -o "$WORK/driver" "$WORK/driver.cu"
"$NCU" --metrics smsp__thread_inst_executed_per_inst_executed.ratio --csv "$WORK/driver" > "$WORK/ncu.csv"
"$OCCLINT" --gpu=H100 --no-compile --format=json --checks=-*,cuda-divergence-branch "$INPUT" -- > "$WORK/occlint.json" || true

python3 - "$WORK/ncu.csv" "$WORK/occlint.json" <<'PY'
import csv, json, re, sys
measured = {}
with open(sys.argv[1]) as f:
    rows = [l for l in f if l.startswith('"')]
for r in csv.DictReader(rows):
    if r.get('Metric Name', '').startswith('smsp__thread_inst_executed_per_inst_executed'):
        name = re.sub(r'\(.*', '', r['Kernel Name']).strip()
        measured[name.split()[-1]] = float(r['Metric Value'].replace(',', ''))
predicted = {k['name']: k.get('predictedActiveThreadsPerWarp') for k in json.load(open(sys.argv[2]))['kernels']}
print('%-26s %10s %10s %8s' % ('kernel', 'predicted', 'measured', 'diff'))
for name, p in sorted(predicted.items()):
    m = measured.get(name)
    diff = '%+8.1f' % (p - m) if p is not None and m is not None else '       -'
    print('%-26s %10s %10s %s' % (name, '-' if p is None else '%.1f' % p, '-' if m is None else '%.1f' % m, diff))
PY
