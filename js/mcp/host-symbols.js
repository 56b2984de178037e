// @ts-check
// What createMcpServer (js/mcp/server.js) asks of a Swarm beyond its public API, by symbol: the
// active agent's MCP tools listed again where they changed, and a call of one of its tools (its
// own, or an MCP server's) run as runTurn runs it; and word of an MCP server's tool list changing.
export const refreshMcpTools = Symbol('handoff-graph.refreshMcpTools');
export const hostToolCall = Symbol('handoff-graph.hostToolCall');
// (listener(server)) => unsubscribe: told when an MCP server's tool list changed.
export const watchMcpTools = Symbol('handoff-graph.watchMcpTools');
