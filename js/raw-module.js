// How both WebAssembly modules are presented to js/runtime.js once instantiated: the full module
// (by its loader, wasm/glue.mjs, shipped as dist/handoff-graph.mjs) and the routing module (by
// js/router-native.js). Both are standalone .wasm files with raw exports and no Emscripten glue, so
// the imports they ask for and the object js/ calls are the same: the exports as `_name`,
// `HEAPU8`, and `setSlotReader`.

/**
 * Instantiates a module of ours through `instantiate(imports)` and resolves with its exports as
 * `_name`, `HEAPU8` (a view of its memory, made anew after growth) and `setSlotReader(writer)`,
 * which names the js/marshal.js StateWriter that answers the core's hg_js_read_slot.
 * @param {(imports: WebAssembly.Imports) => Promise<WebAssembly.Instance>} instantiate
 * @param {string} name what an abort calls the module
 * @returns {Promise<Record<string, any>>}
 */
export async function instantiateRawModule(instantiate, name) {
  /** @type {WebAssembly.Memory} */
  let memory;
  // Called as a method, so that the import is one call away from the writer.
  /** @type {{ readSlot(slot: number): number }} */
  let reader = {
    readSlot(slot) {
      throw new Error(`handoff-graph: the core asked for slot ${slot} before a state writer was set`);
    },
  };
  const instance = await instantiate({
    env: {
      // A lazy route asks for a path's value when it first needs it (wasm/transfer.h LazySlots).
      hg_js_read_slot: (/** @type {number} */ slot) => reader.readSlot(slot),
      // Growth replaces the buffer; HEAPU8 below and js/marshal.js's views notice that themselves.
      emscripten_notify_memory_growth() {},
    },
    wasi_snapshot_preview1: {
      proc_exit(/** @type {number} */ code) {
        throw new WebAssembly.RuntimeError(`${name} aborted (${code})`);
      },
    },
  });
  const exports = /** @type {Record<string, any>} */ (instance.exports);
  memory = exports.memory;
  exports._initialize();
  /** @type {Record<string, any>} */
  const module = {};
  for (const key of Object.keys(exports)) module[`_${key}`] = exports[key];
  /** @param {{ readSlot(slot: number): number }} writer */
  module.setSlotReader = (writer) => {
    reader = writer;
  };
  // One view per buffer: js/marshal.js reads HEAPU8 several times per compileCondition().
  let heap = new Uint8Array(memory.buffer);
  Object.defineProperty(module, 'HEAPU8', {
    get() {
      if (heap.buffer !== memory.buffer) heap = new Uint8Array(memory.buffer);
      return heap;
    },
  });
  return module;
}
