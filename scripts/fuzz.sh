#!/bin/sh
# Builds the libFuzzer target over the tensor-file loaders with clang and runs it for a
# bounded time on a copy of the committed seed corpus.
#   scripts/fuzz.sh [seconds]        (default 60)
# Any crash is written to build-fuzz/crashes/; copy it to tests/fuzz/regressions/ so that
# the IoFuzz.ReplayCorpusAndRegressions test replays it forever.
set -eu
SECONDS_TO_RUN=${1:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${EMBER_FUZZ_BUILD:-$ROOT/build-fuzz}
CC=${CC:-clang}
CXX=${CXX:-clang++}
command -v "$CXX" >/dev/null || { echo "fuzz.sh: $CXX not found (install clang and libclang-rt-dev)" >&2; exit 2; }
# The library at -O0: its reference kernels took most of CI's fuzz step to compile at -O1
# (ref_misc.cpp 125 s against 34 s), and the loaders being fuzzed run fast enough unoptimised.
FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-sanitize=enum -g -O0"
# The library's objects are compiled with coverage instrumentation by its own CMake rules;
# the fuzzer links them statically (a sanitized libember.so cannot satisfy -Wl,--no-undefined
# with clang, whose sanitizer runtimes live in the executable).
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DEMBER_BACKENDS="" \
  -DEMBER_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_CXX_FLAGS="$FLAGS" >/dev/null
make -C "$BUILD" -k -j"${JOBS:-2}" ember >/dev/null 2>&1 || true   # the shared-library link step is expected to fail
OBJS=$(find "$BUILD/CMakeFiles/ember.dir" -name '*.o' | sort)
[ -n "$OBJS" ] || { echo "fuzz.sh: no objects built in $BUILD" >&2; exit 1; }
# shellcheck disable=SC2086
"$CXX" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-sanitize=enum \
  -I"$ROOT/include" "$ROOT/tests/fuzz/fuzz_loaders.cpp" $OBJS $(pkg-config --libs libcjson) -ldl -lpthread \
  -o "$BUILD/fuzz_loaders"
mkdir -p "$BUILD/corpus" "$BUILD/crashes"
cp "$ROOT"/tests/fuzz/corpus/* "$ROOT"/tests/fuzz/regressions/* "$BUILD/corpus/" 2>/dev/null || true
# Leak detection stays on: a loader that leaks on a failure path is a bug too.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$BUILD/fuzz_loaders" "$BUILD/corpus" \
  -max_total_time="$SECONDS_TO_RUN" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$BUILD/crashes/" -print_final_stats=1
