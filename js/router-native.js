// The routing module's side of handoff-graph/router: instantiates dist/handoff-graph-router.wasm
// (wasm/router.cpp: raw exports, no Emscripten glue) and presents it as js/runtime.js holds the
// full module: the `_hg_*` raw exports, `HEAPU8`, and the HandoffGraph class of
// js/native-calls.js, so js/api.js runs unchanged on either module.
import { graphClass } from './native-calls.js';

const decoder = new TextDecoder();

/**
 * The imports the standalone module asks for. `memory()` is the instance's memory, once there is one;
 * `readSlot` answers the core's hg_js_read_slot.
 * hg_js_number is wasm/router_libc.cpp's strtod: the digits a grammar accepted, as Number() reads them.
 */
function imports(memory, readSlot) {
  return {
    env: {
      // A lazy route asks for a path's value when it first needs it (wasm/transfer.h LazySlots).
      hg_js_read_slot: readSlot,
      // Growth replaces the buffer; js/marshal.js re-reads its views when they are emptied.
      emscripten_notify_memory_growth() {},
      hg_js_number: (at, length) => Number(decoder.decode(new Uint8Array(memory().buffer, at >>> 0, length >>> 0))),
    },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        throw new WebAssembly.RuntimeError(`handoff-graph router module aborted (${code})`);
      },
    },
  };
}

/** Instantiates the compiled routing module; resolves with the glue-shaped object runtime.js takes. */
export async function instantiateRouter(wasmModule) {
  // A compiled Module instantiates to an Instance (not the { module, instance } bytes give).
  /** @type {WebAssembly.Memory} */
  let memory;
  // The js/marshal.js StateWriter whose readSlot answers, once js/runtime.js has made it
  // (setSlotReader); called as a method, so that the import is one call away from it.
  /** @type {{ readSlot(slot: number): number }} */
  let reader = {
    readSlot(slot) {
      throw new Error(`handoff-graph: the core asked for slot ${slot} before a state writer was set`);
    },
  };
  const instance = /** @type {WebAssembly.Instance} */ (/** @type {unknown} */ (await WebAssembly.instantiate(wasmModule, imports(() => memory, (slot) => reader.readSlot(slot)))));
  const x = /** @type {Record<string, any>} */ (instance.exports);
  memory = x.memory;
  x._initialize();

  // The exports as `_hg_*` (as the full module's loader, wasm/glue.mjs, presents its own), one
  // view per buffer (js/marshal.js reads HEAPU8 several times per compileCondition()), and the
  // HandoffGraph class both modules share.
  /** @type {Record<string, any>} */
  const module = {};
  for (const name of Object.keys(x)) module[`_${name}`] = x[name];
  /** @param {{ readSlot(slot: number): number }} writer */
  module.setSlotReader = (writer) => {
    reader = writer;
  };
  let heap = new Uint8Array(memory.buffer);
  Object.defineProperty(module, 'HEAPU8', {
    get() {
      if (heap.buffer !== memory.buffer) heap = new Uint8Array(memory.buffer);
      return heap;
    },
  });
  module.HandoffGraph = graphClass(module);
  return module;
}
