// Loads the WebAssembly module once and holds what every object of the API shares: the embind
// classes, the raw hot-path exports and the state writer.
import { StateWriter } from './marshal.js';

let runtime = null;
let pending = null;

/** The loaded runtime; throws the error users see when they forget `await init()`. */
export function requireRuntime() {
  if (runtime === null) {
    throw new Error('handoff-graph is not initialized: `await init()` before creating graphs or conditions');
  }
  return runtime;
}

async function toModule(source, platform) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (typeof source === 'string' || source instanceof URL) return platform.compileFrom(source);
  throw new TypeError('init({ wasm }) takes a URL, a string, an ArrayBuffer, a Uint8Array or a WebAssembly.Module');
}

async function load(platform, options) {
  const wasmModule = await toModule(options.wasm ?? platform.defaultWasm(), platform);
  let failed;
  const instantiationFailed = new Promise((_, reject) => {
    failed = reject;
  });
  const module = await Promise.race([
    platform.createModule({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule), failed);
        return {};
      },
    }),
    instantiationFailed,
  ]);
  // The glue's export functions replace themselves with the raw export on their first call; make
  // that call now (a null object answers harmlessly) so that later reads get the raw function.
  module._hg_route(0, 0, 0);
  module._hg_evaluate(0, 0);
  module._hg_exec_begin(0);
  module._hg_exec_complete(0, 0);
  module._hg_exec_status(0);
  const infoAddress = module._hg_exec_info() >>> 2;
  let info = new Int32Array(module.HEAPU8.buffer, infoAddress * 4, 7);
  return {
    module,
    route: module._hg_route,
    evaluate: module._hg_evaluate,
    execBegin: module._hg_exec_begin,
    execComplete: module._hg_exec_complete,
    execStatus: module._hg_exec_status,
    execAbort: module._hg_exec_abort,
    execCancel: module._hg_exec_cancel,
    // What the last execBegin/execComplete did (src/machine, wasm/bindings.cpp exec_info).
    execInfo() {
      if (info.length === 0) info = new Int32Array(module.HEAPU8.buffer, infoAddress * 4, 7);
      return info;
    },
    heapUsed: module._hg_heap_used,
    writer: new StateWriter({
      reserve: module._hg_transfer_reserve,
      memory: () => module.HEAPU8,
    }),
  };
}

/** Builds the `init` of a platform entry (node.js, browser.js). */
export function makeInit(platform) {
  return function init(options = {}) {
    if (pending === null) {
      if (typeof options !== 'object' || options === null) {
        return Promise.reject(new TypeError('init(options) takes an object, e.g. init({ wasm: url })'));
      }
      pending = load(platform, options).then(
        (loaded) => {
          runtime = loaded;
        },
        (error) => {
          pending = null;  // let a later call retry, e.g. with another `wasm`
          throw error;
        },
      );
    }
    return pending;
  };
}
