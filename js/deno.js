// @ts-check
// The Deno entry (the `deno` condition of package.json's exports). Deno implements Node's
// built-ins, so it takes the Node entry, js/node.js (trace log files, OpenTelemetry, require()
// sharing the runtime), with one difference: the .wasm comes from Deno's module graph (an
// `import source`, js/deno-wasm.js) instead of a file read, so a program needs no --allow-read
// for it. init({ wasm }) takes the same sources as in Node.
import createModule from '../dist/handoff-graph.mjs';
import { fullPlatform, instantiateFull } from './full-module.js';
import { compileFrom } from './node-wasm.js';
import { makeInit } from './runtime.js';

export * from './node.js';

/**
 * Loads and instantiates the WebAssembly module once; later calls return the same promise. Draws
 * no random value (the first graph, condition, machine or swarm draws the hash key), so a
 * Cloudflare Worker may await it at its top level.
 */
export const init = makeInit({ ...fullPlatform, instantiate: instantiateFull(createModule), defaultWasm, compileFrom });

/**
 * The .wasm from Deno's module graph, imported when init() first needs it; a Deno too old for
 * `import source` (the import fails to parse) reads the file beside the code, as Node does, which
 * needs --allow-read there (the error says so).
 */
async function defaultWasm() {
  try {
    return (await import('./deno-wasm.js')).default;
  } catch {
    return new URL('../dist/handoff-graph.wasm', import.meta.url);
  }
}
