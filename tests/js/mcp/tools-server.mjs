// An MCP server made with the official SDK, for tests/js/mcp/*: a catalogue's tools, over stdio
// (spawned as a process) or, imported, over Streamable HTTP (toolsServer(), serveOverHttp()).
import { createServer } from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export function toolsServer() {
  const server = new McpServer({ name: 'catalogue', version: '1.0.0' });
  server.registerTool('search', { description: 'Search the catalogue', inputSchema: { q: z.string() } }, ({ q }) => ({
    content: [{ type: 'text', text: `2 results for ${q}: lamp, desk` }],
  }));
  server.registerTool('stock', { description: 'Units in stock', inputSchema: { item: z.string() }, outputSchema: { item: z.string(), units: z.number() } }, ({ item }) => ({
    content: [],
    structuredContent: { item, units: 7 },
  }));
  server.registerTool('order', { description: 'Order an item', inputSchema: { item: z.string() } }, ({ item }) => ({
    content: [{ type: 'text', text: `ordered ${item}` }],
  }));
  server.registerTool('fail', { description: 'Always fails' }, () => ({ content: [{ type: 'text', text: 'the warehouse is closed' }], isError: true }));
  server.registerTool('wait', { description: 'Waits until cancelled' }, (extra) => new Promise((resolve) => {
    extra.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'cancelled' }] }));
  }));
  server.registerTool('unlock', { description: 'Adds the tool discount' }, () => {
    server.registerTool('discount', { description: 'A discount code', inputSchema: { item: z.string() } }, ({ item }) => ({ content: [{ type: 'text', text: `SAVE-${item}` }] }));
    return { content: [{ type: 'text', text: 'unlocked' }] };
  });
  server.registerTool('crash', { description: 'Ends the server process mid-call' }, () => process.exit(3));
  return server;
}

/**
 * Serves MCP servers over stateless Streamable HTTP on 127.0.0.1 until test `t` ends: a server per
 * request, `serverFor(req)` (null: the request is refused with 401). Resolves the base URL.
 */
export async function serveOverHttp(t, serverFor = () => toolsServer()) {
  const http = createServer(async (req, res) => {
    const server = serverFor(req);
    if (server === null) {
      res.writeHead(401).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    http.closeAllConnections();
    http.close(resolve);
  }));
  return `http://127.0.0.1:${http.address().port}`;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await toolsServer().connect(new StdioServerTransport());
}
