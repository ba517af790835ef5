#!/usr/bin/env bash
# Regenerates the ptxas reports the test inputs in test-inputs/checks read
# with --ptxas-log: real `nvcc -Xptxas -v` output for each (input, arch).
# Needs the CUDA toolkit (default /usr/local/cuda; CUDA_PATH overrides).
set -euo pipefail
cd "$(dirname "$0")"
NVCC="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc"
report() { # input arch
  "$NVCC" -arch="$2" -Xptxas -v --cubin -o /dev/null "../$1.cu" > "$1.$2.log" 2>&1
  echo "wrote $1.$2.log"
}
report occupancy-register-cliff sm_80
report occupancy-spills sm_90
report launch-tail-wave sm_90
report launch-invalid-config sm_90
report seed-examples sm_80
report launch-device-values sm_90
report launch-precedence sm_90
report pipeline-depth sm_80
