#!/usr/bin/env bash
# Regenerates the golden exports in tests/golden/ from their *.input.json with the native core.
# Review the diff by eye (git diff tests/golden) before committing: the golden files are the spec
# that the native (GoogleTest) and WebAssembly (node --test) builds are held to, byte for byte.
#   bash scripts/update-golden.sh           rewrite the files that changed
#   bash scripts/update-golden.sh --check   only report which files would change (exit 1 if any)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$(nproc)" --target export_golden
build/native/export_golden "$@" tests/golden
