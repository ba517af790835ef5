#!/usr/bin/env bash
# The GPU half of issue 46's checks, for a machine with an NVIDIA GPU and the
# CUDA toolkit (the `device` tool's machines): run it there as one script.
#   1. compute-sanitizer --tool racecheck and --tool synccheck on the kernels of
#      test-inputs/checks/pipeline-hazards.cu (bench/gpu/pipeline_hazards_driver.cu):
#      the broken ones (looseWait, noWait, noBarrierAfterWait,
#      noBarrierBeforeRefill, threeStagesLoose, groupCopiesLoose) against
#      occlint's findings on the same file; the same for the libcu++ forms
#      (test-inputs/checks/pipeline-hazards-libcu.cu through
#      bench/gpu/pipeline_libcu_driver.cu: cuda::pipeline of block and thread
#      scope, a producer/consumer split, cuda::barrier) and for rings filled in
#      called functions (pipeline-hazards-calls.cu, pipeline_calls_driver.cu);
#   2. bench/gpu/pipeline_depth.cu at S = 1..4, load-bound (work 1) and
#      compute-bound (work 64), next to occlint's staircase for the same
#      kernel (`occlint occupancy --stages`), so that the measured best depth
#      can be set beside the model's.
# Without a GPU it says so and stops (exit 0): the results need one.
# Usage: bench/pipeline_gpu.sh [ARCH]   (default sm_90); prints everything.
set -uo pipefail
cd "$(dirname "$0")/.."
ARCH=${1:-sm_90}
CUDA=${CUDA_PATH:-/usr/local/cuda}
OUT=${OUT:-$(mktemp -d)}
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "pipeline_gpu: no NVIDIA GPU here: nothing measured"
  exit 0
fi
nvidia-smi -L
"$CUDA/bin/nvcc" -arch="$ARCH" -std=c++17 -lineinfo -o "$OUT/hazards" bench/gpu/pipeline_hazards_driver.cu || exit 1
"$CUDA/bin/nvcc" -arch="$ARCH" -std=c++17 -lineinfo -o "$OUT/libcu" bench/gpu/pipeline_libcu_driver.cu || exit 1
"$CUDA/bin/nvcc" -arch="$ARCH" -std=c++17 -lineinfo -o "$OUT/calls" bench/gpu/pipeline_calls_driver.cu || exit 1
"$CUDA/bin/nvcc" -arch="$ARCH" -std=c++17 -O3 -o "$OUT/depth" bench/gpu/pipeline_depth.cu || exit 1
for pair in hazards:pipeline-hazards libcu:pipeline-hazards-libcu calls:pipeline-hazards-calls; do
  program=${pair%%:*} input=${pair#*:}
  echo "== occlint on $input.cu"
  build/bin/occlint --no-compile --quiet --gpu "$ARCH" --checks='-*,cuda-pipeline-*' "test-inputs/checks/$input.cu" -- \
    | grep -E 'warning:|error:' || true
  for tool in racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool ($program)"
    "$CUDA/bin/compute-sanitizer" --tool "$tool" --print-limit 200 "$OUT/$program" 2>&1 |
      grep -E "ERROR|WARNING|hazard|Race|kernels ran|at 0x|$input.cu" | sort | uniq -c | head -80
  done
done
echo "== depth: measured (10 launches, median-free mean of ms per launch)"
"$OUT/depth" 1
"$OUT/depth" 64
echo "== depth: occlint's staircase for ring<S> (256 threads, 8 KB per stage; registers from ptxas)"
"$CUDA/bin/cuobjdump" --dump-resource-usage "$OUT/depth" 2>/dev/null | grep -E 'Function|REG' | head -8
build/bin/occlint occupancy --gpu "$ARCH" --block 256 --regs 32 --stages 1-4 --smem-per-stage 8K
