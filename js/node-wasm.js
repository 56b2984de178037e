// @ts-check
// Reading a WebAssembly module in Node (js/node.js and js/router-node.js): a path or file: URL is
// read from disk, any other URL fetched; the errors say where it looked and how to pass the module.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compileBytes, compileResponse, loadError } from './runtime.js';

/**
 * Compiles the module at `location` (a path, or a file:, http: or https: URL).
 * @param {string | URL} location
 * @param {{ isDefault: boolean, kind: string }} how whether `location` is the default one, and which module
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileFrom(location, { isDefault, kind }) {
  const url = location instanceof URL ? location : /^[a-z][a-z0-9+.-]*:/i.test(location) && !/^[a-z]:[\\/]/i.test(location) ? new URL(location) : null;
  if (url !== null && url.protocol !== 'file:') {
    let response;
    try {
      response = await fetch(url);
    } catch (error) {
      const failed = /** @type {Error & { cause?: { code?: string } }} */ (error);
      throw loadError(url, failed.cause?.code ?? failed.message, { isDefault, kind, cause: error });
    }
    return compileResponse(response, url, { isDefault, kind });
  }
  const file = url === null ? path.resolve(/** @type {string} a URL made `url` */ (location)) : fileURLToPath(url);
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const failed = /** @type {NodeJS.ErrnoException} */ (error);
    throw loadError(file, failed.code ?? failed.message, { isDefault, kind, cause: error });
  }
  return compileBytes(bytes, file, '', kind);
}
