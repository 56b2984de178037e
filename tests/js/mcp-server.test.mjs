// A swarm served over MCP (docs/mcp.md): the SDK's Client drives createMcpServer over stdio (the
// `handoff-graph mcp` command, spawned) and Streamable HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { createMcpHttpHandler, createMcpServer } from '../../js/mcp/index.js';
import { init, Swarm } from '../../js/node.js';
import { FileStore } from '../../js/stores/file.js';

await init();

const cli = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const modelFile = fileURLToPath(new URL('./mcp/model.mjs', import.meta.url));

const definition = {
  name: 'support',
  agents: [
    { id: 'triage', entry: true, handoffs: 1, instructions: 'You greet the customer and find out what they need.', tools: [{ name: 'lookup', description: 'Look an order up' }] },
    { id: 'billing', name: 'Billing', instructions: 'You answer questions about invoices.' },
    { id: 'human', name: 'Human operator' },
  ],
  edges: [
    { from: 'triage', to: 'human', requires: [{ name: 'ticketId', from: 'model', description: 'the ticket number' }] },
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    { from: 'billing', to: 'triage' },
    { from: 'human', to: 'triage' },
  ],
};

async function files() {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-swarm-'));
  const file = join(dir, 'swarm.json');
  await writeFile(file, JSON.stringify(definition));
  return { dir, file, store: join(dir, 'sessions') };
}

async function connect(transport) {
  const client = new Client({ name: 'host', version: '1.0.0' });
  const changes = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push(Date.now()));
  await client.connect(transport);
  return { client, changes };
}

// createMcpHttpHandler(swarm) on 127.0.0.1 until test `t` ends (then the swarm is disposed).
async function serveSwarm(t, swarm) {
  const handler = createMcpHttpHandler(swarm);
  const http = createServer((req, res) => void handler(req, res));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await handler.close();
    http.closeAllConnections();
    http.close();
    swarm.dispose();
  });
  return http;
}

const names = async (client) => (await client.listTools()).tools.map((t) => t.name);
const text = (result) => result.content.map((c) => c.text).join('');

test('stdio: the tools before and after a transfer, a blocked transfer, the per-agent limit, rules on update_state, a session resumed after a restart', async (t) => {
  const { file, store } = await files();
  const spawn = () => new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', file, '--store', `file:${store}`, '--session', 'conv-1'], stderr: 'ignore' });
  const { client, changes } = await connect(spawn());
  t.after(() => client.close());
  assert.deepEqual(await names(client), ['lookup', 'transfer_to_human', 'update_state']);
  const prompt = await client.getPrompt({ name: 'instructions' });
  assert.equal(prompt.messages[0].content.text, 'You greet the customer and find out what they need.');

  const blocked = await client.callTool({ name: 'transfer_to_human', arguments: { reason: null } });
  assert.equal(blocked.isError, true);
  assert.equal(text(blocked), 'Cannot transfer to Human operator yet: missing ticketId (the ticket number). Provide what is missing or correct, then call transfer_to_human again.');

  const lookup = await client.callTool({ name: 'lookup', arguments: {} });
  assert.match(text(lookup), /tool_mock_required/);

  const moved = await client.callTool({ name: 'transfer_to_human', arguments: { reason: 'asked for a person', ticketId: 'T-1' } });
  assert.equal(moved.isError, undefined);
  assert.match(text(moved), /^Transferred to Human operator\. You are now Human operator \(human\)/);
  assert.deepEqual(await names(client), ['transfer_to_triage', 'update_state']);
  assert.ok(changes.length >= 1, 'tools/list_changed was sent');

  await client.callTool({ name: 'transfer_to_triage', arguments: {} });
  // triage has used its one handoff: it is offered no transfer, and a call of one is refused.
  assert.deepEqual(await names(client), ['lookup', 'update_state']);
  const spent = await client.callTool({ name: 'transfer_to_human', arguments: { ticketId: 'T-1' } });
  assert.equal(spent.isError, true);
  assert.equal(text(spent), "Error: 'transfer_to_human' is not available: agent 'triage' has used all its handoffs");

  // A rule is not limited by handoffs: update_state runs the rules.
  const ruled = await client.callTool({ name: 'update_state', arguments: { variables: { category: 'billing' } } });
  assert.match(text(ruled), /handed the conversation to Billing \(billing\)/);
  assert.deepEqual(await names(client), ['transfer_to_triage', 'update_state']);

  // Mistakes are tool errors or JSON-RPC errors, never a crash.
  assert.equal((await client.callTool({ name: 'update_state', arguments: { variables: 3 } })).isError, true);
  assert.equal((await client.callTool({ name: 'update_state', arguments: { vars: {} } })).isError, true);
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool/);
  await assert.rejects(client.getPrompt({ name: 'nope' }), /Unknown prompt/);
  await client.close();

  // The server restarts: the session continues from the FileStore.
  const again = await connect(spawn());
  t.after(() => again.client.close());
  assert.deepEqual(await names(again.client), ['transfer_to_triage', 'update_state']);
  const resource = await again.client.readResource({ uri: 'handoff-graph://session' });
  const session = JSON.parse(resource.contents[0].text);
  assert.deepEqual([session.id, session.active, session.hops, session.selections], ['conv-1', 'billing', 3, { human: 1, triage: 1 }]);
  assert.deepEqual((await new FileStore(store).listCheckpoints('conv-1')).filter((c) => c.outcome?.type === 'handoff').map((c) => c.outcome.to), ['human', 'triage', 'billing']);
  await again.client.close();
});

