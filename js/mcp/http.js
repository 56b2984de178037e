// @ts-check
// A swarm over MCP's Streamable HTTP transport (docs/mcp.md): one createMcpServer per MCP session,
// whose session id is the swarm session's id. A request that carries the id of a session the
// store holds but this process does not know (a client reconnecting after the server restarted)
// continues that session.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

import { checkOptions } from '../options.js';
import { MemoryStore } from '../stores/memory.js';
import { describe } from '../text.js';
import { isRecord } from '../values.js';
import { createMcpServer } from './server.js';

/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { Swarm } from '../index.js' */
/** @import { McpServerOptions } from './server.js' */

const MAX_BODY_BYTES = 1 << 20;

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {number} code
 * @param {string} message
 */
function jsonRpcError(res, status, code, message) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * @param {IncomingMessage} req
 * @returns {Promise<unknown>}
 */
async function readBody(req) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A node:http request handler serving `swarm` over MCP at `path` (default '/mcp'); `options` are
 * createMcpServer's (without sessionId). `close()` closes every MCP session's server.
 * (One swarm session per MCP session.)
 * @param {Swarm} swarm
 * @param {Omit<McpServerOptions, 'sessionId'>} [options]
 * @param {{ path?: string }} [where]
 * @returns {((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { close(): Promise<void> }}
 */
export function createMcpHttpHandler(swarm, options = {}, where = {}) {
  const { path = '/mcp' } = checkOptions(where, ['path'], 'createMcpHttpHandler where');
  if (typeof path !== 'string' || !path.startsWith('/')) throw new TypeError(`createMcpHttpHandler: path must start with '/', got ${describe(path)}`);
  if (isRecord(options) && Object.hasOwn(options, 'sessionId')) throw new TypeError('createMcpHttpHandler options: sessionId is each MCP session\'s own');
  const store = options?.store ?? new MemoryStore();
  // The options checked now, not at the first session.
  void createMcpServer(swarm, { ...options, store });
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();  // MCP session id -> transport
  /** @type {(req: IncomingMessage, res: ServerResponse) => Promise<void>} */
  const handler = async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== path) return jsonRpcError(res, 404, -32601, `not found: MCP is served at ${path}`);
      const id = req.headers['mcp-session-id'];
      let body;
      if (req.method === 'POST') {
        try {
          body = await readBody(req);
        } catch (error) {
          return jsonRpcError(res, error instanceof RangeError ? 413 : 400, -32700, `Parse error: ${/** @type {Error} */ (error).message}`);
        }
      }
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (known !== undefined) return await known.handleRequest(req, res, body);
      const initialize = req.method === 'POST' && isInitializeRequest(body);
      if (!initialize && typeof id === 'string' && id.length > 0 && (await store.get(id)) !== undefined) {
        // A client that reconnects to a session this process has not seen (the server restarted):
        // the request is served statelessly, on the session the store holds.
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = createMcpServer(swarm, { ...options, store, sessionId: id });
        res.on('close', () => void server.close().catch(() => {}));
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      if (!initialize) {
        return jsonRpcError(res, typeof id === 'string' ? 404 : 400, -32000, typeof id === 'string' ? `no MCP session '${id}': initialize again (with that id to continue the swarm session)` : 'Bad Request: initialize first');
      }
      // A reconnecting client keeps its session when the store holds it; any other id is replaced.
      const resumed = typeof id === 'string' && id.length > 0 && (await store.get(id)) !== undefined;
      const sessionId = resumed ? id : globalThis.crypto.randomUUID();
      /** @type {StreamableHTTPServerTransport} */
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        onsessioninitialized: (sid) => {
          sessions.set(sid, transport);
        },
      });
      transport.onclose = () => sessions.delete(sessionId);
      const server = createMcpServer(swarm, { ...options, store, sessionId });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${/** @type {Error} */ (error).message}`);
      else res.end();
    }
  };
  return Object.assign(handler, {
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      sessions.clear();
    },
  });
}
