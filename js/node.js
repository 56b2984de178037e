// The Node.js entry. `import` loads this file; so does `require` where Node can require an ES
// module (js/require.cjs), so a process holds one runtime. dist/index.cjs is this file bundled
// as CommonJS, for the Nodes that cannot. Bundlers that target Node (esbuild --platform=node)
// take this file too, through the `module` condition of package.json's exports.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import createModule, { wasmLocation } from '../dist/handoff-graph.mjs';
import { compileBytes, HOW_TO_PASS, loadError, makeInit } from './runtime.js';

export * from './api.js';
export * from './machine.js';
export * from './swarm.js';
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
  throw new Error(`handoff-graph: cannot tell where its WebAssembly module is (no import.meta.url, no __filename): ${HOW_TO_PASS}`);
}

async function compileFrom(location, { isDefault }) {
  const url = location instanceof URL ? location : /^[a-z][a-z0-9+.-]*:/i.test(location) && !/^[a-z]:[\\/]/i.test(location) ? new URL(location) : null;
  if (url !== null && url.protocol !== 'file:') {
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      throw loadError(url, error.cause?.code ?? error.message, { isDefault, cause: error });
    }
    if (!response.ok) throw loadError(url, `HTTP ${response.status}`, { isDefault });
    return compileBytes(await response.arrayBuffer(), String(url));
  }
  const file = url === null ? path.resolve(location) : fileURLToPath(url);
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw loadError(file, error.code ?? error.message, { isDefault, cause: error });
  }
  return compileBytes(bytes, file);
}

/** Loads and instantiates the WebAssembly module once; later calls return the same promise. */
export const init = makeInit({ createModule, defaultWasm, compileFrom });
