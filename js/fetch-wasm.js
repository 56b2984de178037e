// Fetching the WebAssembly module where there is no file system: browsers, workers, edge runtimes
// (browser.js, and inline.js when it is given a location). Streams when the server sends
// application/wasm; otherwise reads the bytes, so that a wrong Content-Type still works and a page
// served in the module's place (a dev server's fallback) is named as such.
import { compileBytes, loadError } from './runtime.js';

// Vite's dev server pre-bundles dependencies into node_modules/.vite/deps/, away from their assets
// (a known Vite limitation), and answers for the missing .wasm with its index.html.
const VITE_DEV_HINT = "Vite's dev server moved handoff-graph's code away from its .wasm: add " +
  "optimizeDeps: { exclude: ['handoff-graph'] } to the Vite config";

/** Compiles the module at `location`; a relative string resolves against the page (or worker script). */
export async function compileFetched(location, { isDefault }) {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  let url;
  try {
    url = location instanceof URL ? location : new URL(location, base);
  } catch (error) {
    throw loadError(JSON.stringify(String(location)), 'not a URL, and no page to resolve it against', { isDefault, cause: error });
  }
  const hint = url.pathname.includes('/.vite/deps/') ? VITE_DEV_HINT : '';
  const response = fetch(url).catch((error) => {
    throw loadError(url, error.message, { isDefault, cause: error, hint });
  });
  try {
    return await WebAssembly.compileStreaming(response.then((r) => r.clone()));
  } catch (error) {
    // Streaming needs an OK response sent as application/wasm (a TypeError otherwise): look at the
    // bytes then. A CompileError (a bad module, or a CSP without 'wasm-unsafe-eval') is final.
    if (!(error instanceof TypeError)) throw error;
    const r = await response;
    if (!r.ok) throw loadError(r.url || url, `HTTP ${r.status}`, { isDefault, hint });
    return compileBytes(await r.arrayBuffer(), r.url || String(url), hint);
  }
}
