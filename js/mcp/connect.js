// @ts-check
// connectMcpServers (docs/mcp.md#connecting-servers-from-a-config-file): the MCP servers of a
// configuration in the shape MCP hosts share (Claude Desktop's `mcpServers`, Claude Code's and
// Cursor's `.mcp.json`), connected with the SDK's Client over stdio or Streamable HTTP, for a
// Swarm's `mcp` option. The `serve` and `mcp` commands read one with `--mcp-config FILE`.
import { checkOptions } from '../options.js';
import { describe } from '../text.js';
import { isRecord, put } from '../values.js';

/**
 * @import { Client } from '@modelcontextprotocol/sdk/client/index.js'
 */

/**
 * One server of an MCP configuration: a command to spawn (stdio), or a Streamable HTTP endpoint.
 * @typedef {{ type?: 'stdio', command: string, args?: string[], env?: Record<string, string>, cwd?: string }
 *   | { type?: 'http' | 'streamable-http', url: string, headers?: Record<string, string> }} McpServerConfig
 */

/**
 * A configuration in the shape MCP hosts share (Claude Desktop, `.mcp.json`).
 * @typedef {{ mcpServers: Record<string, McpServerConfig> }} McpConfig
 */

/**
 * The connected clients by server name, and `close()`, which closes them all (and ends the
 * servers spawned for stdio).
 * @typedef {{ clients: Record<string, Client>, close(): Promise<void> }} McpConnections
 */

const STDIO_KEYS = ['type', 'command', 'args', 'env', 'cwd'];
const HTTP_KEYS = ['type', 'url', 'headers'];

/**
 * `value` when it is an object of strings; else a TypeError at `where`.
 * @param {unknown} value
 * @param {string} where
 * @returns {Record<string, string>}
 */
function strings(value, where) {
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new TypeError(`${where}: expected an object of strings, got ${describe(value)}`);
  return /** @type {Record<string, string>} checked above */ (value);
}

/**
 * Checks one server's entry; throws a TypeError naming the entry.
 * @param {string} name
 * @param {unknown} entry
 * @returns {McpServerConfig}
 */
function checkServer(name, entry) {
  const where = `mcpServers.${name}`;
  if (!isRecord(entry)) throw new TypeError(`${where}: expected a server ({ command, args?, env?, cwd? } or { url, headers? }), got ${describe(entry)}`);
  const { type } = entry;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http') {
    throw new TypeError(`${where}.type: expected 'stdio' or 'http' (Streamable HTTP), got ${describe(type)}${type === 'sse' ? ': the SSE transport is deprecated in MCP; serve Streamable HTTP' : ''}`);
  }
  const http = type === 'http' || type === 'streamable-http' || (type === undefined && entry.url !== undefined);
  checkOptions(entry, http ? HTTP_KEYS : STDIO_KEYS, where);
  if (http) {
    if (typeof entry.url !== 'string' || !URL.canParse(entry.url) || !/^https?:$/.test(new URL(entry.url).protocol)) throw new TypeError(`${where}.url: expected an http(s) URL, got ${describe(entry.url)}`);
    const headers = entry.headers === undefined ? undefined : strings(entry.headers, `${where}.headers`);
    return { url: entry.url, ...(headers === undefined ? {} : { headers }) };
  }
  if (typeof entry.command !== 'string' || entry.command === '') throw new TypeError(`${where}.command: expected the command that starts the server, got ${describe(entry.command)}`);
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))) throw new TypeError(`${where}.args: expected an array of strings, got ${describe(entry.args)}`);
  const env = entry.env === undefined ? undefined : strings(entry.env, `${where}.env`);
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') throw new TypeError(`${where}.cwd: expected a directory, got ${describe(entry.cwd)}`);
  const cwd = /** @type {string | undefined} checked above */ (entry.cwd);
  return {
    command: entry.command,
    ...(entry.args === undefined ? {} : { args: /** @type {string[]} checked above */ (entry.args) }),
    ...(env === undefined ? {} : { env }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

/**
 * Checks a configuration: `{ mcpServers: { name: server } }`; throws a TypeError naming what is wrong.
 * @param {unknown} config
 * @returns {Array<[string, McpServerConfig]>}
 */
export function checkMcpConfig(config) {
  if (!isRecord(config)) throw new TypeError(`an MCP configuration is an object { mcpServers: { name: server } }, got ${describe(config)}`);
  checkOptions(config, ['mcpServers'], 'the MCP configuration');
  const { mcpServers } = config;
  if (!isRecord(mcpServers)) throw new TypeError(`mcpServers: expected an object of servers by name, got ${describe(mcpServers)}`);
  return Object.entries(mcpServers).map(([name, entry]) => [name, checkServer(name, entry)]);
}

/**
 * Connects every server of `config` (checked first: a mistake is a TypeError that names it), at
 * once. A server that cannot be connected rejects the whole call with an Error naming it, after
 * closing those that were. A stdio server's environment is the SDK's default one (PATH, HOME, …)
 * with `env` over it.
 * @param {McpConfig} config `{ mcpServers: { name: { command, args?, env?, cwd? } | { url, headers? } } }`
 * @param {{ name?: string, version?: string }} [client] this client's name and version in the MCP handshake
 * @returns {Promise<McpConnections>}
 */
export async function connectMcpServers(config, client) {
  const servers = checkMcpConfig(config);
  const { name = 'handoff-graph', version = '1.0.0' } = checkOptions(client, ['name', 'version'], 'connectMcpServers options');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  /** @type {Record<string, Client>} */
  const clients = {};
  const connected = await Promise.allSettled(
    servers.map(async ([server, entry]) => {
      const transport = 'url' in entry
        ? new StreamableHTTPClientTransport(new URL(entry.url), entry.headers === undefined ? undefined : { requestInit: { headers: entry.headers } })
        : new StdioClientTransport({ command: entry.command, args: entry.args ?? [], env: { ...getDefaultEnvironment(), ...entry.env }, ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }), stderr: 'inherit' });
      const sdkClient = new Client({ name, version });
      try {
        await sdkClient.connect(transport);
      } catch (error) {
        await sdkClient.close().catch(() => {});
        const what = 'url' in entry ? entry.url : [entry.command, ...(entry.args ?? [])].join(' ');
        throw new Error(`cannot connect MCP server '${server}' (${what}): ${/** @type {Error} */ (error).message}`, { cause: error });
      }
      return sdkClient;
    }),
  );
  const open = connected.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
  const close = async () => {
    await Promise.all(open.map((c) => c.close().catch(() => {})));
  };
  const failed = connected.find((c) => c.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  // In the configuration's order; a server named __proto__ is a name like any other.
  for (const [i, [server]] of servers.entries()) put(clients, server, /** @type {PromiseFulfilledResult<Client>} */ (connected[i]).value);
  return { clients, close };
}
