// connectMcpServers and the commands' --mcp-config (docs/mcp.md#connecting-servers-from-a-config-file):
// the MCP servers of a configuration in the shape MCP hosts share, connected with the SDK's
// Client to real servers over stdio (spawned) and Streamable HTTP (on 127.0.0.1), and given to a
// Swarm; mistakes in the configuration are TypeErrors that name them.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { connectMcpServers } from '../../js/mcp/index.js';
import { init, Swarm } from '../../js/node.js';
import { serveOverHttp, toolsServer } from './mcp/tools-server.mjs';

await init();

const cli = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const toolsServerFile = fileURLToPath(new URL('./mcp/tools-server.mjs', import.meta.url));
const text = (result) => result.content.map((c) => c.text).join('');

test('a stdio server and a Streamable HTTP server connected from one configuration, their tools run by a swarm turn', { timeout: 20_000 }, async (t) => {
  // The catalogue's tools over Streamable HTTP, asking for a header.
  const url = `${await serveOverHttp(t, (req) => (req.headers['x-key'] === 'k1' ? toolsServer() : null))}/mcp`;
  const { clients, close } = await connectMcpServers({
    mcpServers: {
      local: { command: process.execPath, args: [toolsServerFile], env: { CATALOGUE: 'local' } },
      remote: { type: 'http', url, headers: { 'x-key': 'k1' } },
    },
  });
  t.after(close);
  assert.deepEqual(Object.keys(clients), ['local', 'remote']);
  const swarm = new Swarm({ agents: [{ id: 'clerk', mcpServers: [{ server: 'local', prefix: 'l_' }, { server: 'remote', prefix: 'r_' }] }] }, { mcp: clients });
  t.after(() => swarm.dispose());
  const session = swarm.createSession();
  const calls = [{ id: 'c1', name: 'l_search', arguments: { q: 'lamp' } }, { id: 'c2', name: 'r_stock', arguments: { item: 'desk' } }];
  let offered;
  const model = ({ messages, tools }) => {
    offered ??= tools.map((tool) => tool.function.name);
    return messages.at(-1).role === 'tool' ? { text: 'done' } : { toolCalls: calls };
  };
  const results = [];
  for await (const event of swarm.runTurn(session, 'lamps?', { model, toolFormat: 'openai-chat' })) if (event.type === 'tool_result') results.push(event.result);
  assert.ok(offered.includes('l_search') && offered.includes('r_search'), offered.join(', '));
  assert.deepEqual(results, ['2 results for lamp: lamp, desk', '{"item":"desk","units":7}']);
});

test('mistakes in a configuration are TypeErrors that name them; nothing is started', async () => {
  const wrong = [
    [null, /an MCP configuration is an object/],
    [{ servers: {} }, /unknown option 'servers'.*allowed: mcpServers/],
    [{ mcpServers: [] }, /mcpServers: expected an object of servers by name/],
    [{ mcpServers: { a: 'node server.js' } }, /mcpServers\.a: expected a server/],
    [{ mcpServers: { a: { comand: 'node' } } }, /mcpServers\.a: unknown option 'comand' \(did you mean 'command'\?\)/],
    [{ mcpServers: { a: { command: '' } } }, /mcpServers\.a\.command: expected the command/],
    [{ mcpServers: { a: { command: 'node', args: 'server.js' } } }, /mcpServers\.a\.args: expected an array of strings/],
    [{ mcpServers: { a: { command: 'node', env: { PORT: 8080 } } } }, /mcpServers\.a\.env: expected an object of strings/],
    [{ mcpServers: { a: { url: 'ftp://x' } } }, /mcpServers\.a\.url: expected an http\(s\) URL/],
    [{ mcpServers: { a: { type: 'sse', url: 'http://x' } } }, /mcpServers\.a\.type: .*SSE transport is deprecated/],
    [{ mcpServers: { a: { url: 'http://x', command: 'node' } } }, /mcpServers\.a: unknown option 'command'/],
  ];
  for (const [config, message] of wrong) await assert.rejects(connectMcpServers(config), { name: 'TypeError', message }, JSON.stringify(config));
});

test('a server that cannot be connected rejects with its name, and the ones connected are closed', { timeout: 20_000 }, async () => {
  await assert.rejects(
    connectMcpServers({ mcpServers: { good: { command: process.execPath, args: [toolsServerFile] }, gone: { command: process.execPath, args: ['-e', 'process.exit(1)'] } } }),
    (error) => error instanceof Error && /^cannot connect MCP server 'gone' \(.* -e process\.exit\(1\)\): /.test(error.message),
  );
});

test('handoff-graph mcp --mcp-config: the agent is offered its MCP servers\' tools, and a call of one runs on the server', { timeout: 20_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-config-'));
  const file = join(dir, 'swarm.json');
  const config = join(dir, 'mcp.json');
  await writeFile(file, JSON.stringify({ name: 'shop', agents: [{ id: 'clerk', mcpServers: ['catalogue'] }] }));
  await writeFile(config, JSON.stringify({ mcpServers: { catalogue: { command: process.execPath, args: [toolsServerFile] } } }));
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', file, '--mcp-config', config], stderr: 'ignore' }));
  t.after(() => client.close());
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes('search') && names.includes('update_state'), names.join(', '));
  assert.equal(text(await client.callTool({ name: 'search', arguments: { q: 'desk' } })), '2 results for desk: lamp, desk');
});
