#!/usr/bin/env bash
# Builds everything: the native library and tests, the WebAssembly module, and the npm package's
# generated files in dist/. Incremental: a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# Debian's Emscripten finds its optimizer's `acorn` only here.
export NODE_PATH=/usr/share/nodejs

cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$jobs"

[ -f build/wasm/CMakeCache.txt ] || emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j"$jobs"

mkdir -p dist
cp build/wasm/handoff-graph.mjs build/wasm/handoff-graph.wasm dist/
cp wasm/glue.d.mts dist/handoff-graph.d.mts
# The CommonJS entry is the ESM source bundled by esbuild; import.meta.url becomes this file's URL.
npx --no-install esbuild js/node.js --bundle --platform=node --format=cjs --target=node20 --log-level=warning \
  --outfile=dist/index.cjs \
  --define:import.meta.url=__import_meta_url \
  --banner:js="const __import_meta_url = require('node:url').pathToFileURL(__filename).href;"
# The CommonJS typings are the same declarations, with paths relative to dist/.
sed "s#'./stores/#'../js/stores/#g" js/index.d.ts > dist/index.d.cts
