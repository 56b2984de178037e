// Loads the WebAssembly module once and holds what every object of the API shares: the
// module's classes (its embind tables), the raw per-decision exports and the state writer. The
// module is the full one (dist/handoff-graph.mjs) or, for handoff-graph/router, the routing one
// (dist/handoff-graph-router.mjs): each is em++'s generated loader beside its .wasm. The platform
// entries (node.js, browser.js, inline.js, router.js, router-node.js) say which, where the module
// is by default and how to fetch a location; this file does the rest, and words the errors: a
// load that fails says where it looked and how to pass the module with init({ wasm }).
import { FINGERPRINT } from './contract.js';
import { StateWriter } from './marshal.js';
import { checkOptions } from './options.js';

let runtime = null;
let pending = null;
let pendingKind = null;

/** The loaded runtime; throws the error users see when they forget `await init()`. */
export function requireRuntime() {
  if (runtime === null) {
    throw new Error('handoff-graph is not initialized: `await init()` before creating graphs or conditions');
  }
  return runtime;
}

const INIT_OPTIONS = ['wasm'];

/** How every "the module could not be loaded" error ends. */
export const HOW_TO_PASS =
  "pass the module yourself with init({ wasm }): its URL or path, its bytes, or a WebAssembly.Module; " +
  "or import from 'handoff-graph/inline', which embeds it";

/**
 * The error for a module that could not be fetched or read from `where`.
 * @param {string | URL} where
 * @param {string} why
 * @param {{ isDefault: boolean, cause?: unknown, hint?: string }} details
 */
export function loadError(where, why, { isDefault, cause, hint = '' }) {
  const place = hint !== '' ? `${hint}, or ` : isDefault
    ? "it is looked for beside the file that holds handoff-graph's code (in a bundle: beside the bundle); " +
      'copy node_modules/handoff-graph/dist/handoff-graph.wasm there, or '
    : '';
  return new Error(`handoff-graph: could not load its WebAssembly module from ${where} (${why}): ${place}${HOW_TO_PASS}`, { cause });
}

/** Compiles bytes, first checking they are WebAssembly at all (a dev server's HTML fallback page is not). */
export async function compileBytes(bytes, where, hint = '') {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.length >= 4 && view[0] === 0 && view[1] === 0x61 && view[2] === 0x73 && view[3] === 0x6d;
  if (!magic) {
    const start = Array.from(view.subarray(0, 16), (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    throw new WebAssembly.CompileError(
      `handoff-graph: ${where} is not a WebAssembly module (${view.length} bytes starting "${start}"; ` +
        `a page served in its place?): ${hint !== '' ? `${hint}, or ` : ''}${HOW_TO_PASS}`,
    );
  }
  return WebAssembly.compile(view);
}

async function toModule(source, platform, isDefault) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return compileBytes(source, isDefault ? 'the embedded module' : 'init({ wasm }): the bytes');
  }
  if (typeof source === 'string' || source instanceof URL) return platform.compileFrom(source, { isDefault });
  throw new TypeError('init({ wasm }) takes a URL, a string, an ArrayBuffer, a Uint8Array or a WebAssembly.Module');
}

/** The raw exports js/ keeps references to (the per-decision calls, wasm/route_exports.cpp and step_exports.cpp). */
const HOT_EXPORTS = ['_hg_route', '_hg_evaluate', '_hg_exec_begin', '_hg_exec_complete', '_hg_exec_verdict', '_hg_exec_items', '_hg_exec_branches'];

/**
 * Instantiates a compiled module through its generated loader (`createModule`, the entry's
 * import of dist/handoff-graph.mjs or dist/handoff-graph-router.mjs). The loader is given the
 * compiled module (Debian's Emscripten 3.1.6 would fetch a file path in Node); load() then gives
 * it the state writer the core's lazy reads call (setSlotReader, wasm/library.js).
 */
export async function instantiate(createModule, wasmModule) {
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
  // The loader stands a stub in for each raw export, which puts the export itself in its place
  // on the first call; a reference taken before keeps calling the stub (about 10 ns a call). Each
  // of these returns at once for a null object, so one such call leaves the exports themselves.
  for (const name of HOT_EXPORTS) {
    if (typeof module[name] === 'function') module[name](0, 0, 0, -1);
  }
  return module;
}

async function load(platform, options) {
  const isDefault = options.wasm === undefined;
  const wasmModule = await toModule(isDefault ? platform.defaultWasm() : options.wasm, platform, isDefault);
  // The entry instantiates its module with its loader (so neither entry's bundle carries the
  // other's code).
  const module = await platform.instantiate(wasmModule);
  checkContract(module);
  // Keys the core's string hashing (src/core/string_index.h) before any table exists, so that
  // no one can choose node ids or JSON keys whose hashes collide.
  if (!module._hg_seed_hashes(...crypto.getRandomValues(new Uint32Array(4)))) {
    throw new Error('handoff-graph: internal error: the WebAssembly module hashed strings before init() keyed it');
  }
  const writer = new StateWriter({
    reserve: module._hg_transfer_reserve,
    memory: () => module.HEAPU8,
  });
  // A lazy route or evaluation asks the writer for a path's value when it first needs it.
  module.setSlotReader(writer);
  const loaded = {
    module,
    kind: platform.kind ?? 'full',
    route: module._hg_route,
    evaluate: module._hg_evaluate,
    heapUsed: module._hg_heap_used,
    writer,
  };
  // The full entries add what only the full module has (js/full-module.js, fullPlatform).
  return platform.extend === undefined ? loaded : Object.assign(loaded, platform.extend(module));
}

/**
 * Refuses a module built from another version of src/core/contract.h: its memory layouts may
 * differ from the ones js/contract.js describes, and reading them would give wrong answers.
 */
export function checkContract(module) {
  const exported = typeof module._hg_contract_fingerprint === 'function' ? module._hg_contract_fingerprint() >>> 0 : undefined;
  if (exported === FINGERPRINT) return;
  const found = exported === undefined ? 'has no contract fingerprint' : `was built with contract ${exported.toString(16).padStart(8, '0')}`;
  throw new Error(
    `this WebAssembly module ${found}, but this handoff-graph JavaScript expects ${FINGERPRINT.toString(16).padStart(8, '0')}: ` +
      'the .wasm and the JavaScript come from different versions. Load the handoff-graph.wasm shipped with this package ' +
      '(init({ wasm }) with the file from the same install), or rebuild both (npm run build).',
  );
}

/**
 * Builds the `init` of a platform entry (node.js, browser.js, inline.js, router.js, router-node.js).
 * `platform`: `instantiate`, `defaultWasm`, `compileFrom`; `kind: 'router'` for the routing module;
 * the full entries add `extend(module)` (more runtime fields) and `afterRouter()` (js/full-module.js).
 */
export function makeInit(platform) {
  return function init(options = {}) {
    try {
      checkOptions(options, INIT_OPTIONS, 'init options');
    } catch (error) {
      return Promise.reject(error);
    }
    const kind = platform.kind ?? 'full';
    // One runtime per page or process: the full module serves the routing entry too, but objects
    // made on the routing module cannot move to the full one, so the full entry refuses to start
    // after it (with the error its platform words).
    if (pending !== null && pendingKind === 'router' && kind !== 'router') return Promise.reject(platform.afterRouter());
    if (pending === null) {
      pendingKind = kind;
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
