// @ts-check
// handoff-graph/router in Deno (the `deno` condition): js/router-node.js with the routing module
// from Deno's module graph (js/deno-router-wasm.js), so a program needs no --allow-read for it.
import createHandoffGraphRouter from '../dist/handoff-graph-router.mjs';
import { compileFrom } from './node-wasm.js';
import { instantiate, makeInit } from './runtime.js';

export * from './router-node.js';

/** Loads and instantiates the routing module once; later calls return the same promise. */
export const init = makeInit({ kind: 'router', instantiate: (module) => instantiate(createHandoffGraphRouter, module), defaultWasm, compileFrom });

/** The routing module from Deno's module graph, as js/deno.js imports the full one. */
async function defaultWasm() {
  try {
    return (await import('./deno-router-wasm.js')).default;
  } catch {
    return new URL('../dist/handoff-graph-router.wasm', import.meta.url);
  }
}
