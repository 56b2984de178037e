
// Appended to the Emscripten glue (CMakeLists.txt: --extern-post-js), so that the file beside
// handoff-graph.wasm names it in the form bundlers recognise as an asset reference: Vite,
// webpack 5 and Parcel (and Rollup with @web/rollup-plugin-import-meta-assets) emit the .wasm and
// rewrite this URL. Unbundled, or bundled by esbuild or Rollup alone, it names the .wasm beside
// whatever file this code ends up in. The glue itself never looks for the .wasm
// (-sUSE_ES6_IMPORT_META=0; js/runtime.js hands it the compiled module).
/** The default location of the WebAssembly module; null where import.meta.url is empty (a CommonJS bundle). */
export function wasmLocation() {
  return import.meta.url ? new URL('./handoff-graph.wasm', import.meta.url) : null;
}
