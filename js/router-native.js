// The routing module's side of handoff-graph/router: instantiates dist/handoff-graph-router.wasm
// (wasm/router.cpp: raw exports, no Emscripten glue) and presents it as js/runtime.js holds the
// full module: the `_hg_*` raw exports, `HEAPU8`, and the HandoffGraph class of
// js/native-calls.js, so js/api.js runs unchanged on either module.
import { graphClass } from './native-calls.js';
import { instantiateRawModule } from './raw-module.js';

/** Instantiates the compiled routing module; resolves with the glue-shaped object runtime.js takes. */
export async function instantiateRouter(wasmModule) {
  // A compiled Module instantiates to an Instance (not the { module, instance } bytes give).
  const module = await instantiateRawModule(
    async (imports) => /** @type {WebAssembly.Instance} */ (/** @type {unknown} */ (await WebAssembly.instantiate(wasmModule, imports))),
    'handoff-graph router module',
  );
  module.HandoffGraph = graphClass(module);
  return module;
}
