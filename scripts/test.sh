#!/usr/bin/env bash
# Every test suite: native (GoogleTest, also under ASan + UBSan), Node, and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh

echo "== native tests (GoogleTest)"
ctest --test-dir build/native --output-on-failure

echo "== native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DHANDOFF_SANITIZE=ON >/dev/null
cmake --build build/asan -j"$(nproc)" --target handoff_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/asan/handoff_tests --gtest_brief=1

echo "== TypeScript typings (tsc --strict)"
npx --no-install tsc -p tests/types

echo "== the packed tarball: publint and arethetypeswrong"
pack_dir=$(mktemp -d)
trap 'rm -rf "$pack_dir"' EXIT
npm pack --silent --pack-destination "$pack_dir" >/dev/null
npx --no-install publint run "$pack_dir"/handoff-graph-*.tgz
# The .wasm subpath is an asset, not a module: there are no types to resolve for it.
npx --no-install attw "$pack_dir"/handoff-graph-*.tgz --exclude-entrypoints handoff-graph.wasm

echo "== JavaScript tests (node --test): Node, Chromium, the packed tarball"
node --test tests/js/ tests/browser/ tests/package/
