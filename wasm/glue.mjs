// The full module's loader, shipped as dist/handoff-graph.mjs (scripts/build.sh copies it): the
// module is a standalone .wasm with raw exports only (wasm/bindings.cpp, wasm/raw_exports.cpp), so
// this small file stands where Emscripten's JS glue stood. It keeps the glue's shape, which js/
// calls (js/runtime.js): a factory taking the instantiateWasm hook and resolving with the `_hg_*`
// exports and HEAPU8; and wasmLocation(), which names the .wasm in the form bundlers recognise as
// an asset reference: Vite, webpack 5 and Parcel (and Rollup with @web/rollup-plugin-import-meta-assets)
// emit the .wasm and rewrite this URL. Unbundled, or bundled by esbuild or Rollup alone, it names
// the .wasm beside whatever file this code ends up in.
const decoder = new TextDecoder();

/** The default location of the WebAssembly module; null where import.meta.url is empty (a CommonJS bundle). */
export function wasmLocation() {
  return import.meta.url ? new URL('./handoff-graph.wasm', import.meta.url) : null;
}

/**
 * Instantiates the module through `instantiateWasm(imports, receive)` (js/runtime.js compiles it)
 * and resolves with its exports as `_name`, and `HEAPU8`, a view of its memory made anew after growth.
 */
export default function createHandoffGraphModule({ instantiateWasm }) {
  /** @type {WebAssembly.Memory} */
  let memory;
  // The js/marshal.js StateWriter whose readSlot answers, once js/runtime.js has made it
  // (setSlotReader); called as a method, so that the import is one call away from it.
  let reader = {
    readSlot(slot) {
      throw new Error(`handoff-graph: the core asked for slot ${slot} before a state writer was set`);
    },
  };
  const imports = {
    env: {
      // A lazy route asks for a path's value when it first needs it (wasm/transfer.h LazySlots).
      hg_js_read_slot: (slot) => reader.readSlot(slot),
      // Growth replaces the buffer; HEAPU8 below and js/marshal.js's views notice that themselves.
      emscripten_notify_memory_growth() {},
      // wasm/router_libc.cpp's strtod: Number() over the digits a grammar accepted, exact as strtod is.
      hg_js_number: (at, length) => Number(decoder.decode(new Uint8Array(memory.buffer, at >>> 0, length >>> 0))),
    },
    wasi_snapshot_preview1: {
      proc_exit(code) {
        throw new WebAssembly.RuntimeError(`handoff-graph module aborted (${code})`);
      },
    },
  };
  return new Promise((resolve) => {
    instantiateWasm(imports, (instance) => {
      const exports = instance.exports;
      memory = exports.memory;
      exports._initialize();
      const module = {};
      for (const name of Object.keys(exports)) module[`_${name}`] = exports[name];
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
      resolve(module);
    });
  });
}
