#!/usr/bin/env bash
# check-parse.sh -- parse every tool/builtin-cuda/tests/*.cu with occlint's
# built-in CUDA headers (source-only mode) and, when a CUDA toolkit exists,
# with the real toolkit headers; both must parse without errors and the AST
# facts of the test file itself must agree.
#
# Usage: tool/builtin-cuda/check-parse.sh [test.cu ...]
# Env:   CLANGXX  (default /usr/lib/llvm-22/bin/clang++)
#        CUDA_HOME (default: $CUDA_PATH, else /usr/local/cuda)
#        ARCHES   (default "sm_80 sm_90 sm_120")
#        VERBOSE=1 prints the fact lines of every run.
#
# Modes per file and arch:
#   builtin       -nocudainc -nocudalib -include occlint_cuda_builtin.h
#                 (the driver may still detect an installed toolkit's version)
#   builtin-notk  the same with --cuda-path pointing nowhere: exactly what a
#                 machine without a toolkit sees (<<<>>> then resolves to
#                 cudaConfigureCall instead of __cudaPushCallConfiguration)
#   real          --cuda-path=$CUDA_HOME -Wno-unknown-cuda-version
#
# Facts (counted only inside top-level declarations of the test file):
#   the __global__ function names, and counts of CUDAGlobalAttr,
#   CUDALaunchBoundsAttr, CUDAKernelCallExpr, CUDAClusterDimsAttr,
#   CUDASharedAttr, CUDAConstantAttr, HIPManagedAttr, CUDAGridConstantAttr,
#   CUDADeviceAttr, CUDAHostAttr, GCCAsmStmt.
# Exit status: 0 if everything parsed and agreed, 1 otherwise.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CLANGXX=${CLANGXX:-/usr/lib/llvm-22/bin/clang++}
CUDA_HOME=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
ARCHES=${ARCHES:-"sm_80 sm_90 sm_120"}
VERBOSE=${VERBOSE:-0}

if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/tests/*.cu); fi
have_real=0
[ -d "$CUDA_HOME/include" ] && have_real=1
[ $have_real = 1 ] || echo "note: no CUDA toolkit at $CUDA_HOME; checking the built-in headers only"

# Real-toolkit quirks (CUDA 13 with Clang 22):
#  - the driver passes no -target-sdk-version for a CUDA version newer than it
#    knows, so Sema falls back to cudaConfigureCall for <<<>>>, which CUDA 13
#    no longer declares: pass the version from cuda.h explicitly;
#  - CUDA 13 moved libcu++/CCCL (cuda/std/...) to include/cccl, which nvcc
#    adds by itself and clang does not.
real_extra=()
if [ $have_real = 1 ]; then
  v=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$CUDA_HOME/include/cuda.h" 2>/dev/null | head -1)
  [ -n "$v" ] && real_extra+=(-Xclang "-target-sdk-version=$((v / 1000)).$((v % 1000 / 10))")
  [ -d "$CUDA_HOME/include/cccl" ] && real_extra+=(-isystem "$CUDA_HOME/include/cccl")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# facts FILE.cu < ast-dump : print "key value" lines for the test file.
facts() {
  awk -v main="$1" '
    function update_file(line,   s, tok) {
      s = line
      while (match(s, /(<[a-z -]+>|[^ <>,]+):[0-9]+:[0-9]+/)) {
        tok = substr(s, RSTART, RLENGTH)
        sub(/:[0-9]+:[0-9]+$/, "", tok)
        if (tok != "line") cur = tok
        s = substr(s, RSTART + RLENGTH)
      }
    }
    {
      update_file($0)
      if ($0 ~ /^[|`]-/) {            # a top-level declaration starts
        inmain = (cur == main)
      }
      if (!inmain) next
      if ($0 ~ /FunctionDecl 0x/) {
        s = $0; sub(/'"'"'.*/, "", s); n = split(s, f, " "); fn = f[n]
      }
      if ($0 ~ /CUDAGlobalAttr/) print "global-fn " fn
      n = split("CUDAGlobalAttr CUDALaunchBoundsAttr CUDAKernelCallExpr CUDAClusterDimsAttr CUDASharedAttr CUDAConstantAttr HIPManagedAttr CUDAGridConstantAttr CUDADeviceAttr CUDAHostAttr GCCAsmStmt", keys, " ")
      for (k = 1; k <= n; k++)
        if (index($0, keys[k] " 0x")) count[keys[k]]++
    }
    END {
      n = split("CUDAGlobalAttr CUDALaunchBoundsAttr CUDAKernelCallExpr CUDAClusterDimsAttr CUDASharedAttr CUDAConstantAttr HIPManagedAttr CUDAGridConstantAttr CUDADeviceAttr CUDAHostAttr GCCAsmStmt", keys, " ")
      for (k = 1; k <= n; k++) print "count " keys[k] " " (count[keys[k]] + 0)
    }' | sort
}

