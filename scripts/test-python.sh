#!/usr/bin/env bash
# Builds the Python binding with pip in a fresh virtual environment and runs its pytest
# suite (tests/python), including the slow install-from-a-fresh-venv test; then runs the
# PyTorch interop tests (tests/python/test_torch_interop.py) with Debian's /usr/bin/python3.
#
#   bash scripts/test-python.sh [pytest args...]     # the args go to the venv run only
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
#
# EMBER_PY_PREBUILT=<an Ember build tree> packages that tree's libember and backend
# modules instead of building them again (bindings/python/CMakeLists.txt); scripts/test.sh
# passes its optimised build, which ctest has just tested; the fresh-venv test
# (tests/python/test_install.py) then packages it too. Unset: the full source build that
# `pip install ./bindings/python` does, in both places. CI checks that the source build
# configures; run this script without EMBER_PY_PREBUILT to compile it (about 500 s here).
#
# PyTorch: PyPI's torch wheel is the CUDA build (gigabytes) and the CPU index is not
# reachable, so the venv has no torch. Debian's python3-torch 1.13 (CPU, built against
# python3-numpy 1.24) is for /usr/bin/python3, CPython 3.11 like pyenv's, so the same
# extension module imports there. The second step runs test_torch_interop.py with that
# interpreter, importing the ember package pip installed into the venv through a temp dir
# holding only a symlink to it (PYTHONPATH), so the venv's site-packages (NumPy 2.x) stays
# off the path. EMBER_REQUIRE_TORCH=1 makes a torch that does not import an error.
# EMBER_TORCH_PYTHON overrides the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

torch_py="${EMBER_TORCH_PYTHON:-/usr/bin/python3}"
if ! command -v swig >/dev/null || [ ! -e /usr/include/dlpack/dlpack.h ] || ! command -v cmake >/dev/null \
   || [ "$(dpkg-query -W -f='${Status}\n' python3-torch python3-pytest 2>/dev/null | grep -c 'install ok installed')" != 2 ]; then
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
prebuilt="${EMBER_PY_PREBUILT:-}"
if [ -n "$prebuilt" ]; then  # the full source build's CMake logic, configured (not built)
  echo "== cmake configure of bindings/python as pip builds it from source"
  configure_dir=$(mktemp -d "${TMPDIR:-/tmp}/ember-py-configure.XXXXXX")
  cmake -S "$root/bindings/python" -B "$configure_dir" -DPython_EXECUTABLE="$venv/bin/python" >/dev/null \
    || { echo "configuring bindings/python (source build) failed" >&2; exit 1; }
  grep -q "ember-backend-cpu" "$configure_dir/Makefile" \
    || { echo "the source build of bindings/python does not bundle the cpu backend" >&2; exit 1; }
  rm -rf "$configure_dir"
fi
echo "== pip install ./bindings/python (build tree: build-py/skbuild${prebuilt:+; packaging the prebuilt $prebuilt})"
"$venv/bin/python" -m pip install -q "$root/bindings/python" --config-settings=build-dir="$build_dir" \
  --config-settings=cmake.define.EMBER_PY_PREBUILT="$prebuilt"

echo "== pytest tests/python"
cd "${TMPDIR:-/tmp}"
EMBER_PY_BUILD_DIR="$build_dir" "$venv/bin/python" -m pytest -p no:cacheprovider -q "$root/tests/python" "$@"

echo "== pytest tests/python/test_torch_interop.py with $torch_py (Debian's torch and NumPy)"
start=$SECONDS
pkg_dir=$("$venv/bin/python" -c 'import ember, os; print(os.path.dirname(ember.__file__))')
shim=$(mktemp -d "${TMPDIR:-/tmp}/ember-torch-path.XXXXXX")
trap 'rm -rf "$shim"' EXIT
ln -s "$pkg_dir" "$shim/ember"
cd "$shim"
export PYTHONPATH="$shim" PYTHONNOUSERSITE=1 EMBER_REQUIRE_TORCH=1
"$torch_py" - "$shim" <<'PY'
import os, sys
import ember, numpy, torch
where = os.path.dirname(ember.__file__)
if where != os.path.join(sys.argv[1], "ember"):
    sys.exit(f"ember was imported from {where}, not from the venv's package")
print(f"   Python {sys.version.split()[0]} ({sys.executable}), torch {torch.__version__}, NumPy {numpy.__version__},"
      f" ember {ember.__version__} from {os.path.realpath(where)}, backends {ember.backends()}")
PY
"$torch_py" -m pytest -p no:cacheprovider -q "$root/tests/python/test_torch_interop.py"
echo "== torch interop step: $((SECONDS - start)) s"
