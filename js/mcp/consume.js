// @ts-check
// Agents that use tools of MCP servers (docs/mcp.md): the Swarm's `mcp` option, connected clients
// of the official SDK (`@modelcontextprotocol/sdk`'s Client, or anything with its listTools and
// callTool) by server name. This file imports nothing of the SDK: it only calls the clients given.
//
// What an agent is offered, under which name, whether a call needs approval and which server runs
// it are the core's decisions (src/handoff/policy.h, mcp_tools): this file keeps each server's
// last listing, reads it again after notifications/tools/list_changed, and runs tools/call.
import { rootProblem } from '../options.js';
import { describe } from '../text.js';
import { isRecord, messageOf } from '../values.js';

/** @import { DefinitionProblem, HandoffOutcome, McpClientLike, SwarmDefinition } from '../index.js' */

// What a server answers (tools/list, tools/call) is its JSON, read here field by field with `?.`
// and checked where it matters: `any` is the honest type of such a value in this file.

/** A listed tool as the core reads it. @typedef {{ name: unknown, description?: string, inputSchema?: Record<string, unknown> }} ListedTool */

const LIST_CHANGED = 'notifications/tools/list_changed';

/**
 * The `mcp` option checked: a Map of clients by server name.
 * @param {unknown} given
 * @returns {Map<string, McpClientLike>}
 */
export function checkMcpClients(given) {
  if (given === undefined) return new Map();
  if (!isRecord(given)) throw new TypeError(`Swarm options.mcp must be an object of connected MCP clients by server name, got ${describe(given)}`);
  /** @type {Map<string, McpClientLike>} */
  const out = new Map();
  for (const [name, value] of Object.entries(given)) {
    const client = /** @type {any} a caller's value, checked here */ (value);
    if (typeof client?.listTools !== 'function' || typeof client?.callTool !== 'function') {
      throw new TypeError(`Swarm options.mcp.${name} must be a connected MCP Client (from @modelcontextprotocol/sdk/client/index.js), got ${describe(client)}`);
    }
    out.set(name, client);
  }
  return out;
}

/**
 * Definition problems: a client no agent names. (A server an agent names without a client is not
 * one: the definition loads, for check() and the commands, and the agent is offered none of its
 * tools, each model call reporting it as mcp_unavailable.)
 * @param {SwarmDefinition} definition
 * @param {Map<string, McpClientLike>} clients
 * @returns {DefinitionProblem[]}
 */
export function mcpProblems(definition, clients) {
  /** @type {DefinitionProblem[]} */
  const problems = [];
  const named = new Set(definition.agents.flatMap((agent) => (agent.mcpServers ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.server))));
  for (const server of clients.keys()) {
    if (!named.has(server)) problems.push(rootProblem(`options.mcp.${server}: no agent of the definition names MCP server '${server}' in its mcpServers`));
  }
  return problems;
}

/**
 * The text a model gets of a tools/call result: its text parts (other content described in a
 * line), then its structured content as JSON text unless a text part holds it already.
 * @param {any} result a tools/call result
 * @returns {string}
 */
export function resultText(result) {
  /** @type {string[]} */
  const parts = [];
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const item of content) {
    if (item?.type === 'text' && typeof item.text === 'string') parts.push(item.text);
    else if (item?.type === 'resource' && typeof item.resource?.text === 'string') parts.push(item.resource.text);
    else if (item?.type === 'resource_link' || item?.type === 'resource') parts.push(`[resource: ${item.uri ?? item.resource?.uri ?? 'unknown'}]`);
    else if (item?.type === 'image' || item?.type === 'audio') parts.push(`[${item.type}: ${item.mimeType ?? 'unknown type'}]`);
  }
  const structured = result?.structuredContent ?? (content.length === 0 && result?.toolResult !== undefined ? result.toolResult : undefined);
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    if (!parts.some((p) => p === json || sameJSON(p, structured))) parts.push(json);
  }
  return parts.join('\n');
}

/**
 * @param {string} text
 * @param {unknown} value
 */
