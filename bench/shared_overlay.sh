#!/usr/bin/env bash
# What the second parse for rejected __shared__ objects costs
# (tool/lint/SharedDeclarationOverlay.h, docs/async-pipelines.md section 1).
#
# Method: farm-bench pairs two occlint runs on the same kernels, A then B,
# RUNS times (default 7, one warm-up), and reports medians and the A/B ratio
# pair by pair:
#   A  occlint on test-inputs/nvcc-parity/shared-barrier-pipeline.cu as
#      written: Clang rejects its two __shared__ objects, so occlint parses it
#      twice (the second time with the declarations rewritten);
#   B  occlint on a copy whose two declarations are already spelled the way
#      the rewrite spells them (`__occlsh__`): the same text, parsed once.
# A - B is the cost of the first, rejected parse. A third line gives
# `clang++-22 -fsyntax-only` of the copy (the same device-only parse
# occlint runs) as the yardstick.
# Usage: RUNS=7 bench/shared_overlay.sh   (needs build/bin/occlint and a CUDA toolkit)
# Writes bench/results/shared-overlay-<stamp>.md.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-7}
CUDA=${CUDA_PATH:-/usr/local/cuda}
OCCLINT=$PWD/build/bin/occlint
INPUT=$PWD/test-inputs/nvcc-parity/shared-barrier-pipeline.cu
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
sed 's/__shared__ cuda::/__occlsh__ cuda::/' "$INPUT" > "$WORK/rewritten.cu"
# The rewritten copy needs the prelude's macro for the plain Clang yardstick.
PRELUDE=$PWD/build/share/occlint/nvcc-compat/occlint_nvcc_compat.h
stamp=$(date -u +%Y-%m-%d_%H%M)
out=bench/results/shared-overlay-$stamp.md
args=(--no-compile --quiet --gpu=H100 --cuda-path="$CUDA" --checks='-*,cuda-occupancy-report')
{
  echo "# shared-overlay $stamp"
  echo
  echo "occlint $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); RUNS=$RUNS"
  echo
  echo '## A: as written (two parses) vs B: pre-rewritten (one parse)'
  echo '```'
  farm-bench -n "$RUNS" --timeout 600 --vs "$OCCLINT ${args[*]} $WORK/rewritten.cu -- -std=c++17" \
    -- "$OCCLINT" "${args[@]}" "$INPUT" -- -std=c++17
  echo '```'
  echo
  echo '## B vs clang++-22 -fsyntax-only of the same copy'
  echo '```'
  farm-bench -n "$RUNS" --timeout 600 \
    --vs "clang++-22 -fsyntax-only --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=$CUDA -isystem $CUDA/include/cccl -Wno-unknown-cuda-version -std=c++17 -include $PRELUDE $WORK/rewritten.cu" \
    -- "$OCCLINT" "${args[@]}" "$WORK/rewritten.cu" -- -std=c++17
  echo '```'
} | tee "$out"
echo "wrote $out" >&2
