#!/usr/bin/env bash
# `npm run bench [-- --json file]`: native (Google Benchmark) and Node benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build build/wasm --target handoff_bench_wasm >/dev/null
echo "== native (Google Benchmark)"
build/native/handoff_native_bench --benchmark_min_time=0.3
echo "== Node"
node bench/route.mjs "$@"
node bench/machine.mjs "$@"
