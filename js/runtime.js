// @ts-check
// Loads the WebAssembly module once and holds what every object of the API shares: the
// module's classes (its embind tables), the raw per-decision exports and the state writer. The
// module is the full one (dist/handoff-graph.mjs) or, for handoff-graph/router, the routing one
// (dist/handoff-graph-router.mjs): each is em++'s generated loader beside its .wasm. The platform
// entries (node.js, browser.js, inline.js, router.js, router-node.js) say which, where the module
// is by default and how to fetch a location; this file does the rest, and words the errors: a
// load that fails says where it looked and how to pass the module with init({ wasm }).
import { FINGERPRINT } from './contract.js';
import { StateWriter } from './state-writer.js';
import { checkOptions } from './options.js';

/**
 * @import { InitOptions, WasmSource } from './index.js'
 * @import { MachineRuntime } from './full-module.js'
 */

/**
 * The instantiated Emscripten module (em++'s loader's answer): its heap, embind's classes
 * (HandoffGraph, Machine, Execution, Swarm…) and the raw `_hg_*` exports. Emscripten 3.1.6 emits
 * no declarations for it (--emit-tsd is newer), so it is untyped: its users say what they read of it
 * (js/condition-compile.js, js/machine/definition.js's NativeMachine…).
 * @typedef {any} WasmModule
 */

/**
 * What every object of the API shares (requireRuntime): the module, which one it is, the raw
 * per-decision exports and the state writer. The full module's runtime also has the state
 * machines' exports (js/full-module.js); only the state machines read them, and they run on the
 * full module only.
 * @typedef {{
 *   module: WasmModule,
 *   kind: string,
 *   route: (address: number, node: number, cells: number, first: number) => number,
 *   evaluate: (address: number, cells: number, first: number) => number,
 *   heapUsed: () => number,
 *   writer: StateWriter,
 * } & MachineRuntime} Runtime
 */

/**
 * What a platform entry (node.js, browser.js, inline.js, router.js, router-node.js) tells makeInit.
 * @typedef {object} Platform
 * @property {string} [kind] 'router' for the routing module; 'full' by default.
 * @property {(wasmModule: WebAssembly.Module) => Promise<WasmModule>} instantiate
 * @property {() => WasmSource | Promise<WasmSource>} defaultWasm
 * @property {(location: string | URL, how: { isDefault: boolean, kind: string }) => Promise<WebAssembly.Module>} compileFrom
 * @property {(module: WasmModule) => MachineRuntime} [extend] the full entries' runtime fields
 * @property {() => Error} [afterRouter] the full entries' error for an init() after the router's
 */

// `runtime` is what the API reads; `loaded` is the instantiated module before the hash key of its
// string tables is drawn, which happens at the first call that needs the runtime, not in init():
// a Cloudflare Worker refuses random values in its global scope, where init() may be awaited.
/** @type {Runtime | null} */
let runtime = null;
/** @type {Runtime | null} */
let loaded = null;
/** @type {Promise<void> | null} */
let pending = null;
/** @type {string | null} */
let pendingKind = null;

/**
 * The loaded runtime; throws the error users see when they forget `await init()`.
 * @returns {Runtime}
 */
export function requireRuntime() {
  if (runtime !== null) return runtime;
  if (loaded === null) {
    throw new Error('handoff-graph is not initialized: `await init()` before creating graphs or conditions');
  }
  keyHashes(loaded.module);
  runtime = loaded;
  return runtime;
}

/**
 * Keys the core's string hashing (src/core/string_index.h) with random bits before any table
 * exists, so that no one can choose node ids or JSON keys whose hashes collide. Every call that
 * makes a graph, condition, machine or swarm goes through requireRuntime(), so this runs before
 * the first string is hashed; a refused draw throws and leaves the next call to try again.
 * @param {WasmModule} module
 */
