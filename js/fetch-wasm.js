// @ts-check
// Fetching the WebAssembly module where there is no file system: browsers, workers, edge runtimes
// (browser.js, and inline.js when it is given a location). Streams when the server sends
// application/wasm; otherwise reads the bytes, so that a wrong Content-Type still works and a page
// served in the module's place (a dev server's fallback) is named as such.
import { compileResponse, loadError } from './runtime.js';

// Vite's dev server pre-bundles dependencies into node_modules/.vite/deps/, away from their assets
// (a known Vite limitation), and answers for the missing .wasm with its index.html.
const VITE_DEV_HINT = "Vite's dev server moved handoff-graph's code away from its .wasm: add " +
  "optimizeDeps: { exclude: ['handoff-graph'] } to the Vite config";

/**
 * Compiles the module at `location`; a relative string resolves against the page (or worker script).
 * @param {string | URL} location
 * @param {{ isDefault: boolean, kind: string }} how whether `location` is the default one, and which module
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileFetched(location, { isDefault, kind }) {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  let url;
  try {
    url = location instanceof URL ? location : new URL(location, base);
  } catch (error) {
    throw loadError(JSON.stringify(String(location)), 'not a URL, and no page to resolve it against', { isDefault, kind, cause: error });
  }
  const hint = url.pathname.includes('/.vite/deps/') ? VITE_DEV_HINT : '';
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw loadError(url, /** @type {Error} */ (error).message, { isDefault, kind, cause: error, hint });
  }
  return compileResponse(response, url, { isDefault, kind, hint });
}
