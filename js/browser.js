// The browser entry: no Node built-ins, the .wasm fetched beside the package (or passed in).
import createModule from '../dist/handoff-graph.mjs';
import { makeInit } from './runtime.js';

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
export { ConflictError } from './stores/errors.js';
export { MemoryStore } from './stores/memory.js';
export * from './errors.js';

async function compileFrom(location) {
  // Relative strings resolve against the page (or, in a worker, the worker script).
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  const response = fetch(location instanceof URL ? location : new URL(location, base));
  try {
    return await WebAssembly.compileStreaming(response.then((r) => r.clone()));
  } catch (error) {
    // Streaming needs the server to send application/wasm (a TypeError otherwise): fall back to
    // bytes then. A CompileError (a bad module, or a CSP without 'wasm-unsafe-eval') is final.
    if (!(error instanceof TypeError)) throw error;
    const r = await response;
    if (!r.ok) throw new Error(`could not load ${r.url}: HTTP ${r.status}`);
    return WebAssembly.compile(await r.arrayBuffer());
  }
}

/** Loads and instantiates the WebAssembly module once; later calls return the same promise. */
export const init = makeInit({
  createModule,
  defaultWasm: () => new URL('../dist/handoff-graph.wasm', import.meta.url),
  compileFrom,
});
