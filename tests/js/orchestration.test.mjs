// Orchestration details (seed 002): agent tools with handlers, mocks or neither, runtime context,
// dynamic instructions, state hooks and reducers, single-agent mode. Scripted models, no network.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { init, Swarm, DefinitionError } from 'handoff-graph';

await init();

const scripted = (responses, seen = []) => async (request) => {
  seen.push(request);
  return responses.shift() ?? { text: 'done' };
};

const shop = (options) => new Swarm({
  agents: [
    {
      id: 'shop', entry: true, instructions: 'You sell.',
      tools: [
        { name: 'lookup_order', description: 'Find an order', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false } },
        { name: 'weather', description: 'The weather today' },
        { name: 'refund', description: 'Refund an order' },
      ],
    },
    { id: 'human', name: 'Human' },
  ],
  edges: [{ from: 'shop', to: 'human', requires: [{ name: 'orderId', from: 'model' }] }],
}, options);

test('a tool with neither handler nor mock: tool_mock_required, a structured result, the turn goes on', async () => {
  const swarm = shop();
  const session = swarm.createSession();
  const seen = [];
  const model = scripted([{ toolCalls: [{ id: 't1', name: 'weather', arguments: {} }] }, { text: 'I cannot check the weather.' }], seen);
  const events = [];
  for await (const e of swarm.runTurn(session, 'weather?', { model })) events.push(e);
  assert.deepEqual(events.map((e) => e.type), ['open', 'tool_use', 'tool_mock_required', 'tool_result', 'chunk', 'done']);
  assert.deepEqual(events[2], { type: 'tool_mock_required', agent: 'shop', tool: 'weather', arguments: {} });
  const fed = JSON.parse(seen[1].messages.at(-1).content);
  assert.equal(fed.error, 'tool_mock_required');
  assert.equal(session.checkpoints.at(-1).by, 'missing');
  assert.deepEqual(seen[0].tools.map((t) => t.function.name), ['lookup_order', 'weather', 'refund', 'transfer_to_human']);
});

test('handlers get their arguments and a context with toolState, which never enters the session', async () => {
  const client = { get: (id) => ({ id, status: 'shipped' }) };
  let context;
  const swarm = shop({
    handlers: { lookup_order: async ({ orderId }, ctx) => ((context = ctx), ctx.toolState.client.get(orderId)) },
    mocks: { refund: { refunded: true }, weather: (args, ctx) => `sunny for ${ctx.agent.id}` },
  });
  const session = swarm.createSession();
  const seen = [];
  const model = scripted([
    { toolCalls: [{ id: 'a', name: 'lookup_order', arguments: '{"orderId": "42"}' }, { id: 'b', name: 'refund', arguments: {} }, { id: 'c', name: 'weather' }] },
    { text: 'Your order shipped.' },
  ], seen);
  for await (const e of swarm.runTurn(session, 'where is 42?', { model, toolState: { client } })) void e;
  assert.equal(context.input, 'where is 42?');
  assert.equal(context.agent.id, 'shop');
  assert.equal(context.state, session.variables);
  const results = seen[1].messages.filter((m) => m.role === 'tool').map((m) => m.content);
  assert.deepEqual(results, ['{"id":"42","status":"shipped"}', '{"refunded":true}', 'sunny for shop']);
  assert.deepEqual(session.checkpoints.map((c) => c.by), ['handler', 'mock', 'mock']);
  assert.ok(!JSON.stringify(session).includes('client'), 'toolState stays out of the session');
});

test('instructions can be a function of the state, evaluated at each model call', async () => {
  const swarm = shop({ instructions: { shop: ({ state }) => `You sell. Customer tier: ${state.tier ?? 'unknown'}.` } });
  const session = swarm.createSession();
  const seen = [];
  for await (const e of swarm.runTurn(session, 'hi', { model: scripted([{ text: 'hello' }], seen) })) void e;
  swarm.updateState(session, { tier: 'gold' });
  for await (const e of swarm.runTurn(session, 'hi again', { model: scripted([{ text: 'hello' }], seen) })) void e;
  assert.deepEqual(seen.map((r) => r.messages[0].content), ['You sell. Customer tier: unknown.', 'You sell. Customer tier: gold.']);
  assert.throws(() => shop({ instructions: { nobody: () => '' } }), DefinitionError);
});

