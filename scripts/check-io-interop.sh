#!/bin/sh
# Cross-checks Ember's .npy / .npz / safetensors files with NumPy and the safetensors
# package in both directions (PyTorch too when it is importable).
#   scripts/check-io-interop.sh [BUILD_DIR]     (default: build; needs lib/libember.so there)
# Creates a venv under ${EMBER_INTEROP_VENV:-/tmp/ember-io-venv} with numpy and safetensors.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
VENV=${EMBER_INTEROP_VENV:-/tmp/ember-io-venv}
WORK=$(mktemp -d /tmp/ember-io-interop.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet numpy safetensors
fi
${CC:-cc} -std=c11 -Wall -I"$ROOT/include" "$ROOT/tests/python_interop/io_tool.c" -L"$BUILD/lib" -lember \
  -Wl,-rpath,"$BUILD/lib" -o "$WORK/io_tool"
"$VENV/bin/python" "$ROOT/tests/python_interop/check_files.py" "$WORK/io_tool" "$WORK/files"