test('Streamable HTTP: one MCP session is one swarm session, continued by a client that reconnects after the server restarts', async () => {
  const { store: dir } = await files();
  const store = new FileStore(dir);
  const swarm = new Swarm(definition);
  const listen = async () => {
    const handler = createMcpHttpHandler(swarm, { store });
    const http = createServer((req, res) => void handler(req, res));
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    const stop = async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    };
    return { url: new URL(`http://127.0.0.1:${http.address().port}/mcp`), stop };
  };
  let server = await listen();
  const first = await connect(new StreamableHTTPClientTransport(server.url));
  const other = await connect(new StreamableHTTPClientTransport(server.url));
  await first.client.callTool({ name: 'transfer_to_human', arguments: { ticketId: 'T-9' } });
  assert.deepEqual(await names(first.client), ['transfer_to_triage', 'update_state']);
  assert.deepEqual(await names(other.client), ['lookup', 'transfer_to_human', 'update_state']);
  const sessionId = first.client.transport.sessionId;
  assert.equal((await store.get(sessionId)).active, 'human');
  await server.stop();

  server = await listen();
  const back = await connect(new StreamableHTTPClientTransport(server.url, { sessionId }));
  assert.deepEqual(await names(back.client), ['transfer_to_triage', 'update_state']);
  await back.client.callTool({ name: 'transfer_to_triage', arguments: {} });
  assert.equal((await store.get(sessionId)).active, 'triage');
  await back.client.close().catch(() => {});
  await first.client.close().catch(() => {});
  await other.client.close().catch(() => {});
  await server.stop();
  swarm.dispose();
});

