#!/usr/bin/env bash
# scripts/add_new_check.py, run as a developer would, in a scratch copy of the
# checkout: it writes the check and registers it; the result passes the
# layout rules, builds against this build's objects (only the two changed
# sources are compiled: the new check and the registry), loads into
# clang-tidy-22 as the plugin, and its generated test input's expectation
# holds. It refuses a bad name and an existing check, writing nothing.
#
#   tests/checks/add_new_check_test.sh SOURCE_DIR BUILD_DIR CLANG_TIDY CUDA_PATH
set -euo pipefail
SRC="$1" BUILD="$2" CLANG_TIDY="$3" CUDA="$4"
NAME=cuda-launch-example-rule
CLASS=LaunchExampleRuleCheck
fail() { echo "add_new_check_test: $*" >&2; exit 1; }

SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
COPY="$SCRATCH/src"
mkdir -p "$COPY"
# The checkout as a developer has it (tracked files; no build outputs).
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$COPY" 2>/dev/null) ||
  (cd "$SRC" && tar --exclude=.git --exclude='build*' -cf - . | tar -C "$COPY" -xf -)

# 1. The script.
python3 "$COPY/scripts/add_new_check.py" "$NAME" --summary "an example rule, for the script's test" \
  >"$SCRATCH/script.log" || fail "the script failed: $(cat "$SCRATCH/script.log")"
for f in "analyses/checks/$CLASS.h" "analyses/checks/$CLASS.cpp" "docs/checks/$NAME.md" "test-inputs/checks/$NAME.cu"; do
  [ -f "$COPY/$f" ] || fail "$f was not written"
done
grep -q "entry<$CLASS>()" "$COPY/analyses/checks/CheckRegistry.cpp" || fail "not registered"
# The new row ends the first table of checks of each page (the order of
# CheckRegistry.cpp's list, which CheckRegistryTest holds the index to).
last_row() { awk '/^\| `cuda-/ { row = $0; seen = 1; next } seen { exit } END { print row }' "$1"; }
last_row "$COPY/docs/checks/README.md" | grep -q "^| \`$NAME\` | warning |" || fail "not the last row of docs/checks/README.md's check table"
last_row "$COPY/README.md" | grep -q "^| \`$NAME\` |" || fail "not the last row of README.md's check table"
# Refusals: a second run of the same name, a bad name; neither writes.
before="$(cd "$COPY" && find . -type f | sort | xargs md5sum | md5sum)"
if python3 "$COPY/scripts/add_new_check.py" "$NAME" 2>/dev/null; then fail "a second run was not refused"; fi
if python3 "$COPY/scripts/add_new_check.py" Launch_Odd 2>/dev/null; then fail "a bad name was not refused"; fi
[ "$before" = "$(cd "$COPY" && find . -type f | sort | xargs md5sum | md5sum)" ] || fail "a refused run wrote files"

# 2. The layout rules.
python3 "$COPY/tests/layout/check_layout.py" includes "$COPY" || fail "the layout check fails"
python3 "$COPY/tests/layout/check_layout.py" sizes "$COPY" || fail "the size check fails"

# 3. Build: the new check and the registry compiled as this build compiles
# SpillsCheck.cpp (its flags and precompiled header), against the copy's
# analyses/; the plugin linked as this build links it, with those two objects.
COMMAND="$(ninja -C "$BUILD" -t commands analyses/checks/CMakeFiles/occlint_checks.dir/SpillsCheck.cpp.o | tail -1)"
case "$COMMAND" in *SpillsCheck.cpp*) ;; *) fail "no compile command for SpillsCheck.cpp in $BUILD: $COMMAND" ;; esac
compile() { # SOURCE OBJECT
  local cmd="${COMMAND//$SRC\/analyses/$COPY/analyses}"
  cmd="$(echo "$cmd" | sed -E "s# -o [^ ]+# -o $2#; s# -c [^ ]+# -c $1#; s# -MF [^ ]+##; s# -MD##; s# -MT [^ ]+##")"
  (cd "$BUILD" && eval "$cmd") || fail "compiling $1 failed"
}
compile "$COPY/analyses/checks/$CLASS.cpp" "$SCRATCH/new-check.o"
compile "$COPY/analyses/checks/CheckRegistry.cpp" "$SCRATCH/registry.o"
LINK="$(ninja -C "$BUILD" -t commands lib/libOcclintTidyModule.so | tail -1)"
case "$LINK" in *CheckRegistry.cpp.o*) ;; *) fail "unexpected plugin link command: $LINK" ;; esac
LINK="$(echo "$LINK" | sed -E "s#[^ ]*CheckRegistry\.cpp\.o#$SCRATCH/registry.o $SCRATCH/new-check.o#; s# -o [^ ]+# -o $SCRATCH/plugin.so#")"
(cd "$BUILD" && eval "$LINK") || fail "linking the plugin failed"

# 4. The plugin runs the new check on its test input.
OUT="$("$CLANG_TIDY" --quiet --load="$SCRATCH/plugin.so" --checks="-*,$NAME" \
  --config="{CheckOptions: {Targets: 'H100', ReadCache: false}}" "$COPY/test-inputs/checks/$NAME.cu" -- \
  --cuda-path="$CUDA" -Wno-unknown-cuda-version --cuda-device-only --cuda-gpu-arch=sm_90 2>&1)" || true
echo "$OUT" | grep -q "warning: kernel 'scale' on sm_90 \[$NAME\]" || fail "the new check did not report: $OUT"
"$CLANG_TIDY" --load="$SCRATCH/plugin.so" --checks='-*,cuda-*' --list-checks | grep -q "^ *$NAME\$" ||
  fail "the plugin does not list $NAME"
echo "add_new_check_test: $NAME written, registered, built and run"