function keyHashes(module) {
  let key;
  try {
    key = globalThis.crypto.getRandomValues(new Uint32Array(4));
  } catch (error) {
    throw new Error(
      'handoff-graph: the first graph, condition, state machine or swarm needs a random key for its string hashing, ' +
        `and this runtime refused to draw one here (crypto.getRandomValues: ${/** @type {Error | undefined} */ (error)?.message ?? error}): create it inside a ` +
        'request handler instead (a Cloudflare Worker refuses random values in its global scope; init() may stay there)',
      { cause: error },
    );
  }
  if (!module._hg_seed_hashes(...key)) {
    throw new Error('handoff-graph: internal error: the WebAssembly module hashed strings before init() keyed it');
  }
}

const INIT_OPTIONS = ['wasm'];

/** Each module's file, as the package ships it (dist/) and exports it (handoff-graph/<file>). */
/** @type {Record<string, string>} */
const WASM_FILE = { full: 'handoff-graph.wasm', router: 'handoff-graph-router.wasm' };

// Cloudflare Workers (workerd, which says so in navigator.userAgent, as its documentation tells
// programs to check) compile WebAssembly only from the modules a Worker imports: from bytes, it is
// refused inside a handler and never settles in the global scope (a top-level await of it fails
// the Worker's startup), so bytes are not even tried there.
const WORKERS = globalThis.navigator?.userAgent === 'Cloudflare-Workers';

/** @type {'embedder' | 'csp' | null | undefined} */
let compileRefusal;

/**
 * Why this runtime refuses to compile WebAssembly from bytes ('embedder': it compiles only the
 * modules a platform loads, as Cloudflare Workers do; 'csp': a page's Content-Security-Policy), or
 * null where it does not. Asked only when an error is worded, or bytes are to be compiled in a
 * Worker: the advice depends on it.
 * @returns {'embedder' | 'csp' | null}
 */
function refusesBytes() {
  if (compileRefusal === undefined) {
    if (WORKERS) {
      compileRefusal = 'embedder';
    } else {
      try {
        new WebAssembly.Module(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
        compileRefusal = null;
      } catch (error) {
        compileRefusal = /content.security.policy|\bCSP\b|unsafe-eval/i.test(String(/** @type {Error | undefined} */ (error)?.message)) ? 'csp' : 'embedder';
      }
    }
  }
  return compileRefusal;
}

/**
 * How every "the module could not be loaded" error ends: how to pass the module (`kind`: 'full'
 * or 'router'), in words that work in this runtime.
 * @param {string} [kind]
 * @returns {string}
 */
export function howToPass(kind = 'full') {
  const file = WASM_FILE[kind];
  const refusal = refusesBytes();
  if (refusal === 'csp') {
    return "this page's Content-Security-Policy refuses to compile WebAssembly: allow it with script-src 'wasm-unsafe-eval'";
  }
  if (refusal === 'embedder') {
    const how = WORKERS ? `import wasm from 'handoff-graph/${file}'` : `import it as the platform documents (Vercel: 'handoff-graph/${file}?module')`;
    return `this runtime compiles no WebAssembly from bytes, only modules the platform loads: ${how}, which gives a ` +
      'WebAssembly.Module, and pass it: init({ wasm })';
  }
  return `pass the module yourself with init({ wasm }): its URL or path, its bytes, a Response, or a WebAssembly.Module` +
    (kind === 'router' ? '' : "; or import from 'handoff-graph/inline', which embeds it");
}

/**
 * The error for a module that could not be fetched or read from `where`.
 * @param {string | URL} where
 * @param {string} why
 * @param {{ isDefault: boolean, kind?: string, cause?: unknown, hint?: string }} details
 */
export function loadError(where, why, { isDefault, kind = 'full', cause, hint = '' }) {
  const place = hint !== '' ? `${hint}, or ` : isDefault && refusesBytes() === null
    ? "it is looked for beside the file that holds handoff-graph's code (in a bundle: beside the bundle); " +
      `copy node_modules/handoff-graph/dist/${WASM_FILE[kind]} there, or `
    : '';
  return new Error(`handoff-graph: could not load its WebAssembly module from ${where} (${why}): ${place}${howToPass(kind)}`, { cause });
}

const tagOf = (/** @type {unknown} */ value) => Object.prototype.toString.call(value);

/**
 * Compiles bytes, first checking they are WebAssembly at all (a dev server's HTML fallback page is not).
 * @param {ArrayBufferLike | ArrayBufferView} bytes
 * @param {string} where
 * @param {string} [hint]
 * @param {string} [kind]
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileBytes(bytes, where, hint = '', kind = 'full') {
  const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
  const magic = view.length >= 4 && view[0] === 0 && view[1] === 0x61 && view[2] === 0x73 && view[3] === 0x6d;
  if (!magic) {
    const start = Array.from(view.subarray(0, 16), (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    throw new WebAssembly.CompileError(
      `handoff-graph: ${where} is not a WebAssembly module (${view.length} bytes starting "${start}"; ` +
        `a page served in its place?): ${hint !== '' ? `${hint}, or ` : ''}${howToPass(kind)}`,
    );
  }
  if (WORKERS) throw refused(where, 'Cloudflare Workers compile WebAssembly only from the modules a Worker imports', kind);
  try {
    return await WebAssembly.compile(/** @type {Uint8Array<ArrayBuffer>} */ (view));
  } catch (error) {
    // Refused outright (an embedder or a policy that compiles nothing from bytes): say what works here.
    if (refusesBytes() === null) throw error;
    throw Object.assign(refused(where, /** @type {Error} */ (error).message, kind), { cause: error });
  }
}

