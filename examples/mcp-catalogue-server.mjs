// A small MCP server made with the official SDK (npm install @modelcontextprotocol/sdk zod), over
// stdio: a shop's catalogue. docs/mcp.md gives its tools to an agent of a swarm.
//   node examples/mcp-catalogue-server.mjs
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'catalogue', version: '1.0.0' });
const prices = { lamp: 40, desk: 220 };

server.registerTool('search', { description: 'Search the catalogue', inputSchema: { q: z.string() } }, ({ q }) => ({
  content: [{ type: 'text', text: Object.keys(prices).filter((item) => item.includes(q)).join(', ') || 'nothing found' }],
}));
server.registerTool(
  'price',
  { description: 'The price of an item', inputSchema: { item: z.string() }, outputSchema: { item: z.string(), price: z.number() } },
  ({ item }) => (item in prices ? { content: [], structuredContent: { item, price: prices[item] } } : { content: [{ type: 'text', text: `no item ${item}` }], isError: true }),
);

await server.connect(new StdioServerTransport());
