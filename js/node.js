// @ts-check
// The Node.js entry. `import` loads this file; so does `require` where Node can require an ES
// module (js/require.cjs), so a process holds one runtime. dist/index.cjs is this file bundled
// as CommonJS, for the Nodes that cannot. Bundlers that target Node (esbuild --platform=node)
// take this file too, through the `module` condition of package.json's exports.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import createModule, { wasmLocation } from '../dist/handoff-graph.mjs';
import { installExportOf } from './export-slot.js';
import { exportOf } from './export.js';
import { fullPlatform, instantiateFull } from './full-module.js';
import { compileFrom } from './node-wasm.js';
import { howToPass, makeInit } from './runtime.js';
import { openTraceLog } from './trace-log.js';
import { configureTracingHost } from './tracing.js';

// HandoffGraph's toDag/toMermaid/toDot render with js/export.js (js/export-slot.js says why here).
installExportOf(exportOf);

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
export { check } from './check.js';
export { ConflictError } from './stores/errors.js';
export { MemoryStore } from './stores/memory.js';
export * from './errors.js';

/** The .wasm beside this code: beside dist/handoff-graph.mjs unbundled, beside the bundle bundled. */
function defaultWasm() {
  const url = wasmLocation();
  if (url !== null) return url;
  // A CommonJS bundle (dist/index.cjs, or an application's esbuild --format=cjs): import.meta is
  // empty there, and __filename names the bundle.
  if (typeof __filename === 'string') return pathToFileURL(path.join(path.dirname(__filename), 'handoff-graph.wasm'));
  throw new Error(`handoff-graph: cannot tell where its WebAssembly module is (no import.meta.url, no __filename): ${howToPass()}`);
}

// Spans go through the application's @opentelemetry/api when it has one (an optional peer
// dependency: a failed import means no spans), looked for once per process, as a namespace or as
// CommonJS interop's default export; the trace log writes files (js/trace-log.js). The catch at
// the import itself and webpackIgnore keep bundlers from failing on a package the application
// does not have (esbuild leaves an import() with a .catch() to run time).
let openTelemetry = null;
function loadOpenTelemetry() {
  openTelemetry ??= import(/* webpackIgnore: true */ '@opentelemetry/api').catch(() => null).then((module) => {
    if (typeof module?.trace?.getTracer === 'function') return module;
    return typeof module?.default?.trace?.getTracer === 'function' ? module.default : null;
  });
  return openTelemetry;
}
configureTracingHost({ loadOpenTelemetry, openTraceLog });

/**
 * Loads and instantiates the WebAssembly module once; later calls return the same promise. Draws
 * no random value (the first graph, condition, machine or swarm draws the hash key), so a
 * Cloudflare Worker may await it at its top level.
 */
export const init = makeInit({ ...fullPlatform, instantiate: instantiateFull(createModule), defaultWasm, compileFrom });
