#!/usr/bin/env bash
# Regenerates docs/op-coverage.md from the op table and the backends built in ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
./build/bin/ember-info --markdown > docs/op-coverage.md