# run MODE ARCH FILE : parse, write $tmp/MODE.facts, return clang status
run() {
  local mode=$1 arch=$2 file=$3 args
  case $mode in
    builtin)      args=(-nocudainc -nocudalib -I "$here" -include occlint_cuda_builtin.h) ;;
    builtin-notk) args=(--cuda-path=/nonexistent-occlint-no-cuda -nocudainc -nocudalib -I "$here" -include occlint_cuda_builtin.h) ;;
    real)         args=(--cuda-path="$CUDA_HOME" -Wno-unknown-cuda-version -nocudalib "${real_extra[@]}") ;;
  esac
  "$CLANGXX" -x cuda --cuda-device-only --cuda-gpu-arch="$arch" "${args[@]}" \
    -fsyntax-only -Xclang -ast-dump "$file" >"$tmp/$mode.ast" 2>"$tmp/$mode.err"
  local rc=$?
  facts "$file" <"$tmp/$mode.ast" >"$tmp/$mode.facts"
  return $rc
}

summary() {  # one line: G=globals LB=launch_bounds K=kernel calls ...
  awk '$1 == "count" { c[$2] = $3 }
       END { printf "global=%d launch_bounds=%d kernel_calls=%d cluster_dims=%d shared=%d constant=%d managed=%d grid_constant=%d device=%d host=%d asm=%d",
             c["CUDAGlobalAttr"], c["CUDALaunchBoundsAttr"], c["CUDAKernelCallExpr"],
             c["CUDAClusterDimsAttr"], c["CUDASharedAttr"], c["CUDAConstantAttr"],
             c["HIPManagedAttr"], c["CUDAGridConstantAttr"], c["CUDADeviceAttr"],
             c["CUDAHostAttr"], c["GCCAsmStmt"] }' "$1"
}

fail=0
modes="builtin builtin-notk"
[ $have_real = 1 ] && modes="$modes real"
for file in "${files[@]}"; do
  name=$(basename "$file")
  for arch in $ARCHES; do
    for mode in $modes; do
      if ! run "$mode" "$arch" "$file"; then
        echo "FAIL  $name $arch $mode: clang reported errors:"
        grep -E 'error:' "$tmp/$mode.err" | head -5 | sed 's/^/      /'
        fail=1
      fi
      if grep -q 'warning:' "$tmp/$mode.err"; then
        grep -E 'warning:' "$tmp/$mode.err" | grep -v 'unknown-cuda-version' | sort -u | head -3 |
          sed "s/^/      ($mode) /"
      fi
      printf '  %-22s %-7s %-13s %s\n' "$name" "$arch" "$mode" "$(summary "$tmp/$mode.facts")"
      [ "$VERBOSE" = 1 ] && grep '^global-fn' "$tmp/$mode.facts" | sort -u | tr '\n' ' ' && echo
    done
    for mode in builtin-notk real; do
      [ -f "$tmp/$mode.facts" ] || continue
      case " $modes " in *" $mode "*) ;; *) continue ;; esac
      if ! diff -q "$tmp/builtin.facts" "$tmp/$mode.facts" >/dev/null; then
        echo "DIFF  $name $arch builtin vs $mode:"
        diff "$tmp/builtin.facts" "$tmp/$mode.facts" | sed 's/^/      /'
        fail=1
      fi
    done
    rm -f "$tmp"/*.facts
  done
done
if [ $fail = 0 ]; then echo "OK: all files parsed and the AST facts agree"; else echo "FAILED"; fi
exit $fail
