#!/usr/bin/env bash
# Installs every Debian 12 package Ember builds, tests and benchmarks with. Run as root.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git python3 python3-venv python3-pip
  clang libclang-rt-14-dev
  libgtest-dev libcjson-dev valgrind
  libopenblas-dev liblapacke-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libclblast-dev
  swig lua5.4 liblua5.4-dev lua5.3 liblua5.3-dev luarocks libdlpack-dev
  python3-torch python3-numpy python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
