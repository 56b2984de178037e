// @ts-check
// serve(): a Fetch-API handler (createHandler's, or any (Request) => Response function) on node:http.
// Each IncomingMessage becomes a Request whose body streams from the socket, and each Response
// body is written as it is produced (server-sent events reach the client event by event). When
// the client goes away, the Request's signal aborts and the Response body is cancelled.
import http from 'node:http';

import { checkOptions } from '../options.js';

/** @import { IncomingMessage, ServerResponse } from 'node:http' */

const SERVE_OPTIONS = ['host', 'port'];

/**
 * @typedef {object} ServeOptions
 * @property {string} [host] Default '127.0.0.1'.
 * @property {number} [port] Default 8787; 0 picks a free port.
 */

/**
 * @typedef {object} RunningServer
 * @property {string} url Where it listens, e.g. 'http://127.0.0.1:8787/'.
 * @property {string} host
 * @property {number} port
 * @property {{ closeAllConnections(): void, address(): unknown, [key: string]: unknown }} server
 *   The node:http Server (typed loosely here, so that these typings need no Node.js type declarations).
 * @property {() => Promise<void>} close Stops taking connections, closes idle ones; resolves when
 *   the requests under way have ended.
 */

// A web stream over the request body. Cancelling it (a handler that stops reading at its body
// limit) discards the rest instead of destroying the socket, so the answer still reaches the client.
/**
 * @param {IncomingMessage} req
 * @returns {ReadableStream<Uint8Array>}
 */
function bodyStream(req) {
  let cancelled = false;
  return new ReadableStream(
    {
      start(controller) {
        req.on('data', (/** @type {Buffer} */ chunk) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (/** @type {number} a readable stream's size is a number */ (controller.desiredSize) <= 0) req.pause();
        });
        req.on('end', () => cancelled || controller.close());
        req.on('error', (error) => cancelled || controller.error(error));
        req.on('aborted', () => cancelled || controller.error(new Error('the client aborted the request')));
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (/** @type {Uint8Array} */ chunk) => chunk.byteLength },
  );
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} code
 * @param {string} message
 */
function plainError(res, status, code, message) {
  if (res.headersSent) return res.destroy();
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify({ error: { code, message } }));
}

/**
 * @param {(request: Request) => Response | Promise<Response>} handler
 * @param {string} origin
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 */
async function respond(handler, origin, req, res) {
  const closed = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) closed.abort(new Error('the client closed the connection'));
  });
  let request;
  try {
    // The path as sent; the origin is the server's own (a Host header says nothing trustworthy).
    // (A server's IncomingMessage has a url; undefined throws here, as a bad request line.)
    if (!(/** @type {string} */ (req.url)).startsWith('/')) throw new Error('not origin-form');
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // `duplex` (required for a streamed body) is not in TypeScript's RequestInit yet.
    /** @type {RequestInit & { duplex: 'half' }} */
    const init = {
      method: req.method,
      headers,
      body: hasBody ? bodyStream(req) : undefined,
      duplex: 'half',
      signal: closed.signal,
    };
    request = new Request(`${origin}${req.url}`, init);
  } catch {
    return plainError(res, 400, 'invalid_request', 'the request line or headers cannot be read');
  }
  let response;
  try {
    response = await handler(request);
    if (!(response instanceof Response)) throw new TypeError(`the handler returned ${typeof response}, not a Response`);
  } catch (error) {
    console.error('handoff-graph/server:', error);
    return plainError(res, 500, 'internal', 'the server failed to answer this request');
  }
  /** @type {Record<string, string | string[]>} */
  const headers = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (response.body === null || req.method === 'HEAD') {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => reader.cancel(closed.signal.reason).catch(() => {});
  if (closed.signal.aborted) return cancel();
  closed.signal.addEventListener('abort', cancel, { once: true });
  // Chunks that come in the same tick (a turn's events between two model calls) go out in one
  // write: corked here, uncorked once the pending promise callbacks have run.
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(value)) {
        await new Promise((/** @type {(value?: undefined) => void} */ resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
      if (res.destroyed) return;
    }
    res.end();
  } catch (error) {
    if (!closed.signal.aborted) console.error('handoff-graph/server: the response body failed:', error);
    res.destroy();
  } finally {
    closed.signal.removeEventListener('abort', cancel);
  }
}

/**
 * Runs a Fetch-API handler (createHandler's, or any) on node:http; resolves once it listens.
 * @param {(request: Request) => Response | Promise<Response>} handler
 * @param {ServeOptions} [options]
 * @returns {Promise<RunningServer>}
 */
export async function serve(handler, options) {
  if (typeof handler !== 'function') throw new TypeError('serve(handler): handler must be a function (request) => Response, such as createHandler(...)');
  const { host = '127.0.0.1', port = 8787 } = checkOptions(options, SERVE_OPTIONS, 'serve options');
  if (typeof host !== 'string' || host.length === 0) throw new TypeError('serve options: host must be a non-empty string');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`serve options: port must be an integer from 0 to 65535, got ${port}`);
  const server = http.createServer();
  await new Promise((/** @type {(value?: undefined) => void} */ resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Listening on a TCP port, the address is an AddressInfo (a string only for pipes and sockets).
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${shown}:${address.port}`;
  server.on('request', (req, res) => {
    respond(handler, origin, req, res).catch((error) => {
      console.error('handoff-graph/server:', error);
      res.destroy();
    });
  });
  /** @type {Promise<void> | undefined} */
  let closing;
  return {
    url: `${origin}/`,
    host: address.address,
    port: address.port,
    server: /** @type {RunningServer['server']} a node:http Server, typed loosely */ (/** @type {unknown} */ (server)),
    close() {
      closing ??= new Promise((/** @type {(value?: undefined) => void} */ resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
