#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer: a second
# build (build-asan/, clang++-22, OCCLINT_SANITIZE=ON and OCCLINT_FUZZERS=ON,
# so that the fuzz corpora and past crashes are replayed too), then the unit
# suites, the corpus replays and the tool tests (all that can run under ASan).
# scripts/test.sh runs it when CI=true or OCCLINT_SANITIZERS=1.
#   scripts/test-sanitizers.sh
#   OCCLINT_SANITIZER_TESTS=subset scripts/test-sanitizers.sh   # fewer tool tests
# Environment: BUILD_DIR_ASAN (build-asan), JOBS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR_ASAN:-build-asan}"
JOBS="${JOBS:-2}"

# The sanitizer runtimes and libFuzzer: Debian's libclang-rt-22-dev.
if ! dpkg-query -W -f='${Status}' libclang-rt-22-dev 2>/dev/null | grep -q "install ok installed"; then
  echo "test-sanitizers: installing libclang-rt-22-dev" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libclang-rt-22-dev >/dev/null
fi
# `scripts/test-sanitizers.sh --packages`: that package only (scripts/test.sh
# installs it while the main build runs).
[ "${1:-}" = --packages ] && exit 0

start=$(date +%s)
# -O1 and line tables only: a third of the compile time of -O2 -g, and
# still every frame of a report with its file and line. (-O0 was tried: the
# build took 871 s where -O1 had taken 1176, but the unit suites and corpus
# replays ran 462 s instead of 160, and its larger frames overflowed the
# stack on the 20,000-term expression of DeepCode.*.) The fuzz targets are
# built to replay their inputs, without coverage feedback in the libraries
# (OCCLINT_FUZZER_COVERAGE=OFF; scripts/fuzz.sh builds its own tree with it).
# Configured every time (seconds), so that an older build-asan/ takes these flags.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-22 \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  -DOCCLINT_SANITIZE=ON -DOCCLINT_FUZZERS=ON -DOCCLINT_FUZZER_COVERAGE=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
echo "test-sanitizers: build: $(( $(date +%s) - start )) s" >&2

# detect_leaks=0: LLVM and Clang keep objects alive until exit on purpose
# (ManagedStatic, the AST of the last run); LeakSanitizer would report those.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# Not under ASan: the tests that load the clang-tidy plugin into Debian's
# clang-tidy (an instrumented plugin cannot be loaded into an uninstrumented
# program), and the SARIF validator's (scripts/test-tools.sh installs it into
# build/ only).
EXCLUDE='Plugin|ClangTidy|EverySilencedFindingIsRealWithoutItsComment|^SarifFormat\.|SarifWithTheNotificationValidates'
# Nor, in either run, the tests whose time goes to other programs (nvcc
# building the bundled project, clang, sccache, distcc, Chromium) and whose
# occlint code a faster test of this run also goes through: instrumentation
# finds nothing in those programs, and they were 221 of the run's 1,240
# test-seconds. What covers their occlint code here: WrapLint.* and
# OcclintMerge.Combines* (the build's lint and merge), LauncherNvcc.* (the
# launcher), the other CompileCommandTranslator.* and Report.* tests (the
# translation, the page).
EXTERNAL='^BuildCaptureLint\.WrappedBuildPrintsThePlainLog|^OcclintMerge\.TheBundledProjectBuiltWithTheLint'
EXTERNAL="$EXTERNAL|^CompilerCaches\.|^NvccParity\.(NvccCompilesEveryInput|NvccCompilesEveryAsyncPipelineInput|ClangAloneRejectsEveryInput)"
EXTERNAL="$EXTERNAL|^CompileCommandTranslator\.TranslatedCommandsParseWithClang22"
EXTERNAL="$EXTERNAL|^Report\.(AGeneratedProjectOf220Launches|BundledProjectHtmlRenders)"
# Every other tool test by default (about 8 CPU-minutes under ASan); with
# OCCLINT_SANITIZER_TESTS=subset a representative subset (about 2): every
# in-process unit test of the tool, the check test inputs through occlint,
# the lint command's passes, options and bad inputs, the language server, the
# resources and occupancy commands, the fix safety inputs.
TOOL_SUBSET='.'
[ "${OCCLINT_SANITIZER_TESTS:-all}" = subset ] &&
  TOOL_SUBSET='^([A-Za-z]+/)?(LineFilter|LspTransport|LspDiagnostics|LspCompileCommands|CudaCompilationDatabase|CudaParseCommand|IncludedTranslationUnits|ParseArchs|TargetsOption|FileUris|CheckCatalog|JsonOutput|ProblemMatcher|TestInput|InlineExpectations|LintPasses|LintOptions|LintErrors|ProjectDatabaseErrors|Lsp|ResourcesCommand|OccupancyCommand|OccupancyBadInput|SafeInput|UnsafeInput)\.'

start=$(date +%s)
# The unit suites (core, analyses, layout) and the fuzz corpus replays.
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L 'unit|fuzz' -E "$EXTERNAL"
echo "test-sanitizers: unit suites and corpus replays: $(( $(date +%s) - start )) s" >&2
start=$(date +%s)
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L tool -R "$TOOL_SUBSET" -E "$EXCLUDE|$EXTERNAL"
echo "test-sanitizers: tool tests: $(( $(date +%s) - start )) s" >&2
