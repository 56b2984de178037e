// @ts-check
// MCP clients for a replay (js/replay.js, docs/replay.md): stand-ins for the servers a recording's
// agents used, built from the recording alone. Each lists the tools the recorded model calls were
// offered that were neither the agent's own nor a transfer (by the server whose prefix the name
// starts with, in the agent's order), and answers a call with the result the recording holds.
// Nothing is called: a replay never reaches a real server.

/** @import { McpClientLike, SwarmDefinition } from '../index.js' */

const SCHEMA = { type: 'object', properties: {} };

/**
 * `mcp` for the replaying Swarm's options: { server: client }, for the servers the definition's
 * agents name (empty when none do). `recorded`: every line of the recording; `answers()`: the
 * current turn's answers (their `tools` queue, as the handlers of a replay take it).
 * @param {SwarmDefinition} definition
 * @param {ReadonlyArray<any>} recorded the recording's lines (JSON, read field by field)
 * @param {() => { tools?: Array<Record<string, any>> } | undefined} answers the turn's answers (recording lines)
 * @returns {Record<string, McpClientLike>}
 */
export function replayMcpClients(definition, recorded, answers) {
  const withServers = definition.agents.filter((a) => Array.isArray(a.mcpServers) && a.mcpServers.length > 0);
  if (withServers.length === 0) return {};
  /** @type {Map<string, string[]>} */
  const listed = new Map();  // server -> [its own names for the tools, in first-seen order]
  for (const agent of withServers) {
    const servers = /** @type {NonNullable<typeof agent.mcpServers>} */ (agent.mcpServers).map((entry) => (typeof entry === 'string' ? { server: entry, prefix: '' } : { server: entry.server, prefix: entry.prefix ?? '' }));
    for (const { server } of servers) if (!listed.has(server)) listed.set(server, []);
    const own = new Set((agent.tools ?? []).map((t) => t.name));
    const transfers = new Set(/** @type {NonNullable<typeof definition.edges>} a loaded definition lists them */ (definition.edges).filter((e) => e.from === agent.id && e.toolName !== undefined).map((e) => e.toolName));
    if (definition.transferTools === 'single') transfers.add('transfer_to_agent');
    for (const line of recorded) {
      if (line?.type !== 'model' || line.agent !== agent.id || !Array.isArray(line.tools)) continue;
      for (const name of line.tools) {
        if (typeof name !== 'string' || own.has(name) || transfers.has(name)) continue;
        const match = servers.find((s) => name.startsWith(s.prefix) && name.length > s.prefix.length);
        if (match === undefined) continue;
        const names = /** @type {string[]} set for each server above */ (listed.get(match.server));
        const mcpName = name.slice(match.prefix.length);
        if (!names.includes(mcpName)) names.push(mcpName);
      }
    }
  }
  /** @type {Record<string, McpClientLike>} */
  const clients = {};
  for (const [server, names] of listed) {
    clients[server] = {
      listTools: async () => ({ tools: names.map((name) => ({ name, inputSchema: SCHEMA })) }),
      callTool: async ({ name }) => {
        const queue = answers()?.tools ?? [];
        const line = queue[0];
        if (line === undefined || line.by !== 'mcp' || !line.tool.endsWith(name)) {
          return { content: [{ type: 'text', text: `(the recording has no result for this call of ${name})` }] };
        }
        queue.shift();
        return { content: [{ type: 'text', text: line.result }] };
      },
    };
  }
  return clients;
}
