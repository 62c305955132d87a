#!/usr/bin/env bash
# NumPy baselines for the cpu backend (bench/run runs every bench/run_*.sh).
#   bench/run_numpy.sh [--quick] [case-substring ...]
# 1. bench/numpy_baseline.py times the operations in NumPy (python3 first on PATH) and
#    writes {"<case>/<size>": seconds} to a temporary file;
# 2. `ember-bench numpy` times the same operations in Ember right after, in the same
#    environment, and prints the JSON lines (baseline "numpy", ratio = numpy / ember).
# Prints nothing (exit 0) when NumPy or the cpu backend is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${EMBER_BENCH_BUILD:-$root/build-bench}"
if ! python3 -c "import numpy" 2>/dev/null; then
  echo "run_numpy.sh: NumPy is not installed for $(command -v python3) (pip install numpy); skipped" >&2
  exit 0
fi
if [ ! -x "$build/bin/ember-bench" ]; then
  echo "run_numpy.sh: $build/bin/ember-bench not built; skipped" >&2
  exit 0
fi
quick=()
for a in "$@"; do [ "$a" = "--quick" ] && quick=(--quick); done
times=$(mktemp)
trap 'rm -f "$times"' EXIT
python3 "$root/bench/numpy_baseline.py" --out "$times" "$@"
[ "$(cat "$times")" = "{}" ] && exit 0
EMBER_NUMPY_BASELINE="$times" "$build/bin/ember-bench" "${quick[@]}" numpy
