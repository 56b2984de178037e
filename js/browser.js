// @ts-check
// The browser entry (also workers, edge runtimes, and every bundler through the `browser` and
// `default` conditions of package.json's exports): no Node built-ins; the .wasm is fetched from
// beside the glue, which bundlers rewrite to the emitted asset, or passed to init().
import createModule, { wasmLocation } from '../dist/handoff-graph.mjs';
import { installExportOf } from './export-slot.js';
import { exportOf } from './export.js';
import { fullPlatform, instantiateFull } from './full-module.js';
import { compileFetched } from './fetch-wasm.js';
import { howToPass, makeInit } from './runtime.js';

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
export { check } from './check.js';
export { ConflictError } from './stores/errors.js';
export { MemoryStore } from './stores/memory.js';
export * from './errors.js';

// HandoffGraph's toDag/toMermaid/toDot render with js/export.js (js/export-slot.js says why here).
installExportOf(exportOf);

function defaultWasm() {
  const url = wasmLocation();
  if (url === null) throw new Error(`handoff-graph: cannot tell where its WebAssembly module is (no import.meta.url): ${howToPass()}`);
  return url;
}

/**
 * Loads and instantiates the WebAssembly module once; later calls return the same promise. Draws
 * no random value (the first graph, condition, machine or swarm draws the hash key), so a
 * Cloudflare Worker may await it at its top level.
 */
export const init = makeInit({ ...fullPlatform, instantiate: instantiateFull(createModule), defaultWasm, compileFrom: compileFetched });
