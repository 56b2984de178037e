// Agents use MCP servers' tools (docs/mcp.md): the real SDK on both sides, over stdio (a spawned
// server process) and Streamable HTTP on 127.0.0.1, with scripted models.
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { check, DefinitionError, init, Swarm } from '../../js/node.js';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { serveOverHttp } from './mcp/tools-server.mjs';

await init();

const serverFile = fileURLToPath(new URL('./mcp/tools-server.mjs', import.meta.url));

async function stdioClient() {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverFile], stderr: 'ignore' }));
  return client;
}

function scripted(replies) {
  const requests = [];
  const model = async ({ agent, tools }) => {
    requests.push({ agent: agent.id, tools: tools.map((t) => t.function.name) });
    return replies.shift() ?? { text: '(script exhausted)' };
  };
  return { model, requests };
}

const shop = (servers = ['catalogue'], extra = {}) => ({
  name: 'shop',
  agents: [
    { id: 'clerk', entry: true, mcpServers: servers, tools: [{ name: 'note', description: 'Take a note' }], ...extra },
    { id: 'manager' },
  ],
  edges: [{ from: 'clerk', to: 'manager' }],
});

async function collect(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

test('an agent lists and calls MCP tools over stdio: text, structured content, isError, list_changed, the server killed mid-turn', async () => {
  const client = await stdioClient();
  const swarm = new Swarm(shop(), { mcp: { catalogue: client }, handlers: { note: () => 'noted' } });
  const session = swarm.createSession({ id: 's1' });
  // A second Swarm on the same client lists before the change, and is kept current too.
  const other = new Swarm(shop(), { mcp: { catalogue: client } });
  const otherModel = scripted([{ text: 'a' }, { text: 'b' }]);
  await collect(other.runTurn(other.createSession(), 'hi', { model: otherModel.model }));
  const call = (id, name, args = {}) => ({ toolCalls: [{ id, name, arguments: args }] });
  const { model, requests } = scripted([
    call('c1', 'search', { q: 'lamp' }),
    call('c2', 'stock', { item: 'lamp' }),
    call('c3', 'fail'),
    call('c4', 'unlock'),
    call('c5', 'discount', { item: 'lamp' }),
    call('c6', 'crash'),
    { text: 'Done.' },
  ]);
  const events = await collect(swarm.runTurn(session, 'A lamp, please.', { model }));
  // Own tool, then the MCP tools as listed, then the transfer.
  assert.deepEqual(requests[0].tools, ['note', 'search', 'stock', 'order', 'fail', 'wait', 'unlock', 'crash', 'transfer_to_manager']);
  // After unlock, the server's list_changed made the next request list discount.
  assert.ok(requests[4].tools.includes('discount'));
  assert.ok(!requests[3].tools.includes('discount'));
  const results = events.filter((e) => e.type === 'tool_result').map((e) => [e.call.id, e.result, e.by, e.server]);
  assert.deepEqual(results.slice(0, 5), [
    ['c1', '2 results for lamp: lamp, desk', 'mcp', 'catalogue'],
    ['c2', '{"item":"lamp","units":7}', 'mcp', 'catalogue'],
    ['c3', 'Error: the warehouse is closed', 'mcp', 'catalogue'],
    ['c4', 'unlocked', 'mcp', 'catalogue'],
    ['c5', 'SAVE-lamp', 'mcp', 'catalogue'],
  ]);
  assert.match(results[5][1], /^Error: MCP server 'catalogue' could not run crash: /);
  const uses = events.filter((e) => e.type === 'tool_use');
  assert.ok(uses.every((e) => e.by === 'mcp' && e.server === 'catalogue'));
  // The server is gone: it is reported, and the agent is offered its own tools and transfers only.
  assert.ok(events.some((e) => e.type === 'mcp_unavailable' && e.server === 'catalogue'));
  assert.deepEqual(requests.at(-1).tools, ['note', 'transfer_to_manager']);
  assert.equal(events.at(-1).type, 'done');
  assert.equal(events.at(-1).text, 'Done.');
  const mcpCheckpoints = session.checkpoints.filter((c) => c.by === 'mcp');
  assert.equal(mcpCheckpoints.length, 6);
  assert.deepEqual(mcpCheckpoints[0], { turn: 1, hops: 0, active: 'clerk', tool: 'search', arguments: { q: 'lamp' }, result: '2 results for lamp: lamp, desk', by: 'mcp', server: 'catalogue' });
  assert.ok(!otherModel.requests[0].tools.includes('discount'));
  await collect(other.runTurn(other.createSession(), 'hi', { model: otherModel.model }));
  // The list_changed made other's listing stale; listed again, the server is gone by now, so other
  // is offered none of its tools (without the notification it would offer its first listing).
  assert.deepEqual(otherModel.requests[1].tools, ['note', 'transfer_to_manager']);
  other.dispose();
  await client.close();
  swarm.dispose();
});

test("a tools/call gets the turn's AbortSignal: the aborted turn leaves the session as it was", async () => {
  const client = await stdioClient();
  const swarm = new Swarm(shop(), { mcp: { catalogue: client } });
  const session = swarm.createSession();
  const before = structuredClone(session);
  const controller = new AbortController();
  const model = async () => {
    setTimeout(() => controller.abort(new Error('the user left')), 50);
    return { toolCalls: [{ id: 'w', name: 'wait', arguments: {} }] };
  };
  await assert.rejects(collect(swarm.runTurn(session, 'wait', { model, signal: controller.signal })), /the user left/);
  assert.deepEqual(session, before);
  await client.close();
  swarm.dispose();
});

test('mcpApproval pauses a call of an MCP tool; approved, it runs, in a span as other tools', async () => {
  const client = await stdioClient();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const swarm = new Swarm(shop(['catalogue'], { mcpApproval: ['order'] }), { mcp: { catalogue: client }, tracing: { tracerProvider } });
  const session = swarm.createSession();
  const { model } = scripted([{ toolCalls: [{ id: 'o1', name: 'order', arguments: { item: 'lamp' } }] }, { text: 'Ordered.' }]);
  const paused = await collect(swarm.runTurn(session, 'Order a lamp', { model }));
  const asked = paused.find((e) => e.type === 'approval_required');
  assert.equal(asked.tool, 'order');
  assert.equal(paused.at(-1).reason, 'approval-required');
  const resumed = await collect(swarm.resolveApproval(session, asked.approvalId, { approve: true, model }));
  assert.deepEqual(resumed.filter((e) => e.type === 'tool_result').map((e) => [e.result, e.by]), [['ordered lamp', 'mcp']]);
  assert.equal(resumed.at(-1).text, 'Ordered.');
  const span = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool order');
  assert.deepEqual([span.attributes['handoff_graph.tool.by'], span.attributes['handoff_graph.mcp.server'], span.attributes['handoff_graph.mcp.is_error']], ['mcp', 'catalogue', false]);
  await client.close();
  swarm.dispose();
});

test('over Streamable HTTP: a name clash names both sources, a prefix resolves it; definition mistakes', async (t) => {
  const base = await serveOverHttp(t);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  t.after(() => client.close());

  const clashing = new Swarm({ agents: [{ id: 'a', mcpServers: ['cat'], tools: [{ name: 'search', description: 'Mine' }] }] }, { mcp: { cat: client } });
  const { model } = scripted([]);
  await assert.rejects(collect(clashing.runTurn(clashing.createSession(), 'hi', { model })),
    /agent 'a' is offered two tools named 'search': tool 'search' of MCP server 'cat' and agent 'a''s own tool 'search'; give the server a prefix/);
  clashing.dispose();

  const prefixed = new Swarm({ agents: [{ id: 'a', mcpServers: [{ server: 'cat', prefix: 'cat_' }], tools: [{ name: 'search', description: 'Mine' }] }] }, { mcp: { cat: client } });
  const scripts = scripted([{ toolCalls: [{ id: 'p', name: 'cat_search', arguments: { q: 'desk' } }] }, { text: 'ok' }]);
  const events = await collect(prefixed.runTurn(prefixed.createSession(), 'hi', { model: scripts.model }));
  assert.deepEqual(scripts.requests[0].tools.slice(0, 3), ['search', 'cat_search', 'cat_stock']);
  assert.equal(events.find((e) => e.type === 'tool_result').result, '2 results for desk: lamp, desk');
  assert.equal(prefixed.toJSON().agents[0].mcpServers[0].prefix, 'cat_');
  // All four tool shapes carry the server's schema as written.
  const listedSession = prefixed.createSession();
  const anthropic = prefixed.tools(listedSession, 'anthropic').find((tool) => tool.name === 'cat_search');
  assert.deepEqual([anthropic.description, anthropic.input_schema.properties], ['Search the catalogue', { q: { type: 'string' } }]);
  const responses = prefixed.tools(listedSession, 'openai-responses').find((tool) => tool.name === 'cat_search');
  assert.equal(responses.strict, false);
  assert.deepEqual(prefixed.tools(listedSession, 'ai-sdk').cat_search.inputSchema, anthropic.input_schema);
  prefixed.dispose();

  assert.throws(() => new Swarm(shop(['nope']), { mcp: { catalogue: client } }), (error) => error instanceof DefinitionError
    && error.problems.some((p) => /options.mcp.catalogue: no agent of the definition names MCP server 'catalogue'/.test(p.message)));
  // Without its client, the definition loads (check() and the commands read it), and each model
  // call of the agent says the server is unavailable.
  assert.deepEqual(check(shop(['nope'])).findings, []);
  const traceLogPath = join(await mkdtemp(join(tmpdir(), 'mcp-log-')), 'turns.jsonl');
  const clientless = new Swarm(shop(['nope']), { traceLogPath });
  const alone = scripted([{ text: 'ok' }]);
  const noted = (await collect(clientless.runTurn(clientless.createSession(), 'hi', { model: alone.model }))).find((e) => e.type === 'mcp_unavailable');
  assert.match(noted.message, /^no MCP client 'nope' was given/);
  assert.deepEqual(alone.requests[0].tools, ['note', 'transfer_to_manager']);
  // The trace log records it, and a replay reads the recording.
  const recording = await readFile(traceLogPath, 'utf8');
  assert.match(recording, /"type":"mcp_unavailable"/);
  assert.equal((await clientless.replay(recording)).same, true);
  clientless.dispose();
  assert.throws(() => new Swarm(shop(), { mcp: { catalogue: {} } }), /must be a connected MCP Client/);
  assert.throws(() => new Swarm({ agents: [{ id: 'a', mcpServers: [{ server: 'x', prefx: 'y' }], mcpApproval: ['a b'] }] }), (error) => error instanceof DefinitionError
    && error.problems.some((p) => p.pointer === '/agents/0/mcpServers/0/prefx')
    && error.problems.some((p) => p.pointer === '/agents/0/mcpApproval/0'));
});

// A server that lists `tools` as given (no schema library between) and echoes each call.
function rawServer(tools) {
  const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [
      { type: 'text', text: `called ${request.params.name} with ${JSON.stringify(request.params.arguments)}` },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///tmp/report.txt', name: 'report' },
    ],
  }));
  return server;
}

