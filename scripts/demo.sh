#!/usr/bin/env bash
# Installs what is needed, builds Ember and runs the demo on every available backend.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
./build/bin/ember-info
./build/bin/ember-demo
