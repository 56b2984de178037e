// What a Swarm hands to the host's functions and to util.inspect, pinned where the code that makes
// it is shared: one model request per call (its instructions read once, its history a copy the
// model may change freely), the same for a turn and for an agent tool's nested conversation,
// and the edge counts of inspect() as the core classifies the edges (a continuation is a rule).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect as nodeInspect } from 'node:util';

import { init, Swarm } from 'handoff-graph';

await init();

const inspect = (value) => nodeInspect(value, { breakLength: Infinity });

test('inspect() counts edges as the core classifies them: a continuation without `when` is a rule, not an LLM edge', () => {
  const swarm = new Swarm({
    name: 'kinds',
    agents: [{ id: 'a', entry: true, handoffs: 1 }, { id: 'b' }, { id: 'c' }],
    edges: [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c', continuation: true },
      { from: 'b', to: 'c', when: 'x == 1' },
      { from: 'c', to: 'a', when: 'x == 2', offer: true },
    ],
  });
  assert.deepEqual(swarm.toDag().edges.map((e) => e.via), ['llm', 'continuation', 'rule', 'hybrid']);
  assert.equal(inspect(swarm), "Swarm 'kinds' { agents: [ 'a', 'b', 'c' ], edges: { rule: 2, llm: 1, hybrid: 1 } }");
  swarm.dispose();
});

test('a model call reads dynamic instructions once, and the request is a copy: what the model changes never reaches the session', async () => {
  let calls = 0;
  const swarm = new Swarm(
    { name: 'one', agents: [{ id: 'a', entry: true }] },
    { instructions: { a: ({ state }) => (calls++, `Help ${state.user ?? 'them'}.`) } },
  );
  const session = swarm.createSession({ variables: { user: 'Ada' } });
  session.histories.a.push({ role: 'assistant', content: 'earlier', toolCalls: [{ id: 'c0', name: 't', arguments: { n: 1 } }] });
  const requests = [];
  const model = (request) => {
    requests.push(structuredClone(request.messages));
    assert.equal(request.instructions, 'Help Ada.');
    assert.deepEqual(request.history, request.messages.slice(1));
    // The model may change what it got: none of it is the session's.
    request.messages[1].toolCalls[0].arguments.n = 99;
    request.history.push({ role: 'user', content: 'injected' });
    return { text: 'hello' };
  };
  for await (const event of swarm.runTurn(session, 'hi', { model })) void event;
  assert.equal(calls, 1, 'one model call, one call of the instructions function');
  assert.deepEqual(requests[0], [
    { role: 'system', content: 'Help Ada.' },
    { role: 'assistant', content: 'earlier', toolCalls: [{ id: 'c0', name: 't', arguments: { n: 1 } }] },
    { role: 'user', content: 'hi' },
  ]);
  assert.deepEqual(session.histories.a, [
    { role: 'assistant', content: 'earlier', toolCalls: [{ id: 'c0', name: 't', arguments: { n: 1 } }] },
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ]);
  swarm.dispose();
});