test('servers that list odd names, non-text content or a schema nested too deep: names made safe, content described, the deep one unavailable', async (t) => {
  let deep = { type: 'object' };
  for (let i = 0; i < 300; i++) deep = { type: 'object', properties: { d: deep } };
  const servers = {
    '/odd': () => rawServer([{ name: 'files.read', inputSchema: { type: 'object' } }, { name: 'x'.repeat(100), inputSchema: { type: 'object' } }]),
    '/deep': () => rawServer([{ name: 'deep', inputSchema: deep }]),
  };
  const base = await serveOverHttp(t, (req) => servers[req.url]());
  const clients = {};
  for (const name of ['odd', 'deep']) {
    clients[name] = new Client({ name: 'test', version: '1.0.0' });
    await clients[name].connect(new StreamableHTTPClientTransport(new URL(`${base}/${name}`)));
    t.after(() => clients[name].close());
  }
  const swarm = new Swarm({ agents: [{ id: 'a', mcpServers: ['odd', 'deep'] }] }, { mcp: clients });
  const { model, requests } = scripted([{ toolCalls: [{ id: 'r', name: 'files_read', arguments: { path: '/tmp' } }] }, { text: 'ok' }]);
  const events = await collect(swarm.runTurn(swarm.createSession(), 'read', { model }));
  assert.deepEqual(requests[0].tools, ['files_read', 'x'.repeat(64)]);
  const unavailable = events.find((e) => e.type === 'mcp_unavailable');
  assert.equal(unavailable.server, 'deep');
  assert.match(unavailable.message, /the input schema of tool 'deep' of MCP server 'deep' nests deeper than 256 levels/);
  assert.equal(events.find((e) => e.type === 'tool_result').result, 'called files.read with {"path":"/tmp"}\n[image: image/png]\n[resource: file:///tmp/report.txt]');
  swarm.dispose();
});