const refused = (/** @type {string} */ where, /** @type {string} */ why, /** @type {string} */ kind) => new WebAssembly.CompileError(`handoff-graph: could not compile ${where} (${why}): ${howToPass(kind)}`);

/**
 * Compiles a Response (a fetch's answer), streaming when it is served as application/wasm; names
 * its URL and status when it is not OK.
 * @param {Response} response
 * @param {string | URL} where
 * @param {{ isDefault: boolean, kind?: string, hint?: string }} how
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileResponse(response, where, { isDefault, kind = 'full', hint = '' }) {
  if (!response.ok) throw loadError(response.url || where, `HTTP ${response.status}`, { isDefault, kind, hint });
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response.clone());
    } catch (error) {
      // Streaming needs a response sent as application/wasm (a TypeError otherwise): look at the
      // bytes then. A CompileError is final, unless this runtime compiles nothing from bytes, which
      // compileBytes words.
      if (/** @type {Error | undefined} */ (error)?.name !== 'TypeError' && refusesBytes() === null) throw error;
    }
  }
  return compileBytes(await response.arrayBuffer(), response.url || String(where), hint, kind);
}

/**
 * What init({ wasm }) was given, compiled. Each kind is told by its internal slots or its tag,
 * never by `instanceof`, so a module, bytes, URL or Response made in another realm (an edge
 * runtime's host, an iframe, a vm context) is taken as it is.
 * @param {unknown} source
 * @param {Platform} platform
 * @param {boolean} isDefault
 * @returns {Promise<WebAssembly.Module>}
 */
async function toModule(source, platform, isDefault) {
  const kind = platform.kind ?? 'full';
  const tag = tagOf(source);
  if (tag === '[object WebAssembly.Module]') return /** @type {WebAssembly.Module} */ (source);
  if (ArrayBuffer.isView(source) || tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') {
    return compileBytes(/** @type {ArrayBufferLike | ArrayBufferView} */ (source), isDefault ? 'the embedded module' : 'init({ wasm }): the bytes', '', kind);
  }
  if (typeof source === 'string' || tag === '[object URL]') return platform.compileFrom(typeof source === 'string' ? source : new URL(/** @type {URL} */ (source).href), { isDefault, kind });
  if (tag === '[object Response]') return compileResponse(/** @type {Response} */ (source), 'init({ wasm }): the response', { isDefault, kind });
  throw new TypeError('init({ wasm }) takes a URL, a string, an ArrayBuffer, a Uint8Array, a Response or a WebAssembly.Module');
}

/** The raw exports js/ keeps references to (the per-decision calls, wasm/route_exports.cpp and step_exports.cpp). */
const HOT_EXPORTS = ['_hg_route', '_hg_evaluate', '_hg_exec_begin', '_hg_exec_complete', '_hg_exec_verdict', '_hg_exec_items', '_hg_exec_branches'];

