// @ts-check
// handoff-graph/mcp (docs/mcp.md): a swarm served over MCP, with the official SDK
// (`@modelcontextprotocol/sdk`, an optional peer dependency). Agents that use MCP servers' tools
// need no import from here: the Swarm's `mcp` option takes the SDK's clients.
export { createMcpHttpHandler } from './http.js';
export { createMcpServer, INSTRUCTIONS_PROMPT, SESSION_URI, UPDATE_STATE } from './server.js';
export { resultText } from './consume.js';
export { connectMcpServers } from './connect.js';

/**
 * @typedef {import('./server.js').McpServerOptions} McpServerOptions
 * @typedef {import('./connect.js').McpServerConfig} McpServerConfig
 * @typedef {import('./connect.js').McpConfig} McpConfig
 * @typedef {import('./connect.js').McpConnections} McpConnections
 */
