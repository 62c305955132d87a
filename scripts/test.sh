#!/usr/bin/env bash
# Installs what is needed, builds Ember and runs every test:
#   1. the full CTest suite on an optimised build (the C suite with reference, cpu and
#      opencl as its test context in turn, install and pkg-config, the Lua binding on
#      Lua 5.4 (also through luarocks) and on 5.3, generated files current; two child runs
#      whose results do not depend on the optimisation level are left to step 2),
#   2. the C suite again under AddressSanitizer + UndefinedBehaviorSanitizer, with the
#      reference and then the cpu backend as its test context,
#   3. one pass of the C suite under valgrind memcheck (must report no leak),
#   4. tensor files cross-checked with NumPy and safetensors (both directions),
#   5. the libFuzzer target over the file loaders for 60 s from the committed corpus,
#   6. the Python binding: pip install into a fresh venv, then pytest against NumPy.
#
# CI has 2 cores and should finish well under 30 minutes. The builds and ctest (-j2, the C
# suite in two shards) keep both cores busy on their own: a build beside ctest made the two
# slower than one after the other. The fuzz step (a clang build of libember, then 60 s of
# fuzzing) and the Python step start after ctest, niced, beside the sanitizer build and then
# two lanes of tests at full priority (one queue of jobs that both take from: the sanitized C
# suite in six shards, valgrind, the sanitized cpu pass). A background step or lane writes to build-logs/<name>.log, which
# is printed when it has been waited for. Every step prints its start time (UTC) and the
# minutes since the start, to see where the time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "== [$(date -u +%T) +$((SECONDS / 60))m$((SECONDS % 60))s] $*"; }
step "install dependencies"
bash scripts/install-deps.sh
jobs=$(nproc)
mkdir -p build-logs
declare -A background_pids
trap 'kill ${background_pids[*]:-} 2>/dev/null || true' EXIT
in_background() {  # name niceness command...: runs a command or a function of this script
  local name=$1 niceness=$2; shift 2
  step "background step $name started"
  (renice -n "$niceness" -p "$BASHPID" >/dev/null; rc=0; "$@" || rc=$?; step "background step $name finished (exit $rc)"; exit $rc) > "build-logs/$name.log" 2>&1 &
  background_pids[$name]=$!
}
wait_for() {  # name: prints the step's log; fails if the step failed
  local name=$1 rc=0
  wait "${background_pids[$name]}" || rc=$?
  echo "== background step $name (build-logs/$name.log):"
  cat "build-logs/$name.log"
  [ "$rc" = 0 ] || { echo "background step $name failed (exit $rc)" >&2; exit "$rc"; }
}
# Ninja keeps both cores busy where make's directory-by-directory passes left one idle
# (the optimised build 10.3 -> 8.7 min here); a build folder keeps the generator it was
# first configured with. Debug information at -g1 (line tables: what valgrind's and the
# sanitizers' stack traces print): full -g made the largest sources compile a quarter slower.
configure() {  # build-folder cmake-arguments...
  local dir=$1 generator=Ninja
  shift
  [ -e "$dir/CMakeCache.txt" ] && generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$dir/CMakeCache.txt")
  cmake -S . -B "$dir" -G "$generator" "$@"
}
sanitizer_build() {
  configure build-asan -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1
  # Sanitized: the core, the reference backend, the test modules and the cpu module (the
  # OpenCL driver stack is not built with sanitizers, so the opencl module is left out).
  cmake --build build-asan -j"$jobs" --target ember_tests_with_cpu
}

step "optimised build"
configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cmake --build build -j"$jobs"
step "ctest"
# Two child runs of the C suite whose results do not depend on the optimisation level run in
# the sanitized pass only (RESULTS_INDEPENDENT_OF_OPTIMISATION in test_cpu_backend.cpp).
(cd build && EMBER_TEST_SANITIZED_PASS_FOLLOWS=1 ctest -j"$jobs" --output-on-failure)
# install-deps.sh installed Lua and SWIG, so a skipped Lua case here is a defect, not a gap.
# (grep without -q reads all of ctest's output: -q would stop early, and under pipefail
# ctest's SIGPIPE would fail the check at random.)
for t in lua5.4_binding lua5.3_binding; do
  (cd build && ctest -N | grep " $t\$" >/dev/null) || { echo "ctest case $t is missing" >&2; exit 1; }
done