test("an agent tool's nested conversation gets the same request shape: its own instructions, its own history, no transfers", async () => {
  let expertInstructions = 0;
  const swarm = new Swarm(
    {
      name: 'nested',
      agents: [
        { id: 'lead', entry: true, tools: [{ name: 'ask_expert', description: 'Ask the expert', parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] } }] },
        { id: 'expert', instructions: 'static' },
      ],
      edges: [{ from: 'expert', to: 'lead' }],
    },
    { agentTools: { ask_expert: 'expert' }, instructions: { expert: () => (expertInstructions++, 'You are the expert.') }, tracing: false },
  );
  const session = swarm.createSession();
  const seen = [];
  const model = (request) => {
    seen.push({ agent: request.agent.id, messages: structuredClone(request.messages), tools: request.tools.map((t) => t.function.name), history: request.history.length });
    if (request.agent.id === 'expert') return { text: 'forty-two' };
    if (seen.filter((s) => s.agent === 'lead').length === 1) return { toolCalls: [{ id: 'c1', name: 'ask_expert', arguments: { input: 'the answer?' } }] };
    return { text: 'The expert says forty-two.' };
  };
  const events = [];
  for await (const event of swarm.runTurn(session, 'ask', { model })) events.push(event);
  assert.equal(expertInstructions, 1);
  const expert = seen.find((s) => s.agent === 'expert');
  assert.deepEqual(expert.messages, [{ role: 'system', content: 'You are the expert.' }, { role: 'user', content: 'the answer?' }]);
  assert.equal(expert.history, 1);
  assert.deepEqual(expert.tools, [], 'the expert answers as a tool: no transfer to lead');
  assert.equal(events.at(-1).text, 'The expert says forty-two.');
  swarm.dispose();
});

test('an id with a lone surrogate is refused at its UTF-16 index; a well-formed pair before it is no problem', () => {
  const make = (id) => new Swarm({ name: 'ids', agents: [{ id, entry: true }] });
  assert.throws(() => make('\u{1F600}a\uDC00'), (error) => {
    assert.equal(error.name, 'DefinitionError');
    assert.deepEqual(error.problems, [{
      pointer: '/agents/0/id',
      message: 'a lone surrogate at index 3 (U+DC00): the agent id is not well-formed Unicode, so it cannot be kept exactly',
    }]);
    return true;
  });
  assert.throws(() => make('ab\uD83D'), /lone surrogate at index 2 \(U\+D83D\)/);
  make('\u{1F600}').dispose();
});

test('request messages are plain data: a tool call without an id answered has no toolCallId member, a stored "__proto__" key stays a key', async () => {
  const swarm = new Swarm(
    { name: 'copies', agents: [{ id: 'a', entry: true, tools: [{ name: 't', description: 'T', parameters: { type: 'object', properties: {} } }] }] },
    { handlers: { t: () => 'done' } },
  );
  // A session read back from a store: JSON.parse makes "__proto__" an own key.
  const session = JSON.parse(JSON.stringify(swarm.createSession()));
  session.histories.a.push(JSON.parse('{"role":"user","content":"earlier","__proto__":{"polluted":true}}'));
  const seen = [];
  const model = (request) => {
    seen.push(request.messages);
    return seen.length === 1 ? { toolCalls: [{ name: 't', arguments: {} }] } : { text: 'ok' };
  };
  for await (const event of swarm.runTurn(session, 'hi', { model })) void event;
  const [earlier, , , answer] = seen[1];
  assert.equal(Object.getPrototypeOf(earlier), Object.prototype);
  assert.equal(earlier.polluted, undefined);
  assert.deepEqual(Object.keys(earlier), ['role', 'content', '__proto__']);
  assert.deepEqual(answer, { role: 'tool', name: 't', content: 'done' });
  swarm.dispose();
});

test("a tool handler's result that JSON cannot hold fails the turn as the tool's error", async () => {
  const circular = {};
  circular.self = circular;
  const swarm = new Swarm(
    { name: 'tool', agents: [{ id: 'a', entry: true, tools: [{ name: 't', description: 'T', parameters: { type: 'object', properties: {} } }] }] },
    { handlers: { t: () => circular } },
  );
  const session = swarm.createSession();
  const events = [];
  await assert.rejects(async () => {
    for await (const event of swarm.runTurn(session, 'hi', { model: () => ({ toolCalls: [{ id: 'c1', name: 't', arguments: {} }] }) })) events.push(event);
  }, TypeError);
  const error = events.at(-1);
  assert.equal(error.type, 'error');
  assert.deepEqual({ source: error.source, tool: error.tool, agent: error.agent }, { source: 'tool', tool: 't', agent: 'a' });
  assert.equal(session.status, 'failed');
  swarm.dispose();
});