test('the JSON Schema (handoff-graph/schema.json) takes mcpServers and mcpApproval as the core does', async () => {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { readFile } = await import('node:fs/promises');
  const schema = JSON.parse(await readFile(fileURLToPath(import.meta.resolve('handoff-graph/schema.json')), 'utf8'));
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  const written = { format: 'handoff-graph/swarm', version: 1, ...shop(['catalogue', { server: 'gh', prefix: 'gh_' }], { mcpApproval: ['gh_issue'] }) };
  const swarm = new Swarm(written);
  assert.ok(validate(written), JSON.stringify(validate.errors));
  assert.ok(validate(swarm.toJSON()), JSON.stringify(validate.errors));
  swarm.dispose();
  for (const agent of [{ id: 'a', mcpServers: [{ server: 'x', prefx: 'y' }] }, { id: 'a', mcpServers: [{ server: 'x', prefix: 'a b' }] }, { id: 'a', mcpServers: ['x'], mcpApproval: ['a b'] }]) {
    assert.equal(validate({ format: 'handoff-graph/swarm', version: 1, agents: [agent] }), false, JSON.stringify(agent));
    assert.throws(() => new Swarm({ agents: [agent] }), DefinitionError);
  }
});

test('a recorded turn with MCP calls replays without the servers: their results come from the recording', async () => {
  const client = await stdioClient();
  const traceLogPath = join(await mkdtemp(join(tmpdir(), 'mcp-replay-')), 'turns.jsonl');
  const swarm = new Swarm(shop([{ server: 'catalogue', prefix: 'cat_' }]), { mcp: { catalogue: client }, traceLogPath });
  const { model } = scripted([
    { toolCalls: [{ id: 'a', name: 'cat_search', arguments: { q: 'lamp' } }, { id: 'b', name: 'note', arguments: {} }] },
    { toolCalls: [{ id: 'c', name: 'cat_fail', arguments: {} }] },
    { toolCalls: [{ id: 'd', name: 'transfer_to_manager', arguments: {} }] },
    { text: 'The manager here.' },
  ]);
  await collect(swarm.runTurn(swarm.createSession({ id: 'rec-1' }), 'A lamp?', { model }));
  await client.close();  // the replay needs no server
  const recording = await readFile(traceLogPath, 'utf8');
  const report = await swarm.replay(recording);
  assert.equal(report.same, true, JSON.stringify(report.divergence));
  assert.ok(report.decisions >= 5);
  // An agent that no longer names the server is offered other tools: the replay says where.
  const changed = new Swarm(shop([]));
  const diverged = await changed.replay(recording);
  assert.equal(diverged.same, false);
  assert.equal(diverged.divergence.kind, 'tools');
  changed.dispose();
  swarm.dispose();
});
