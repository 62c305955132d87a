#!/usr/bin/env bash
# Compiles every generated OpenCL program with clang as strict OpenCL C 1.2 (pedantic
# diagnostics are errors), the dialect the backend asks drivers for.
#   check_opencl_sources.sh <ember-opencl-sources binary> <work dir> <clang>
set -euo pipefail
dump=$1 work=$2 clang=$3
rm -rf "$work" && mkdir -p "$work"
"$dump" "$work"
failed=0
for f in "$work"/*.cl; do
  defs=()
  case $f in *_fp64.cl) defs=(-DEMB_FP64) ;; *) defs=(-cl-single-precision-constant) ;; esac
  # -Wno-constant-logical-operand: generated conditions such as `0 || isnan(v)` are deliberate.
  if ! "$clang" -x cl -cl-std=CL1.2 "${defs[@]}" -Xclang -finclude-default-header -fsyntax-only \
       -Werror=pedantic -Wno-constant-logical-operand "$f"; then
    echo "FAILED: $f"
    failed=1
  fi
done
exit $failed
