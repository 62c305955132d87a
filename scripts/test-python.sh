#!/usr/bin/env bash
# Builds the Python binding with pip in a fresh virtual environment and runs its pytest
# suite (tests/python), including the slow install-from-a-fresh-venv test.
#
#   bash scripts/test-python.sh [pytest args...]
#
# Which Python: `python3` first on PATH (EMBER_PYTHON overrides). On these machines that
# is pyenv's CPython 3.11, which ships its headers, venv and ensurepip, so nothing more is
# needed from Debian; Debian's /usr/bin/python3 would also need python3-venv and
# python3-dev, and has a separate site-packages. The binding is built against, installed
# into and tested with the venv's interpreter only, so the two never mix. If the first
# python3 cannot make a venv, /usr/bin/python3 is used.
#
# Build cache: the CMake tree of the pip build lives in build-py/skbuild (ignored by git)
# and is reused by later runs and by the fresh-venv test (EMBER_PY_BUILD_DIR), so only the
# first run compiles libember, the backends and the SWIG module (-j2 at most).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v swig >/dev/null || [ ! -e /usr/include/dlpack/dlpack.h ] || ! command -v cmake >/dev/null; then
  bash scripts/install-deps.sh
fi

py="${EMBER_PYTHON:-python3}"
venv="${EMBER_PY_VENV:-${TMPDIR:-/tmp}/ember-py-test-venv}"
rm -rf "$venv"
if ! "$py" -m venv "$venv" 2>/dev/null; then
  py=/usr/bin/python3
  rm -rf "$venv"
  "$py" -m venv "$venv"
fi
echo "== Python: $("$venv/bin/python" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)')"

export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
build_dir="$root/build-py/skbuild"
mkdir -p "$build_dir"

"$venv/bin/python" -m pip install -q numpy pytest
echo "== pip install ./bindings/python (build tree: build-py/skbuild)"
"$venv/bin/python" -m pip install -q "$root/bindings/python" --config-settings=build-dir="$build_dir"

echo "== pytest tests/python"
cd "${TMPDIR:-/tmp}"
EMBER_PY_BUILD_DIR="$build_dir" "$venv/bin/python" -m pytest -p no:cacheprovider -q "$root/tests/python" "$@"
