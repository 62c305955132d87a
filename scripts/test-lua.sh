#!/usr/bin/env bash
# Builds the Lua binding against a freshly installed libember and runs its tests
# (bindings/lua/tests, a plain Lua runner), then the example as a smoke test.
#
#   bash scripts/test-lua.sh [test-name-filter]
#
#   1. libember + backend modules: $work/core (CMake, tests off, -j2 at most),
#      installed into a throwaway prefix $work/prefix (wiped first),
#   2. the SWIG module: bindings/lua built standalone in "$work/mod" against that prefix
#      through pkg-config (PKG_CONFIG_PATH) and installed into the same prefix,
#   3. the tests run with LUA_PATH / LUA_CPATH pointing at the installed files only,
#   4. with EMBER_LUA_ROCKS=1 also `luarocks make` into $work/rocks (installs luarocks).
# EMBER_LUA (default lua5.4; lua5.3 works too) picks the interpreter; the module is built
# against that version's headers and installed under its lib/lua/<version> directories.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
lua="${EMBER_LUA:-lua5.4}"
# EMBER_LUA_WORK (default build-lua) holds the prefix, the module build and the rocks tree;
# CTest points it into its own build directory.
work="${EMBER_LUA_WORK:-$root/build-lua}"
mkdir -p "$work"

luaver="${lua#lua}"   # lua5.4 -> 5.4
case "$luaver" in 5.3|5.4) ;; *) echo "EMBER_LUA must be lua5.3 or lua5.4, not '$lua'" >&2; exit 2 ;; esac
need=()
command -v "$lua" >/dev/null || need+=("lua$luaver")
[ -e "/usr/include/lua$luaver/lua.h" ] || need+=("liblua$luaver-dev")
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
prefix="$work/prefix"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

echo "== libember -> $prefix"
if [ -n "${EMBER_CORE_BUILD:-}" ]; then
  # Reuse an already built tree (scripts/test.sh passes its own build directory).
  rm -rf "$prefix"
  cmake --install "$EMBER_CORE_BUILD" --prefix "$prefix" >/dev/null
else
  if [ ! -f "$work/core"/CMakeCache.txt ]; then
    cmake -S . -B "$work/core" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_TESTS=OFF \
      -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  fi
  # libember, ember-info and every backend module the tree can build (not the benchmarks).
  targets=$(cmake --build "$work/core" --target help | sed -n 's/^\.\.\. \(ember[^ ]*\).*/\1/p; s/^\(ember[^:]*\): .*/\1/p' \
    | grep -E '^(ember|ember-info|ember-backend-.*)$' | sort -u | tr '\n' ' ')
  cmake --build "$work/core" -j"$jobs" --target $targets
  rm -rf "$prefix"
  cmake --install "$work/core" >/dev/null
fi

echo "== SWIG module (bindings/lua) against the installed libember"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
rm -f "$work/mod/CMakeCache.txt"   # pkg-config results are cached: always look afresh
cmake -S bindings/lua -B "$work/mod" "${gen[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DLUA_INCDIR="/usr/include/lua$luaver" -DEMBER_LUA_VERSION="$luaver" >/dev/null
cmake --build "$work/mod" -j"$jobs"
cmake --install "$work/mod" >/dev/null

export LUA_PATH="$prefix/share/lua/$luaver/?.lua;$root/bindings/lua/tests/?.lua;;"
export LUA_CPATH="$prefix/lib/lua/$luaver/?.so;;"
export EMBER_CONFIG="$work/no-such-config.json"   # auto selection, whatever ~/.ember says
unset EMBER_BACKEND EMBER_DEVICE
cd "${TMPDIR:-/tmp}"
echo "== $("$lua" -v 2>&1): bindings/lua/tests"
"$lua" "$root/bindings/lua/tests/run.lua" "$@"

echo "== examples/logistic_regression.lua (smoke)"
EMBER_EXAMPLE_STEPS=20 "$lua" "$root/examples/logistic_regression.lua" >/dev/null

if [ "${EMBER_LUA_ROCKS:-0}" = 1 ]; then
  echo "== luarocks make"
  rm -rf "$work/rocks"
  (cd "$root/bindings/lua" && CMAKE_BUILD_PARALLEL_LEVEL="$jobs" luarocks --lua-version "$luaver" make --tree "$work/rocks" ember-scm-1.rockspec >/dev/null \
    && rm -rf build.luarocks)
  LUA_PATH="$work/rocks/share/lua/$luaver/?.lua;$root/bindings/lua/tests/?.lua;;" \
  LUA_CPATH="$work/rocks/lib/lua/$luaver/?.so;;" "$lua" "$root/bindings/lua/tests/run.lua" "$@"
fi
echo "lua tests passed"