function sameJSON(text, value) {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

// A listed tool as the core reads it: its name, description and input schema, nothing else.
/** @type {(tool: any) => ListedTool} */
const listedTool = (tool) => ({
  name: tool?.name,
  ...(typeof tool?.description === 'string' ? { description: tool.description } : {}),
  ...(isRecord(tool?.inputSchema) ? { inputSchema: tool.inputSchema } : {}),
});

// At most this many pages of tools/list per server (a server that pages forever is cut off).
const MAX_PAGES = 100;
// A listed tool's input schema nested deeper than this makes the listing fail: the core reads
// schemas recursively, and no real schema comes near it.
export const MAX_SCHEMA_DEPTH = 256;

// How deep `value` nests (arrays and objects), counted without recursion; stops past `limit`.
/**
 * @param {unknown} value
 * @param {number} limit
 * @returns {number}
 */
function depthOf(value, limit) {
  let deepest = 0;
  /** @type {Array<[unknown, number]>} */
  const stack = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = /** @type {[unknown, number]} the loop runs while there is one */ (stack.pop());
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

// Per client, the listings that its list_changed notifications make stale: { ref: WeakRef of
// an McpTools, server: its name for the client }. One handler per client, however many Swarms
// share it; a Swarm that is disposed or collected drops out.
/** @typedef {Set<{ ref: WeakRef<McpTools>, server: string }>} Watchers a client's listings to mark stale */

/** @type {WeakMap<McpClientLike, Watchers>} */
const watchers = new WeakMap();

/**
 * @param {McpClientLike} client
 * @param {McpTools} tools
 * @param {string} server
 * @returns {() => boolean}
 */
function watch(client, tools, server) {
  let entries = watchers.get(client);
  if (entries === undefined) {
    entries = new Set();
    watchers.set(client, entries);
    // The SDK gives a notification without a handler of its own to fallbackNotificationHandler;
    // one set before is still called.
    const before = client.fallbackNotificationHandler;
    client.fallbackNotificationHandler = async (notification) => {
      if (notification?.method === LIST_CHANGED) {
        for (const entry of /** @type {Watchers} set before this handler */ (entries)) {
          const watcher = entry.ref.deref();
          if (watcher === undefined) /** @type {Watchers} */ (entries).delete(entry);
          else watcher.changed(entry.server);
        }
      }
      if (typeof before === 'function') await before(notification);
    };
  }
  const entry = { ref: new WeakRef(tools), server };
  entries.add(entry);
  return () => entries.delete(entry);
}

// `promise`, or the reason `signal` aborts with, whichever comes first.
/**
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<T>}
 */
function abortable(promise, signal) {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** The MCP clients of one Swarm, their last listings, and their calls. */
export class McpTools {
  /** @type {Map<string, McpClientLike>} */
  #clients;
  /** @type {Map<string, ListedTool[]>} */
  #lists = new Map();  // server -> listed tools (the last listing that succeeded)
  /** @type {Set<string>} */
  #stale = new Set();  // servers to list again before their tools are offered
  /** @type {Map<string, Promise<ListedTool[]>>} */
  #listing = new Map();  // server -> the listing under way
  /** @type {Array<() => boolean>} */
  #unwatch = [];

  /** @param {Map<string, McpClientLike>} clients */
  constructor(clients) {
    this.#clients = clients;
    for (const [server, client] of clients) {
      this.#stale.add(server);
      // Kept current: a list_changed notification marks the server's list stale.
      this.#unwatch.push(watch(client, this, server));
    }
  }

  /** @type {Set<(server: string) => void>} */
  #listeners = new Set();

  /**
   * A list_changed notification of `server`: its list is read again before its tools are offered.
   * @param {string} server
   */
  changed(server) {
    this.#stale.add(server);
    for (const listener of this.#listeners) listener(server);
  }

  /**
   * Calls `listener(server)` on each list_changed; returns what stops it.
   * @param {(server: string) => void} listener
   * @returns {() => boolean}
   */
  watch(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops watching the clients (the Swarm is disposed). */
  close() {
    for (const unwatch of this.#unwatch.splice(0)) unwatch();
    this.#listeners.clear();
  }

  /**
   * The listings of `servers` the core reads: { server: [tools] }, as JSON text ('' for none).
   * @param {Iterable<string>} servers
   * @returns {string}
   */
  listed(servers) {
    /** @type {Record<string, ListedTool[]>} */
    const out = {};
    for (const server of servers) {
      const list = this.#lists.get(server);
      if (list !== undefined) out[server] = list;
    }
    return Object.keys(out).length === 0 ? '' : JSON.stringify(out);
  }

  /**
   * Lists `servers` again where stale: resolves [{ server, message }] of those that failed (none of their tools are offered until a listing succeeds).
   * @param {string[]} servers
   * @param {AbortSignal} [signal]
   * @returns {Promise<Array<{ server: string, message: string }>>}
   */
  async refresh(servers, signal) {
    const failures = servers.filter((s) => !this.#clients.has(s)).map((server) => ({
      server,
      message: `no MCP client '${server}' was given: new Swarm(definition, { mcp: { '${server}': client } }), a Client of @modelcontextprotocol/sdk after connect()`,
    }));
    await Promise.all(servers.filter((s) => this.#stale.has(s) && this.#clients.has(s)).map(async (server) => {
      let listing = this.#listing.get(server);
      if (listing === undefined) {
        this.#stale.delete(server);  // a notification during the listing marks it stale again
        // Shared by the turns that wait for it; each stops waiting when its own signal aborts.
        listing = this.#list(server).finally(() => this.#listing.delete(server));
        this.#listing.set(server, listing);
      }
      try {
        this.#lists.set(server, await abortable(listing, signal));
      } catch (error) {
        signal?.throwIfAborted();
        this.#stale.add(server);
        this.#lists.delete(server);
        failures.push({ server, message: messageOf(error) });
      }
    }));
    return failures;
  }

  /**
   * @param {string} server
   * @returns {Promise<ListedTool[]>}
   */
  async #list(server) {
    const client = /** @type {McpClientLike} refresh lists only servers with a client */ (this.#clients.get(server));
    /** @type {ListedTool[]} */
    const tools = [];
    /** @type {string | undefined} */
    let cursor;
    for (let page = 0; page < MAX_PAGES; page++) {
      /** @type {any} */
      const answer = await client.listTools(cursor === undefined ? undefined : { cursor });
      if (!Array.isArray(answer?.tools)) throw new TypeError(`tools/list of MCP server '${server}' did not return a list of tools`);
      for (const tool of answer.tools) {
        if (depthOf(tool?.inputSchema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) {
          throw new RangeError(`the input schema of tool '${String(tool?.name)}' of MCP server '${server}' nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
        }
        tools.push(listedTool(tool));
      }
      cursor = typeof answer.nextCursor === 'string' && answer.nextCursor.length > 0 ? answer.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /**
   * Runs tools/call for the core's outcome (`mcp: { server, tool }`) with the turn's signal:
   * { kind: 'mcp', value: the text the model gets, isError, server }. An isError result, and a server that
   * fails or is gone, are results that say so; an aborted turn throws.
   * @param {Extract<HandoffOutcome, { type: 'tool' }>} outcome a call of an MCP tool (its `mcp` set)
   * @param {AbortSignal} [signal]
   * @returns {Promise<{ kind: 'mcp', value: string, isError: boolean, server: string }>}
   */
  async call(outcome, signal) {
    const { server, tool } = /** @type {{ server: string, tool: string }} */ (outcome.mcp);
    const client = /** @type {McpClientLike} the core names only servers with a client */ (this.#clients.get(server));
    try {
      /** @type {any} */
      const result = await client.callTool({ name: tool, arguments: outcome.arguments }, undefined, { signal });
      const text = resultText(result);
      if (result?.isError === true) return { kind: 'mcp', value: `Error: ${text.length > 0 ? text : `tool ${tool} of MCP server '${server}' failed`}`, isError: true, server };
      return { kind: 'mcp', value: text, isError: false, server };
    } catch (error) {
      signal?.throwIfAborted();
      // A server that failed may be gone: list it again before its tools are offered next.
      this.#stale.add(server);
      return { kind: 'mcp', value: `Error: MCP server '${server}' could not run ${tool}: ${messageOf(error)}`, isError: true, server };
    }
  }
}
