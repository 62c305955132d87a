#!/usr/bin/env bash
# Builds the Lua binding against a freshly installed libember and runs its tests
# (bindings/lua/tests, a plain Lua runner), then the example as a smoke test.
#
#   bash scripts/test-lua.sh [test-name-filter]
#
#   1. libember + backend modules: build-lua/core (CMake, tests off, -j2 at most),
#      installed into a throwaway prefix build-lua/prefix (wiped first),
#   2. the SWIG module: bindings/lua built standalone in build-lua/mod against that prefix
#      through pkg-config (PKG_CONFIG_PATH) and installed into the same prefix,
#   3. the tests run with LUA_PATH / LUA_CPATH pointing at the installed files only,
#   4. with EMBER_LUA_ROCKS=1 also `luarocks make` into build-lua/rocks (installs luarocks).
# EMBER_LUA (default lua5.4) picks the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
lua="${EMBER_LUA:-lua5.4}"

need=()
command -v "$lua" >/dev/null || need+=(lua5.4)
[ -e /usr/include/lua5.4/lua.h ] || need+=(liblua5.4-dev)
command -v swig >/dev/null || need+=(swig)
command -v cmake >/dev/null || need+=(cmake)
command -v pkg-config >/dev/null || need+=(pkg-config)
[ -e /usr/include/cjson/cJSON.h ] || need+=(libcjson-dev)
if [ "${EMBER_LUA_ROCKS:-0}" = 1 ] && ! command -v luarocks >/dev/null; then need+=(luarocks); fi
if ((${#need[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

jobs="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
prefix="$root/build-lua/prefix"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

echo "== libember -> $prefix"
if [ -n "${EMBER_CORE_BUILD:-}" ]; then
  # Reuse an already built tree (scripts/test.sh passes its own build directory).
  rm -rf "$prefix"
  cmake --install "$EMBER_CORE_BUILD" --prefix "$prefix" >/dev/null
else
  if [ ! -f build-lua/core/CMakeCache.txt ]; then
    cmake -S . -B build-lua/core "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_TESTS=OFF \
      -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  fi
  # libember, ember-info and every backend module the tree can build (not the benchmarks).
  targets=$(cmake --build build-lua/core --target help | sed -n 's/^\.\.\. \(ember[^ ]*\).*/\1/p; s/^\(ember[^:]*\): .*/\1/p' \
    | grep -E '^(ember|ember-info|ember-backend-.*)$' | sort -u | tr '\n' ' ')
  cmake --build build-lua/core -j"$jobs" --target $targets
  rm -rf "$prefix"
  cmake --install build-lua/core >/dev/null
fi

echo "== SWIG module (bindings/lua) against the installed libember"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cmake -S bindings/lua -B build-lua/mod "${gen[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build build-lua/mod -j"$jobs"
cmake --install build-lua/mod >/dev/null

export LUA_PATH="$prefix/share/lua/5.4/?.lua;$root/bindings/lua/tests/?.lua;;"
export LUA_CPATH="$prefix/lib/lua/5.4/?.so;;"
export EMBER_CONFIG="$root/build-lua/no-such-config.json"   # auto selection, whatever ~/.ember says
unset EMBER_BACKEND EMBER_DEVICE
cd "${TMPDIR:-/tmp}"
echo "== $("$lua" -v 2>&1): bindings/lua/tests"
"$lua" "$root/bindings/lua/tests/run.lua" "$@"

echo "== examples/logistic_regression.lua (smoke)"
EMBER_EXAMPLE_STEPS=20 "$lua" "$root/examples/logistic_regression.lua" >/dev/null

if [ "${EMBER_LUA_ROCKS:-0}" = 1 ]; then
  echo "== luarocks make"
  rm -rf "$root/build-lua/rocks"
  (cd "$root/bindings/lua" && CMAKE_BUILD_PARALLEL_LEVEL="$jobs" luarocks --lua-version 5.4 make --tree "$root/build-lua/rocks" ember-scm-1.rockspec >/dev/null \
    && rm -rf build.luarocks)
  LUA_PATH="$root/build-lua/rocks/share/lua/5.4/?.lua;$root/bindings/lua/tests/?.lua;;" \
  LUA_CPATH="$root/build-lua/rocks/lib/lua/5.4/?.so;;" "$lua" "$root/bindings/lua/tests/run.lua" "$@"
fi
echo "lua tests passed"
