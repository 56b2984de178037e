// @ts-check
// handoff-graph/router, the routing entry (issue 21): conditions, HandoffGraph (route, explain,
// introspection, toJSON/fromJSON) and their errors, on the routing module
// (dist/handoff-graph-router.wasm), a fraction of the full module's size. This file is the browser
// and bundler entry (workers and edge runtimes too); js/router-node.js is Node's. The classes are
// the full entry's (js/api.js): the same objects, the same answers, on a smaller module.
import createHandoffGraphRouter from '../dist/handoff-graph-router.mjs';
import { compileFetched } from './fetch-wasm.js';
import { howToPass, instantiate, makeInit } from './runtime.js';

export * from './api.js';
export * from './errors.js';

/** The routing module beside this code (bundlers emit it and rewrite this URL). */
function defaultWasm() {
  if (!import.meta.url) throw new Error(`handoff-graph/router: cannot tell where its WebAssembly module is (no import.meta.url): ${howToPass('router')}`);
  return new URL('../dist/handoff-graph-router.wasm', import.meta.url);
}

/** Loads and instantiates the routing module once; later calls return the same promise. */
export const init = makeInit({ kind: 'router', instantiate: (wasmModule) => instantiate(createHandoffGraphRouter, wasmModule), defaultWasm, compileFrom: compileFetched });
