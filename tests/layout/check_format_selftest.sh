#!/usr/bin/env bash
# scripts/check-format.sh can fail: in a scratch repository formatted at its
# first commit, an unformatted line changed since is reported (exit 1) and
# the same line formatted is not (exit 0); an unformatted line that no change
# touches is left alone.
#   tests/layout/check_format_selftest.sh SOURCE_DIR
set -euo pipefail
SRC="$1"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH"
git init -q . && git config user.email t@t && git config user.name t
mkdir -p scripts analyses
cp "$SRC/scripts/check-format.sh" scripts/ && cp "$SRC/.clang-format" .
printf 'int untouched( int a ){return a;}\n' > analyses/Old.cpp
git add -A && git commit -q -m formatted
printf 'int added( int a ){return a;}\n' > analyses/New.cpp && git add analyses/New.cpp
set +e
scripts/check-format.sh >out.txt 2>&1; status=$?
set -e
[ $status -eq 1 ] || { echo "an unformatted new line: exit $status, expected 1"; cat out.txt; exit 1; }
grep -q 'New.cpp' out.txt || { echo "the report does not name New.cpp"; cat out.txt; exit 1; }
! grep -q 'Old.cpp' out.txt || { echo "an untouched line was reported"; cat out.txt; exit 1; }
printf 'int added(int a) { return a; }\n' > analyses/New.cpp
scripts/check-format.sh >out.txt 2>&1 || { echo "a formatted new line was reported"; cat out.txt; exit 1; }
echo "check_format_selftest: reported the unformatted change, passed the formatted one"
