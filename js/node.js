// The Node.js entry (ESM; dist/index.cjs is this file bundled as CommonJS).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import createModule from '../dist/handoff-graph.mjs';
import { makeInit } from './runtime.js';

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
export { ConflictError } from './stores/errors.js';
export { MemoryStore } from './stores/memory.js';
export * from './errors.js';

async function compileFrom(location) {
  const url = location instanceof URL ? location : /^[a-z][a-z0-9+.-]*:/i.test(location) && !/^[a-z]:[\\/]/i.test(location) ? new URL(location) : null;
  if (url !== null && url.protocol !== 'file:') {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load ${url}: HTTP ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
  return WebAssembly.compile(await readFile(url ?? location));
}

/** Loads and instantiates the WebAssembly module once; later calls return the same promise. */
export const init = makeInit({
  createModule,
  defaultWasm: () => new URL('../dist/handoff-graph.wasm', import.meta.url),
  compileFrom,
});