# The pip build packages the libember and backend modules of the build ctest just tested
# (EMBER_PY_PREBUILT) and compiles only the SWIG module: building them a second time cost
# about 10 minutes of CPU. test-python.sh still configures the full source build, so its
# CMake logic stays covered. Both background steps start now, niced: they take what the
# sanitizer build and the lanes leave idle, and both cores once those are done.
in_background python 10 env EMBER_PY_PREBUILT="$PWD/build" bash scripts/test-python.sh
in_background fuzz 10 env JOBS=2 bash scripts/fuzz.sh 60
step "sanitizer build"
sanitizer_build

asan_path="$PWD/build-asan/test-modules"
[ -e build-asan/lib/ember/backends/ember-backend-cpu.so ] && asan_path="$asan_path:$PWD/build-asan/lib/ember/backends/ember-backend-cpu.so"
# ASan clears the shadow of a freed large block by mapping fresh zero pages over it, which
# the next block there faults in again; memset keeps the pages (detection is the same).
asan_speed=clear_shadow_mmap_threshold=1099511627776
sanitized_suite() {  # env assignments and ember_tests arguments
  (cd build-asan && env EMBER_PLUGIN_SCAN=0 EMBER_BACKEND_PATH="$asan_path" EMBER_TEST_MODULE_DIR="$PWD/test-modules" \
    EMBER_CONFIG="$PWD/no-such-config.json" ASAN_OPTIONS="detect_leaks=1:$asan_speed" UBSAN_OPTIONS=print_stacktrace=1 "$@" --gtest_brief=1)
}
# The C suite under the sanitizers with the reference as its test context, in six shards
# (gtest's sharding); then, once more, with cpu as the test context, so every core test's
# edge cases (empty, 0-d, views, errors) run through the cpu kernels under the sanitizers too.
# The Cpu* suites name their contexts themselves (cpu() and ref(), never the test context):
# the first pass ran them already, and a second run would repeat them exactly. And one
# valgrind pass of the C suite on the reference backend (and the test modules). These jobs
# form one queue that two lanes at full priority take in turn, so that both finish together:
# fixed halves ran 9.5 and 6.7 minutes on a host that skips repeated child runs
# (test_cpu_backend.cpp's run_child), 10 and 10 on one that does not.
sanitizer_shards=6
sanitizer_jobs=()
for ((shard = 0; shard < sanitizer_shards; shard++)); do sanitizer_jobs+=("shard $shard"); done
sanitizer_jobs+=(valgrind cpu)
run_sanitizer_job() {  # job name
  case $1 in
    shard*)
      step "C suite under the sanitizers, shard ${1#shard } of $sanitizer_shards (test context: reference)"
      sanitized_suite GTEST_TOTAL_SHARDS=$sanitizer_shards GTEST_SHARD_INDEX="${1#shard }" ./bin/ember_tests ;;
    cpu)
      [ -e build-asan/lib/ember/backends/ember-backend-cpu.so ] || return 0
      step "C suite under the sanitizers (test context: cpu)"
      sanitized_suite EMBER_TEST_BACKEND=cpu ./bin/ember_tests --gtest_filter='-Cpu*' ;;
    valgrind)
      step "C suite under valgrind"
      (cd build && EMBER_PLUGIN_SCAN=0 EMBER_BACKEND_PATH="$PWD/test-modules" EMBER_TEST_MODULE_DIR="$PWD/test-modules" \
        EMBER_CONFIG="$PWD/no-such-config.json" \
        valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect -q ./bin/ember_tests --gtest_brief=1) ;;
  esac
}
echo 0 > build-logs/sanitizer-queue
sanitizer_lane() {  # runs the queue's next job until none is left (a lane runs as the left side
  local next       # of `||`, where set -e does not apply: it returns on a failure)
  while :; do
    next=$(flock build-logs/sanitizer-queue.lock sh -c 'read -r n < build-logs/sanitizer-queue; echo $((n + 1)) > build-logs/sanitizer-queue; echo "$n"')
    [[ $next =~ ^[0-9]+$ ]] || return 1
    [ "$next" -lt "${#sanitizer_jobs[@]}" ] || return 0
    run_sanitizer_job "${sanitizer_jobs[$next]}" || return
  done
}
in_background sanitizer_lane_one 0 sanitizer_lane
in_background sanitizer_lane_two 0 sanitizer_lane
wait_for sanitizer_lane_one
wait_for sanitizer_lane_two
step "tensor files against NumPy and safetensors"
bash scripts/check-io-interop.sh build
step "waiting for the background steps"
wait_for fuzz
wait_for python
step "all tests passed"
