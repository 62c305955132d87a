#!/usr/bin/env bash
# Installs what is needed, builds Ember and runs every test:
#   1. the full CTest suite on an optimised build (the C suite with reference, cpu and
#      opencl as its test context in turn, install and pkg-config, the Lua binding on
#      Lua 5.4 (also through luarocks) and on 5.3, generated files current),
#   2. the C suite again under AddressSanitizer + UndefinedBehaviorSanitizer, with the
#      reference and then the cpu backend as its test context,
#   3. one pass of the C suite under valgrind memcheck (must report no leak),
#   4. tensor files cross-checked with NumPy and safetensors (both directions),
#   5. the libFuzzer target over the file loaders for 60 s from the committed corpus,
#   6. the Python binding: pip install into a fresh venv, then pytest against NumPy.
#
# The runs under the sanitizers and valgrind keep one core busy, so on a 2-core CI host the
# fuzz step (a clang build of libember, one job, then 60 s of fuzzing) and the Python step
# run beside them, niced. (ctest keeps both cores
# busy: a build beside it made the two slower than one after the other.) A background step
# writes to build-logs/<step>.log, which is printed when it has been waited for.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
mkdir -p build-logs
declare -A background_pids
trap 'kill ${background_pids[*]:-} 2>/dev/null || true' EXIT
in_background() {  # name command...: runs a command or a function of this script
  local name=$1; shift
  (renice -n 10 -p "$BASHPID" >/dev/null; "$@") > "build-logs/$name.log" 2>&1 &
  background_pids[$name]=$!
}
wait_for() {  # name: prints the step's log; fails if the step failed
  local name=$1 rc=0
  wait "${background_pids[$name]}" || rc=$?
  echo "== background step $name (build-logs/$name.log):"
  cat "build-logs/$name.log"
  [ "$rc" = 0 ] || { echo "background step $name failed (exit $rc)" >&2; exit "$rc"; }
}
sanitizer_build() {
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON
  # Sanitized: the core, the reference backend, the test modules and the cpu module (the
  # OpenCL driver stack is not built with sanitizers, so the opencl module is left out).
  cmake --build build-asan -j"$jobs" --target ember_tests_with_cpu
}

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure)
# install-deps.sh installed Lua and SWIG, so a skipped Lua case here is a defect, not a gap.
# (grep without -q reads all of ctest's output: -q would stop early, and under pipefail
# ctest's SIGPIPE would fail the check at random.)
for t in lua5.4_binding lua5.3_binding; do
  (cd build && ctest -N | grep " $t\$" >/dev/null) || { echo "ctest case $t is missing" >&2; exit 1; }
done

sanitizer_build
# The pip build packages the libember and backend modules of the build ctest just tested
# (EMBER_PY_PREBUILT) and compiles only the SWIG module: building them a second time cost
# about 10 minutes of CPU. test-python.sh still configures the full source build, so its
# CMake logic stays covered.
in_background python env EMBER_PY_PREBUILT="$PWD/build" bash scripts/test-python.sh
in_background fuzz env JOBS=1 bash scripts/fuzz.sh 60
asan_path="$PWD/build-asan/test-modules"
[ -e build-asan/lib/ember/backends/ember-backend-cpu.so ] && asan_path="$asan_path:$PWD/build-asan/lib/ember/backends/ember-backend-cpu.so"
(cd build-asan && EMBER_PLUGIN_SCAN=0 EMBER_BACKEND_PATH="$asan_path" EMBER_TEST_MODULE_DIR="$PWD/test-modules" \
  EMBER_CONFIG="$PWD/no-such-config.json" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ./bin/ember_tests --gtest_brief=1)
# Once more with cpu as the test context, so every core test's edge cases (empty, 0-d,
# views, errors) run through the cpu kernels under the sanitizers too. The Cpu* suites
# name their contexts themselves (cpu() and ref(), never the test context): the first
# pass ran them already, and a second run would repeat them exactly (3 minutes).
if [ -e build-asan/lib/ember/backends/ember-backend-cpu.so ]; then
  (cd build-asan && EMBER_TEST_BACKEND=cpu EMBER_PLUGIN_SCAN=0 EMBER_BACKEND_PATH="$asan_path" EMBER_TEST_MODULE_DIR="$PWD/test-modules" \
    EMBER_CONFIG="$PWD/no-such-config.json" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ./bin/ember_tests --gtest_brief=1 --gtest_filter='-Cpu*')
fi

# One valgrind pass of the C suite on the reference backend (and the test modules).
(cd build && EMBER_PLUGIN_SCAN=0 EMBER_BACKEND_PATH="$PWD/test-modules" EMBER_TEST_MODULE_DIR="$PWD/test-modules" \
  EMBER_CONFIG="$PWD/no-such-config.json" \
  valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect -q ./bin/ember_tests --gtest_brief=1)
bash scripts/check-io-interop.sh build
wait_for fuzz
wait_for python
echo "all tests passed"
