// handoff-graph/router in Deno (the `deno` condition): js/router-node.js with the routing module
// from Deno's module graph (js/deno-router-wasm.js), so a program needs no --allow-read for it.
import createHandoffGraphRouter from '../dist/handoff-graph-router.mjs';
import wasmModule from './deno-router-wasm.js';
import { compileFrom } from './node-wasm.js';
import { instantiate, makeInit } from './runtime.js';

export * from './router-node.js';

/** Loads and instantiates the routing module once; later calls return the same promise. */
export const init = makeInit({ kind: 'router', instantiate: (module) => instantiate(createHandoffGraphRouter, module), defaultWasm: () => wasmModule, compileFrom });
