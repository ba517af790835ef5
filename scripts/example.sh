#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs occlint on the bundled example
# for an H100 (override with GPU=...), then the occupancy calculator on one of
# its launches.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
GPU="${GPU:-H100}"
set -x
build/bin/occlint --gpu "$GPU" test-inputs/example/launches.cu --
build/bin/occlint occupancy --gpu "$GPU" --block 256 --regs 130 --grid 1000
