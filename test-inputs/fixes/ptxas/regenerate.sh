#!/usr/bin/env bash
# Regenerates the ptxas reports the register-cliff inputs of test-inputs/fixes
# read with --ptxas-log: real `nvcc -Xptxas -v` output for sm_80 (and sm_90
# for safe-cliff-static).
# Needs the CUDA toolkit (default /usr/local/cuda; CUDA_PATH overrides).
set -euo pipefail
cd "$(dirname "$0")"
NVCC="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc"
for input in unsafe-cliff-external unsafe-cliff-larger-launch safe-cliff-static; do
  "$NVCC" -arch=sm_80 -Xptxas -v --cubin -o /dev/null "../$input.cu" > "$input.sm_80.log" 2>&1
  echo "wrote $input.sm_80.log"
done
# The static kernel for a second arch too (SafeFixesTest: two archs' notes
# insert the attribute once).
"$NVCC" -arch=sm_90 -Xptxas -v --cubin -o /dev/null ../safe-cliff-static.cu > safe-cliff-static.sm_90.log 2>&1
echo "wrote safe-cliff-static.sm_90.log"
