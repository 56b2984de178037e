// @ts-check
// handoff-graph/router in Node (js/router.js is the browser and bundler entry): the same classes on
// the routing module, read from disk.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import createHandoffGraphRouter from '../dist/handoff-graph-router.mjs';
import { compileFrom } from './node-wasm.js';
import { howToPass, instantiate, makeInit } from './runtime.js';

export * from './api.js';
export * from './errors.js';

/** The routing module beside this code: in dist/ unbundled, beside the bundle bundled. */
function defaultWasm() {
  if (import.meta.url) {
    // Unbundled this file is js/router-node.js; in an ES module bundle (esbuild --platform=node)
    // import.meta.url names the bundle, and the .wasm goes beside it, as the full entry's does.
    const unbundled = import.meta.url.endsWith('/js/router-node.js');
    return new URL(unbundled ? '../dist/handoff-graph-router.wasm' : 'handoff-graph-router.wasm', import.meta.url);
  }
  if (typeof __filename === 'string') return pathToFileURL(path.join(path.dirname(__filename), 'handoff-graph-router.wasm'));
  throw new Error(`handoff-graph/router: cannot tell where its WebAssembly module is (no import.meta.url, no __filename): ${howToPass('router')}`);
}

/**
 * Loads the routing module (dist/handoff-graph-router.wasm) once; later calls return the same
 * promise. After the full entry's init() it resolves with the full module, which serves both.
 */
export const init = makeInit({ kind: 'router', instantiate: (wasmModule) => instantiate(createHandoffGraphRouter, wasmModule), defaultWasm, compileFrom });
