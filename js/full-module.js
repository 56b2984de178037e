// The full module's side of the platform entries (node.js, browser.js, inline.js): instantiates
// dist/handoff-graph.wasm through its loader (wasm/glue.mjs, dist/handoff-graph.mjs) and adds the
// classes js/ calls, over its raw exports (js/full-native.js, js/native-calls.js). Kept out of js/runtime.js, which the
// routing entry shares, so that handoff-graph/router's bundle carries none of it.
import { machineClasses, swarmClass } from './full-native.js';
import { graphClass } from './native-calls.js';

/** `instantiate(wasmModule)` for makeInit: the full module, through `createModule` (its loader). */
export function instantiateFull(createModule) {
  return async (wasmModule) => {
    let failed;
    const instantiationFailed = new Promise((_, reject) => {
      failed = reject;
    });
    const module = await Promise.race([
      createModule({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule), failed);
          return {};
        },
      }),
      instantiationFailed,
    ]);
    return Object.assign(module, machineClasses(module), { HandoffGraph: graphClass(module), Swarm: swarmClass(module) });
  };
}
