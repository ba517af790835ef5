#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh, building only occlint: the test suite's
# targets are scripts/test.sh's) and runs occlint on the bundled example: the CMake CUDA project in test-inputs/project, through the
# compile_commands.json that CMake wrote for nvcc (instantiated here for this
# checkout), then the occupancy calculator on one launch. GPU=A100 picks
# another target (default H100).
# Exit code: occlint's (1 = the project has launches that cannot start, as
# planted; see test-inputs/project/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh occlint
GPU="${GPU:-H100}"
PROJECT="$PWD/test-inputs/project"
BUILD="$PWD/build/example-project"
mkdir -p "$BUILD"
sed -e "s|@PROJECT_SOURCE@|$PROJECT|g" -e "s|@PROJECT_BUILD@|$BUILD|g" \
    -e "s|@NVCC@|${CUDA_PATH:-/usr/local/cuda}/bin/nvcc|g" \
    "$PROJECT/compile_commands.json.in" > "$BUILD/compile_commands.json"
set -x
build/bin/occlint occupancy --gpu "$GPU" --block 256 --regs 130 --grid 1000
status=0
build/bin/occlint --gpu "$GPU" -p "$BUILD" || status=$?
exit "$status"
