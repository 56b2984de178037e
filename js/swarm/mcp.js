// @ts-check
// The tools of the MCP servers an agent names (its `mcpServers`): their last listings, kept by
// js/mcp/consume.js, cross into the core with each `tools` and `applyToolCall` call, which names
// them, places them and answers a call with the server to ask (docs/mcp.md). This file finds an
// agent's servers, lists them again where their lists changed, and tags the events of their calls.
import { checkSession, routingRecord, SESSION_FORMAT } from './core.js';

/**
 * @import { McpTools } from '../mcp/consume.js'
 * @import { Session, SwarmEvent } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 */

/**
 * The MCP servers agent `agentId` names (none when the Swarm has no MCP clients and no agent names a server).
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @returns {string[]}
 */
export function mcpServers(sw, agentId) {
  if (sw.mcp === null) return [];
  return (sw.agents.get(agentId)?.mcpServers ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.server));
}

/**
 * The MCP tools agent `agentId`'s servers listed last, as the core reads them ('' for none).
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @returns {string}
 */
export function mcpListed(sw, agentId) {
  const servers = mcpServers(sw, agentId);
  // (An agent has servers only when the Swarm has MCP: mcpServers.)
  return servers.length === 0 ? '' : /** @type {McpTools} */ (sw.mcp).listed(servers);
}

/**
 * Lists agent `agentId`'s MCP servers again where their lists changed (before its tools are
 * offered or a call of them is applied); a server that cannot be listed is reported.
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @param {AbortSignal | undefined} signal
 * @returns {AsyncGenerator<Extract<SwarmEvent, { type: 'mcp_unavailable' }>, void, undefined>}
 */
export async function* mcpRefresh(sw, agentId, signal) {
  const servers = mcpServers(sw, agentId);
  if (servers.length === 0) return;
  for (const { server, message } of await /** @type {McpTools} */ (sw.mcp).refresh(servers, signal)) yield { type: 'mcp_unavailable', agent: agentId, server, message };
}

/**
 * What tool_use and tool_result events add for a call of an MCP tool: { by: 'mcp', server }.
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @param {string} name
 * @returns {{ by?: 'mcp', server?: string }}
 */
export function mcpTag(sw, agentId, name) {
  if (mcpServers(sw, agentId).length === 0) return {};
  const listed = routingRecord(sw, { format: SESSION_FORMAT, active: agentId, hops: 0, selections: {}, variables: {} }, 'tools', 'tools', 'openai-chat', mcpListed(sw, agentId)).mcp;
  const tool = listed.find((t) => t.name === name);
  return tool === undefined ? {} : { by: 'mcp', server: tool.server };
}

/**
 * createMcpServer's: lists the active agent's MCP servers again where their lists changed; resolves the failures.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<Array<{ server: string, message: string }>>}
 */
export async function refreshActiveMcp(sw, session, signal) {
  const servers = mcpServers(sw, checkSession(session, 'refreshMcpTools').active);
  return servers.length === 0 ? [] : /** @type {McpTools} */ (sw.mcp).refresh(servers, signal);
}

/**
 * createMcpServer's: `listener(server, agents)` when an MCP server's tool list changed (`agents`: the ids of those that name it); returns what stops it.
 * @param {SwarmInternals} sw
 * @param {(server: string, agents: string[]) => void} listener
 * @returns {() => unknown}
 */
export function watchMcp(sw, listener) {
  if (sw.mcp === null) return () => {};
  return sw.mcp.watch((server) => listener(server, sw.definition.agents.filter((a) => mcpServers(sw, a.id).includes(server)).map((a) => a.id)));
}