test('with a model, the swarm is one tool: a whole turn, handoffs included, continued by sessionId', async (t) => {
  const { file, store } = await files();
  const { client } = await connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', file, '--store', `file:${store}`, '--model', `module:${modelFile}`], stderr: 'ignore' }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['support']);
  const first = await client.callTool({ name: 'support', arguments: { message: 'I want a person' } });
  assert.deepEqual({ ...first.structuredContent, sessionId: 'ID' }, { answer: 'human answers: I want a person', agent: 'human', sessionId: 'ID', reason: 'answered' });
  assert.equal(text(first), 'human answers: I want a person');
  const second = await client.callTool({ name: 'support', arguments: { message: 'Thanks', sessionId: first.structuredContent.sessionId } });
  assert.deepEqual([second.structuredContent.agent, second.structuredContent.answer], ['human', 'human answers: Thanks']);
  assert.equal(second.structuredContent.sessionId, first.structuredContent.sessionId);
  const bad = await client.callTool({ name: 'support', arguments: { message: 'x', session: 'y' } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /has no argument 'session'/);
  await client.close();
});

test('createMcpServer refuses what it does not know', async () => {
  const swarm = new Swarm(definition);
  assert.throws(() => createMcpServer(swarm, { stor: null }), /unknown option 'stor' \(did you mean 'store'\?\)/);
  assert.throws(() => createMcpServer({}, {}), /expected a Swarm/);
  assert.throws(() => createMcpServer(swarm, { model: 'gpt' }), /options.model must be a model function/);
  assert.throws(() => createMcpHttpHandler(swarm, { modle: null }), /unknown option 'modle' \(did you mean 'model'\?\)/);
  assert.throws(() => createMcpHttpHandler(swarm, {}, { pth: '/' }), /unknown option 'pth'/);
  assert.throws(() => createMcpHttpHandler(swarm, { sessionId: 'a' }), /sessionId is each MCP session's own/);
  swarm.dispose();
});

test('the command: --http with a token, and usage mistakes exit 2', async (t) => {
  const { file } = await files();
  const child = spawn(process.execPath, [cli, 'mcp', file, '--http', '0'], { env: { ...process.env, HANDOFF_GRAPH_TOKEN: 's3cret' }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill());
  let out = '';
  child.stdout.setEncoding('utf8');
  while (!/\/mcp\n/.test(out)) {
    const [chunk] = await once(child.stdout, 'data');
    out += chunk;
  }
  const url = new URL(/(http:\S+\/mcp)/.exec(out)[1]);
  const refused = new Client({ name: 'host', version: '1.0.0' });
  await assert.rejects(refused.connect(new StreamableHTTPClientTransport(url)), /401|Bearer/);
  const { client } = await connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer s3cret' } } }));
  assert.deepEqual(await names(client), ['lookup', 'transfer_to_human', 'update_state']);
  await client.close();

  for (const args of [['mcp'], ['mcp', file, '--http', 'x'], ['mcp', file, '--sesion', 'a']]) {
    const usage = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    usage.stderr.on('data', (chunk) => { err += chunk; });
    const [code] = await once(usage, 'exit');
    assert.equal(code, 2, err);
    assert.match(err, /Usage: handoff-graph mcp/);
  }
});

test('adversarial calls are error results or JSON-RPC errors, and the server carries on', async (t) => {
  const swarm = new Swarm(definition, {
    handlers: {
      lookup: (_args, ctx) => {
        ctx.setVariables({ touched: true });
        throw new Error('the order system is down');
      },
    },
  });
  const http = await serveSwarm(t, swarm);
  const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`);
  const { client } = await connect(new StreamableHTTPClientTransport(url));
  t.after(() => client.close());
  const nest = (depth) => {
    let value = 'x';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const deep = await client.callTool({ name: 'transfer_to_human', arguments: { ticketId: nest(2000) } });
  assert.equal(deep.isError, true);
  assert.match(text(deep), /nest deeper than 512 levels/);
  // Nesting no client would send: written as text, straight to the session.
  const deeper = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': client.transport.sessionId, 'mcp-protocol-version': client.transport.protocolVersion },
    body: `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"update_state","arguments":{"variables":{"v":${'['.repeat(200000)}${']'.repeat(200000)}}}}}`,
  });
  assert.equal(deeper.status, 200);
  assert.match(await deeper.text(), /"isError":true/);
  await assert.rejects(client.request({ method: 'tools/call', params: { name: 'update_state', arguments: 5 } }, CallToolResultSchema), /Invalid|-32602|expected/i);
  await assert.rejects(client.readResource({ uri: 'file:///etc/passwd' }), /Unknown resource/);
  const garbage = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":' });
  assert.equal(garbage.status, 400);
  assert.equal((await fetch(new URL('/other', url))).status, 404);
  // A handler that throws is an error result, and what it changed is undone.
  const failed = await client.callTool({ name: 'lookup', arguments: {} });
  assert.deepEqual([failed.isError, text(failed)], [true, 'Error: the order system is down']);
  // Still serving, the session unchanged.
  assert.deepEqual(await names(client), ['lookup', 'transfer_to_human', 'update_state']);
  const { contents } = await client.readResource({ uri: 'handoff-graph://session' });
  assert.deepEqual(JSON.parse(contents[0].text).variables, {});
});

test("an agent's MCP tools served on: listed and run through the swarm, their list changes passed to the host", { timeout: 20_000 }, async (t) => {
  const upstream = new Client({ name: 'swarm', version: '1.0.0' });
  await upstream.connect(new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(new URL('./mcp/tools-server.mjs', import.meta.url))], stderr: 'ignore' }));
  t.after(() => upstream.close());
  const swarm = new Swarm({ agents: [{ id: 'clerk', mcpServers: [{ server: 'catalogue', prefix: 'cat_' }] }] }, { mcp: { catalogue: upstream } });
  const http = await serveSwarm(t, swarm);
  const { client, changes } = await connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
  t.after(() => client.close());
  const before = await names(client);
  assert.deepEqual(before.slice(0, 2), ['cat_search', 'cat_stock']);
  assert.ok(!before.includes('cat_discount'));
  assert.equal(text(await client.callTool({ name: 'cat_search', arguments: { q: 'desk' } })), '2 results for desk: lamp, desk');
  assert.equal(text(await client.callTool({ name: 'cat_unlock', arguments: {} })), 'unlocked');
  // The upstream server's list_changed reached the host (on its standalone stream: wait for it).
  while (changes.length === 0) await new Promise((resolve) => setImmediate(resolve));
  assert.ok((await names(client)).includes('cat_discount'));
});

test('stdio: a transfer that needs approval asks the person at the host through an elicitation', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-approval-'));
  const file = join(dir, 'swarm.json');
  await writeFile(file, JSON.stringify({
    name: 'desk',
    agents: [{ id: 'triage', entry: true }, { id: 'human', name: 'Human operator' }],
    edges: [{ from: 'triage', to: 'human', approval: true }, { from: 'human', to: 'triage' }],
  }));
  const command = (session) => new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', file, '--store', `file:${join(dir, 'sessions')}`, '--session', session], stderr: 'ignore' });

  // A host that can ask: the first answer declines with a reason, the second approves.
  const answers = [{ action: 'accept', content: { approve: false, reason: 'not during the night' } }, { action: 'accept', content: { approve: true } }];
  const asked = [];
  const host = new Client({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  host.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return answers.shift();
  });
  await host.connect(command('asks'));
  t.after(() => host.close());
  const declined = await host.callTool({ name: 'transfer_to_human', arguments: { reason: 'wants a person' } });
  assert.equal(declined.isError, true);
  assert.equal(text(declined), 'Not run: a person did not approve the transfer to Human operator (human): not during the night.');
  assert.deepEqual(await names(host), ['transfer_to_human', 'update_state']);
  const approved = await host.callTool({ name: 'transfer_to_human', arguments: { reason: 'wants a person' } });
  assert.equal(approved.isError, undefined);
  assert.match(text(approved), /^Transferred to Human operator\./);
  assert.deepEqual(await names(host), ['transfer_to_triage', 'update_state']);
  assert.equal(asked.length, 2);
  assert.match(asked[0], /^triage asks to run the transfer to Human operator \(human\) with \{"reason":"wants a person"\}\. Approve\?$/);

  // A host that cannot ask: the call is not run, and says why.
  const plain = new Client({ name: 'plain', version: '1.0.0' });
  await plain.connect(command('cannot-ask'));
  t.after(() => plain.close());
  const refused = await plain.callTool({ name: 'transfer_to_human', arguments: { reason: 'wants a person' } });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /needs a person's approval, and this MCP client cannot ask for it \(it has no elicitation capability\)/);
  assert.deepEqual(await names(plain), ['transfer_to_human', 'update_state']);
});
