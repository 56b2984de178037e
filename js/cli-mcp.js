// @ts-check
// `handoff-graph mcp swarm.json [--store …] [--model …] [--http PORT] [--session ID]`: a swarm
// served over MCP (docs/mcp.md), on stdio (one connection, one swarm session) or Streamable HTTP
// on 127.0.0.1 (one swarm session per MCP session). On stdio, stdout is the protocol's: messages
// go to stderr.
import { parseArgs } from 'node:util';

export const MCP_USAGE = `Usage: handoff-graph mcp <swarm.json> [--store <spec>] [--model <spec>] [--mcp-config <file>] [--http <port>] [--session <id>]

Serves a swarm over MCP (docs/mcp.md). Without --model, the host's model is the agents: the tools
are the active agent's tools and the transfers allowed now. With --model, the swarm is one tool
that runs a whole turn.

  --store <spec>    memory (default), file:<dir>, redis://…
  --model <spec>    module:./model.mjs or <provider>:<model> (as for serve)
  --mcp-config <file>  connect the MCP servers the agents name (mcpServers), as for serve
  --http <port>     Streamable HTTP on 127.0.0.1:<port>/mcp (0: a free port) instead of stdio
  --host <host>     with --http, default 127.0.0.1
  --session <id>    on stdio, the swarm session to continue (or start) under that id
  -h, --help        this text

With --http and the environment variable HANDOFF_GRAPH_TOKEN set, every request must carry
'Authorization: Bearer <that value>'.`;

export class McpUsageError extends Error {}

/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { ModelFunction, SessionStore, Swarm } from './index.js' */

/**
 * Runs the command until its transport closes; `tools`: cli.js's loadModel, openStore, readDefinition.
 * @param {string[]} argv
 * @param {{
 *   loadModel: (spec: string) => Promise<ModelFunction>,
 *   openStore: (spec: string | undefined) => Promise<{ store: SessionStore, close: () => Promise<unknown> }>,
 *   readDefinition: (file: string, options: { mcpConfig?: string }) => Promise<{ swarm: Swarm, close(): Promise<void> }>,
 * }} tools
 * @returns {Promise<void>}
 */
export async function mcpCommand(argv, { loadModel, openStore, readDefinition }) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { store: { type: 'string' }, model: { type: 'string' }, 'mcp-config': { type: 'string' }, http: { type: 'string' }, host: { type: 'string' }, session: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new McpUsageError(/** @type {Error} */ (error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(MCP_USAGE);
    return;
  }
  if (positionals.length !== 1) throw new McpUsageError('mcp needs one swarm definition file: handoff-graph mcp swarm.json');
  if (values.http !== undefined && (!/^\d+$/.test(values.http) || Number(values.http) > 65535)) throw new McpUsageError(`--http must be a port from 0 to 65535, got '${values.http}'`);
  if (values.session !== undefined && values.http !== undefined) throw new McpUsageError('--session is for stdio; over HTTP each MCP session is a swarm session');
  if (values.session === '') throw new McpUsageError('--session needs an id');
  if (values['mcp-config'] === '') throw new McpUsageError('--mcp-config needs a file');
  let mcp;
  try {
    mcp = await import('./mcp/index.js');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ERR_MODULE_NOT_FOUND') throw new Error('mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk');
    throw error;
  }
  const model = values.model === undefined ? undefined : await loadModel(values.model);
  const { swarm, close: closeSwarm } = await readDefinition(positionals[0], { mcpConfig: values['mcp-config'] });
  const { store, close: closeStore } = await openStore(values.store).catch(async (error) => {
    await closeSwarm();
    throw error;
  });
  const options = { store, ...(model === undefined ? {} : { model }) };
  if (values.http === undefined) {
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = mcp.createMcpServer(swarm, { ...options, ...(values.session === undefined ? {} : { sessionId: values.session }) });
    const transport = new StdioServerTransport();
    const closed = new Promise((resolve) => {
      transport.onclose = () => resolve(undefined);
      process.stdin.once('end', () => resolve(undefined));
    });
    await server.connect(transport);
    console.error(`handoff-graph: serving swarm '${swarm.name}' over MCP on stdio`);
    await closed;
    await server.close().catch(() => {});
    await closeStore();
    await closeSwarm();
    return;
  }
  const { createServer } = await import('node:http');
  const { timingSafeEqual, createHash } = await import('node:crypto');
  const mcpHandler = mcp.createMcpHttpHandler(swarm, options);
  const token = process.env.HANDOFF_GRAPH_TOKEN;
  // As for serve: with HANDOFF_GRAPH_TOKEN set, every request carries 'Authorization: Bearer <it>'
  // (compared as hashes, in constant time).
  /** @type {(text: string) => Buffer} */
  const digest = (text) => createHash('sha256').update(text).digest();
  const expected = token ? digest(`Bearer ${token}`) : undefined;
  /** @type {((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { close(): Promise<void> }} */
  const handler = Object.assign(async (/** @type {IncomingMessage} */ req, /** @type {ServerResponse} */ res) => {
    if (expected !== undefined && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'this server needs Authorization: Bearer <token>' }, id: null }));
      return;
    }
    await mcpHandler(req, res);
  }, { close: () => mcpHandler.close() });
  const host = values.host ?? '127.0.0.1';
  const http = createServer((req, res) => void handler(req, res));
  await new Promise((resolve, reject) => http.once('error', reject).listen(Number(values.http), host, () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (http.address());
  console.log(`handoff-graph: serving swarm '${swarm.name}' over MCP at http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`);
  const stop = async () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await handler.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await closeStore();
    await closeSwarm();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
