#!/usr/bin/env bash
# `npm run bench [-- --json file] [-- --quick]`: native (Google Benchmark), Node and Chromium benchmarks.
# With --json, every figure (native ones included) goes to that file; BENCHMARKS.md is made from
# it by `node scripts/benchmarks-md.mjs file`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build build/wasm --target handoff_bench_wasm >/dev/null

export HANDOFF_BENCH_COMMAND="npm run bench${*:+ -- $*}"
min_time=0.3
json=""
previous=""
for arg in "$@"; do
  [ "$arg" = "--quick" ] && min_time=0.05
  [ "$previous" = "--json" ] && json="$arg"
  previous="$arg"
done

mkdir -p build/bench
native_json=build/bench/native.json
rm -f "$native_json"
echo "== native (Google Benchmark)"
# Human-readable on the console, JSON to a file that bench/route.mjs merges into --json.
build/native/handoff_native_bench --benchmark_min_time="$min_time" \
  --benchmark_out="$native_json" --benchmark_out_format=json
echo "== Node"
node bench/route.mjs --native "$native_json" "$@"
node bench/machine.mjs "$@"
node bench/fanout.mjs "$@"
node bench/swarm.mjs "$@"
node bench/check.mjs "$@"
node bench/replay.mjs "$@"
# The payload per entry and per part (issue 21): build/bench/size-report.md, and `payload` in --json.
node scripts/size-report.mjs "$@"
if [ -n "$json" ]; then
  echo
  echo "tables: node scripts/benchmarks-md.mjs $json   (writes BENCHMARKS.md)"
fi
