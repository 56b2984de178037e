// @ts-check
// handoff-graph/inline: the whole package in one ES module with the WebAssembly module embedded,
// for serverless functions, edge workers and CDNs, where no second file can travel. init() needs
// no argument and fetches nothing (it still takes init({ wasm }) like the other entries).
// This file is the input of dist/inline.js, which scripts/build.sh makes with esbuild
// (--loader:.wasm=base64); it is not importable as it is.
import createModule from '../dist/handoff-graph.mjs';
import wasmBase64 from '../dist/handoff-graph.wasm';
import { installExportOf } from './export-slot.js';
import { exportOf } from './export.js';
import { fullPlatform, instantiateFull } from './full-module.js';
import { compileFetched } from './fetch-wasm.js';
import { makeInit } from './runtime.js';

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
export { check } from './check.js';
export { ConflictError } from './stores/errors.js';
export { MemoryStore } from './stores/memory.js';
export * from './errors.js';

// HandoffGraph's toDag/toMermaid/toDot render with js/export.js (js/export-slot.js says why here).
installExportOf(exportOf);

/** The embedded module's bytes, decoded when init() first needs them. */
function embeddedWasm() {
  // Uint8Array.fromBase64 (ES2026) is not in TypeScript 5.9's lib yet.
  const Bytes = /** @type {typeof Uint8Array & { fromBase64?: (text: string) => Uint8Array }} */ (Uint8Array);
  if (typeof Bytes.fromBase64 === 'function') return Bytes.fromBase64(wasmBase64);
  // Node (serverless functions): ~0.5 ms where the loop below takes ~15 ms cold.
  if (typeof globalThis.Buffer?.from === 'function') return globalThis.Buffer.from(wasmBase64, 'base64');
  const text = atob(wasmBase64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Loads and instantiates the WebAssembly module once; later calls return the same promise. Draws
 * no random value (the first graph, condition, machine or swarm draws the hash key), so a
 * Cloudflare Worker may await it at its top level.
 */
export const init = makeInit({ ...fullPlatform, instantiate: instantiateFull(createModule), defaultWasm: embeddedWasm, compileFrom: compileFetched });