test('state hooks: normalize, reducers, and a validation that blocks a bad value everywhere', async () => {
  const state = {
    normalize: (key, value) => (typeof value === 'string' ? value.trim() : value),
    validate: (key, value) => (key === 'orderId' && !/^\d+$/.test(value) ? `orderId must be digits, got '${value}'` : true),
  };
  const swarm = shop({ state, reducers: { notes: 'append' } });
  const session = swarm.createSession();
  swarm.updateState(session, { orderId: ' 42 ', notes: 'first' });
  swarm.updateState(session, { notes: 'second' });
  assert.deepEqual(session.variables, { orderId: '42', notes: ['first', 'second'] });
  assert.throws(() => swarm.updateState(session, { orderId: 'abc', notes: 'x' }), { name: 'RangeError', message: /orderId must be digits/ });
  assert.deepEqual(session.variables, { orderId: '42', notes: ['first', 'second'] }, 'a refused change changes nothing');

  // From the model's tool arguments: the handoff is blocked, with the hook's reason for the model.
  const blocked = swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: { orderId: 'x1' } });
  assert.equal(blocked.type, 'handoff_blocked');
  assert.match(blocked.rejectionReason, /orderId must be digits, got 'x1'/);
  assert.equal(session.active, 'shop');
  assert.equal(session.hops, 0);
  assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: { orderId: ' 7 ' } }).type, 'handoff');
  assert.equal(session.variables.orderId, '7');

  // From extractVariables at the start of a turn: a state_rejected event, and the turn goes on.
  const extracting = shop({ state, extractVariables: (input) => ({ orderId: input.split(' ').at(-1) }) });
  const s = extracting.createSession();
  const events = [];
  for await (const e of extracting.runTurn(s, 'my order is abc', { model: scripted([{ text: 'ok' }]) })) events.push(e);
  assert.deepEqual(events.map((e) => e.type), ['open', 'state_rejected', 'chunk', 'done']);
  assert.equal(events[1].key, 'orderId');
  for await (const e of extracting.runTurn(s, 'my order is 99', { model: scripted([{ text: 'ok' }]) })) void e;
  assert.equal(s.variables.orderId, '99');
});

test('a handler can set variables through the same hooks', async () => {
  const swarm = shop({
    state: { validate: (key, value) => key !== 'status' || ['open', 'closed'].includes(value) },
    handlers: { lookup_order: (args, ctx) => ({ accepted: ctx.setVariables({ status: 'closed' }).ok, refused: ctx.setVariables({ status: 'weird' }).ok }) },
  });
  const session = swarm.createSession();
  for await (const e of swarm.runTurn(session, 'x', { model: scripted([{ toolCalls: [{ id: '1', name: 'lookup_order', arguments: { orderId: '1' } }] }]) })) void e;
  assert.equal(session.variables.status, 'closed');
  assert.equal(session.checkpoints[0].result, '{"accepted":true,"refused":false}');
});

test('single-agent mode runs the same loop; several agents need exactly one entry', async () => {
  const solo = new Swarm({ agents: [{ id: 'solo', instructions: 'Answer briefly.' }] });
  const session = solo.createSession();
  const events = [];
  for await (const e of solo.runTurn(session, 'hi', { model: scripted([{ text: 'hello' }]) })) events.push(e.type);
  assert.deepEqual(events, ['open', 'chunk', 'done']);
  assert.throws(() => new Swarm({ agents: [{ id: 'a' }, { id: 'b' }] }), (e) => e instanceof DefinitionError && /exactly one agent needs "entry": true/.test(e.message));
  assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b', entry: true }] }), DefinitionError);
});
