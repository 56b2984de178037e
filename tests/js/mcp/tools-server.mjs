// An MCP server made with the official SDK, for tests/js/mcp/*: a catalogue's tools, over stdio
// (spawned as a process) or, imported, over Streamable HTTP (toolsServer()).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await toolsServer().connect(new StdioServerTransport());
}
