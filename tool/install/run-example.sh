#!/bin/sh
# Runs occlint on the bundled example (installed in share/occlint/example):
# a small CMake CUDA project with planted findings (README.md here). Its
# compile_commands.json is written for this copy into a temporary directory;
# nothing is written next to these files.
#   GPU=A100 share/occlint/example/run.sh     (default H100)
#   OCCLINT=/path/to/occlint run.sh           (default: the occlint installed with it, else PATH)
# Exit code: occlint's (1: the example has launches that cannot start, as planted).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
occlint=${OCCLINT:-$here/../../../bin/occlint}
[ -x "$occlint" ] || occlint=$(command -v occlint) || { echo "run.sh: no occlint next to the example or on PATH" >&2; exit 2; }
nvcc=${CUDA_PATH:-/usr/local/cuda}/bin/nvcc
build=$(mktemp -d "${TMPDIR:-/tmp}/occlint-example.XXXXXX")
trap 'rm -rf "$build"' EXIT
sed -e "s|@PROJECT_SOURCE@|$here|g" -e "s|@PROJECT_BUILD@|$build|g" -e "s|@NVCC@|$nvcc|g" \
    "$here/compile_commands.json.in" > "$build/compile_commands.json"
status=0
"$occlint" --gpu "${GPU:-H100}" -p "$build" || status=$?
exit "$status"
