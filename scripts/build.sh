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
# Each module is em++'s output: the .wasm and its generated loader (an ES module), one type
# declaration for both loaders.
for module in handoff-graph handoff-graph-router; do
  cp "build/wasm/$module.wasm" "build/wasm/$module.mjs" dist/
  cp wasm/glue.d.mts "dist/$module.d.mts"
done
# @opentelemetry/api is an optional peer dependency, imported at run time if the application has
# it (js/tracing.js): never bundled.
esbuild=(npx --no-install esbuild --bundle --log-level=warning --external:@opentelemetry/api)
# The CommonJS build, for Nodes that cannot require an ES module (js/require.cjs): js/node.js
# bundled. import.meta is empty in CommonJS, so js/node.js finds the .wasm through __filename.
"${esbuild[@]}" js/node.js --platform=node --format=cjs --target=node20 --log-override:empty-import-meta=silent \
  --outfile=dist/index.cjs
# The same for require('handoff-graph/router') on such Nodes (js/router-require.cjs).
"${esbuild[@]}" js/router-node.js --platform=node --format=cjs --target=node20 --log-override:empty-import-meta=silent \
  --outfile=dist/router.cjs
# handoff-graph/inline: one ES module holding the package and the .wasm (base64).
"${esbuild[@]}" js/inline.js --platform=neutral --format=esm --target=es2022 --loader:.wasm=base64 \
  --outfile=dist/inline.js
# The type declarations, in dist/ as a mirror of js/: emitted from the typed JavaScript's JSDoc, the
# hand-written .d.ts of entries not switched yet copied beside them, and each one's CommonJS twin
# (.d.cts). scripts/typings.mjs says how; docs/architecture.md#typings says why.
node scripts/typings.mjs
