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

// The shapes the routing subset takes and gives (js/types.d.ts; 'handoff-graph' exports them all).
/** @typedef {import('./types.js').CompiledWasmModule} CompiledWasmModule */
/** @typedef {import('./types.js').EdgeInfo} EdgeInfo */
/** @typedef {import('./types.js').EdgeOptions} EdgeOptions */
/** @typedef {import('./types.js').ExplainedEdge} ExplainedEdge */
/** @typedef {import('./types.js').Explanation} Explanation */
/** @typedef {import('./types.js').GraphDefinition} GraphDefinition */
/** @typedef {import('./types.js').HandoffGraphOptions} HandoffGraphOptions */
/** @typedef {import('./types.js').InitOptions} InitOptions */
/** @typedef {import('./types.js').NodeOptions} NodeOptions */
/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').WasmSource} WasmSource */

/** The routing module beside this code (bundlers emit it and rewrite this URL). */
function defaultWasm() {
  if (!import.meta.url) throw new Error(`handoff-graph/router: cannot tell where its WebAssembly module is (no import.meta.url): ${howToPass('router')}`);
  return new URL('../dist/handoff-graph-router.wasm', import.meta.url);
}

/**
 * Loads the routing module (dist/handoff-graph-router.wasm) once; later calls return the same
 * promise. After the full entry's init() it resolves with the full module, which serves both.
 */
export const init = makeInit({ kind: 'router', instantiate: (wasmModule) => instantiate(createHandoffGraphRouter, wasmModule), defaultWasm, compileFrom: compileFetched });
