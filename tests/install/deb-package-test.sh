#!/usr/bin/env bash
# The Debian package, as a user gets it (issue 18, docs/install.md): build
# the .deb with cpack from the built tree, check that its Depends pin the
# exact LLVM 22 packages the build linked against, unpack it (dpkg-deb -x)
# into a scratch root, and from that copy alone: every library of the binary
# and the plugin resolves (ldd), `occlint --version` names occlint, the
# bundled example finds its planted errors, clang-tidy-22 loads the plugin,
# and the pre-commit hook runs the unpacked occlint from PATH.
#   deb-package-test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/occlint-deb-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# Nothing of the user's: occlint's cache and pre-commit's go to the scratch directory.
export HOME="$scratch/home" XDG_CACHE_HOME="$scratch/cache" PRE_COMMIT_HOME="$scratch/pre-commit"
mkdir -p "$HOME"
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== cpack"
(cd "$build" && cpack -G DEB -B "$scratch/package" > "$scratch/cpack.log" 2>&1) ||
  { cat "$scratch/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$scratch"/package/*.deb)
echo "$deb ($(du -h "$deb" | cut -f1))"

echo "== Depends pin the LLVM 22 packages of this build"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in "$(readlink -f /usr/lib/llvm-22/lib/libclang-cpp.so.22.1)" \
           "$(readlink -f /usr/lib/llvm-22/lib/libLLVM.so)" \
           /usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h; do
  package=$(dpkg-query -S "$lib" | sed 's/:.*//')
  version=$(dpkg-query -W -f='${Version}' "$package")
  case ", $depends," in
    *", $package (= $version),"*) echo "ok: $package (= $version)" ;;
    *) fail "Depends lacks '$package (= $version)' (owner of $lib)" ;;
  esac
done

echo "== unpack"
dpkg-deb -x "$deb" "$scratch/root"
usr="$scratch/root/usr"
for f in bin/occlint bin/occlint-wrap lib/libOcclintTidyModule.so share/occlint/builtin-cuda/cuda_runtime.h \
         share/occlint/nvcc-compat/occlint_nvcc_compat.h share/occlint/example/run.sh \
         share/occlint/example/main.cu share/doc/occlint/README.md share/doc/occlint/install.md \
         share/doc/occlint/checks/cuda-launch-invalid-config.md; do
  [ -e "$usr/$f" ] || fail "the package has no /usr/$f"
done

echo "== ldd"
for f in bin/occlint bin/occlint-wrap lib/libOcclintTidyModule.so; do
  if ldd "$usr/$f" | grep -q "not found"; then
    ldd "$usr/$f"
    fail "$f: a library is not found"
  fi
  echo "ok: $f"
done
# occlint-wrap runs in every compile of a build: it must not load LLVM.
if ldd "$usr/bin/occlint-wrap" | grep -qE "libLLVM|libclang"; then fail "occlint-wrap links LLVM or Clang"; fi

echo "== occlint --version"
version=$("$usr/bin/occlint" --version)
echo "$version"
grep -q "occlint version " <<<"$version" || fail "--version does not name occlint"

echo "== the bundled example, from the unpacked copy"
status=0
"$usr/share/occlint/example/run.sh" > "$scratch/example.log" 2>&1 || status=$?
cat "$scratch/example.log"
[ "$status" = 1 ] || fail "the example exited $status, not 1 (its planted launches that cannot start)"
grep -q "cuda-launch-invalid-config" "$scratch/example.log" || fail "the example printed no cuda-launch-invalid-config error"
grep -q "share/occlint/example/" "$scratch/example.log" || fail "the findings are not in the unpacked example"

echo "== clang-tidy-22 loads the plugin"
if command -v clang-tidy-22 > /dev/null; then
  clang-tidy-22 --load="$usr/lib/libOcclintTidyModule.so" --checks='-*,cuda-*' --list-checks > "$scratch/checks.txt"
  grep -q "cuda-launch-invalid-config" "$scratch/checks.txt" || { cat "$scratch/checks.txt"; fail "the plugin's checks are not listed"; }
  echo "ok"
else
  echo "clang-tidy-22 is not installed: not checked"
fi

echo "== the pre-commit hook with the unpacked occlint on PATH"
if command -v pre-commit > /dev/null && command -v git > /dev/null; then
  export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
  hooks="$scratch/hooks" work="$scratch/work"
  mkdir -p "$hooks" "$work"
  cp "$source/.pre-commit-hooks.yaml" "$hooks/"
  (cd "$hooks" && git init -q && git add .pre-commit-hooks.yaml && git commit -qm hooks)
  (cd "$work" && git init -q)
  printf '__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\nvoid launch(float *p) { k<<<2, 100>>>(p); }\n' > "$work/bad.cu"
  (cd "$work" && git add bad.cu)
  status=0
  (cd "$work" && PATH="$usr/bin:$PATH" pre-commit try-repo --color never "$hooks" occlint --files bad.cu) \
    > "$scratch/hook.log" 2>&1 || status=$?
  cat "$scratch/hook.log"
  [ "$status" = 1 ] || fail "the hook exited $status, not 1"
  grep -q "block of 100 threads is not a multiple of the warp size" "$scratch/hook.log" ||
    fail "the hook did not print occlint's finding"
else
  echo "pre-commit or git is not installed: not checked"
fi
echo "PASS"
