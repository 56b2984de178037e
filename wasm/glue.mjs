// The full module's loader, shipped as dist/handoff-graph.mjs (scripts/build.sh copies it): the
// module is a standalone .wasm with raw exports only (wasm/bindings.cpp, wasm/raw_exports.cpp), so
// this small file stands where Emscripten's JS glue stood. It keeps the glue's shape, which js/
// calls (js/runtime.js): a factory taking the instantiateWasm hook and resolving with the module
// as js/raw-module.js presents it (the routing module's loader presents its own the same way);
// and wasmLocation(), which names the .wasm in the form bundlers recognise as an asset reference:
// Vite, webpack 5 and Parcel (and Rollup with @web/rollup-plugin-import-meta-assets) emit the .wasm
// and rewrite this URL. Unbundled, or bundled by esbuild or Rollup alone, it names the .wasm beside
// whatever file this code ends up in.
import { instantiateRawModule } from '../js/raw-module.js';

/** The default location of the WebAssembly module; null where import.meta.url is empty (a CommonJS bundle). */
export function wasmLocation() {
  return import.meta.url ? new URL('./handoff-graph.wasm', import.meta.url) : null;
}

/** Instantiates the module through `instantiateWasm(imports, receive)` (js/runtime.js compiles it). */
export default function createHandoffGraphModule({ instantiateWasm }) {
  return instantiateRawModule((imports) => new Promise((resolve) => instantiateWasm(imports, resolve)), 'handoff-graph module');
}