/**
 * Instantiates a compiled module through its generated loader (`createModule`, the entry's
 * import of dist/handoff-graph.mjs or dist/handoff-graph-router.mjs). The loader is given the
 * compiled module (Debian's Emscripten 3.1.6 would fetch a file path in Node); load() then gives
 * it the state writer the core's lazy reads call (setSlotReader, wasm/library.js).
 * @param {unknown} createModule em++'s loader: `(settings) => Promise<module>`
 * @param {WebAssembly.Module} wasmModule
 * @returns {Promise<WasmModule>}
 */
export async function instantiate(createModule, wasmModule) {
  /** @type {(error: unknown) => void} */
  let failed;
  /** @type {Promise<never>} */
  const instantiationFailed = new Promise((_, reject) => {
    failed = reject;
  });
  const module = await Promise.race([
    /** @type {(settings: object) => Promise<WasmModule>} */ (createModule)({
      /**
       * @param {WebAssembly.Imports} imports
       * @param {(instance: WebAssembly.Instance, module: WebAssembly.Module) => void} receive
       */
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

/**
 * @param {Platform} platform
 * @param {InitOptions} options
 * @returns {Promise<Runtime>}
 */
async function load(platform, options) {
  const isDefault = options.wasm === undefined;
  // An entry's default may come from a dynamic import (js/deno.js).
  const wasmModule = await toModule(isDefault ? await platform.defaultWasm() : options.wasm, platform, isDefault);
  // The entry instantiates its module with its loader (so neither entry's bundle carries the
  // other's code).
  const module = await platform.instantiate(wasmModule);
  checkContract(module, platform.kind ?? 'full');
  const writer = new StateWriter({
    reserve: module._hg_transfer_reserve,
    memory: () => module.HEAPU8,
  });
  // A lazy route or evaluation asks the writer for a path's value when it first needs it.
  module.setSlotReader(writer);
  const result = {
    module,
    kind: platform.kind ?? 'full',
    route: module._hg_route,
    evaluate: module._hg_evaluate,
    heapUsed: module._hg_heap_used,
    writer,
  };
  // The full entries add what only the full module has (js/full-module.js, fullPlatform): on the
  // routing module the state machines' exports are absent (Runtime says why they are typed).
  return /** @type {Runtime} */ (platform.extend === undefined ? result : Object.assign(result, platform.extend(module)));
}

/**
 * Refuses a module built from another version of src/core/contract.h: its memory layouts may
 * differ from the ones js/contract.js describes, and reading them would give wrong answers.
 * @param {WasmModule} module
 * @param {string} [kind]
 * @returns {void}
 */
export function checkContract(module, kind = 'full') {
  const exported = typeof module._hg_contract_fingerprint === 'function' ? module._hg_contract_fingerprint() >>> 0 : undefined;
  if (exported === FINGERPRINT) return;
  const found = exported === undefined ? 'has no contract fingerprint' : `was built with contract ${exported.toString(16).padStart(8, '0')}`;
  throw new Error(
    `this WebAssembly module ${found}, but this handoff-graph JavaScript expects ${FINGERPRINT.toString(16).padStart(8, '0')}: ` +
      `the .wasm and the JavaScript come from different versions. Load the ${WASM_FILE[kind]} shipped with this package ` +
      '(init({ wasm }) with the file from the same install), or rebuild both (npm run build).',
  );
}

/**
 * Builds the `init` of a platform entry (node.js, browser.js, inline.js, router.js, router-node.js).
 * `platform`: `instantiate`, `defaultWasm`, `compileFrom`; `kind: 'router'` for the routing module;
 * the full entries add `extend(module)` (more runtime fields) and `afterRouter()` (js/full-module.js).
 * @param {Platform} platform
 * @returns {(options?: InitOptions) => Promise<void>}
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
    if (pending !== null && pendingKind === 'router' && kind !== 'router') return Promise.reject(/** @type {() => Error} */ (platform.afterRouter)());
    if (pending === null) {
      pendingKind = kind;
      pending = load(platform, options).then(
        (result) => {
          loaded = result;
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
