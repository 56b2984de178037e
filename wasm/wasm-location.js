// Appended to the full module's loader (em++ --extern-post-js): where its .wasm is, in the form
// bundlers recognise as an asset reference, so that Vite, webpack 5 and Parcel (and Rollup with
// @web/rollup-plugin-import-meta-assets) emit the .wasm and rewrite this URL. Null where
// import.meta.url is empty (a CommonJS bundle: js/node.js uses __filename there).
export function wasmLocation() {
  return import.meta.url ? new URL('./handoff-graph.wasm', import.meta.url) : null;
}
