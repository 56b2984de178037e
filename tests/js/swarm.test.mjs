// Swarm: rule and LLM edges, tools, limits, required variables, context policies, the turn loop.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { init, Swarm, DefinitionError } from 'handoff-graph';

await init();

function support(extra = {}) {
  return new Swarm({
    name: 'support',
    maxHops: 4,
    agents: [
      { id: 'triage', name: 'Triage', instructions: 'You triage.', entry: true, handoffs: 2 },
      { id: 'billing', name: 'Billing', instructions: 'You do billing.' },
      { id: 'human', name: 'Human operator', description: 'A person' },
    ],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human', description: 'The user needs a human', requires: ['ticketId', { name: 'urgency', from: 'model', type: 'integer', description: '1 to 5' }] },
      { from: 'billing', to: 'human', offer: true, when: 'amount > 100', description: 'Refunds over 100 need a person' },
      { from: 'billing', to: 'triage' },
    ],
    ...extra,
  });
}

describe('tools', () => {
  test('the active agent is offered its LLM edges, in every SDK shape, with strict schemas', () => {
    const swarm = support();
    const session = swarm.createSession();
    assert.deepEqual(swarm.offered(session), [{ name: 'transfer_to_human', to: 'human' }]);
    const schema = {
      type: 'object',
      properties: {
        reason: { type: ['string', 'null'], description: 'Why the conversation should go to Human operator (optional).' },
        urgency: { type: 'integer', description: '1 to 5' },
      },
      required: ['reason', 'urgency'],
      additionalProperties: false,
    };
    const description = 'The user needs a human';
    assert.deepEqual(swarm.tools(session, 'openai-responses'), [{ type: 'function', name: 'transfer_to_human', description, parameters: schema, strict: true }]);
    assert.deepEqual(swarm.tools(session, 'openai-chat'), [{ type: 'function', function: { name: 'transfer_to_human', description, parameters: schema, strict: true } }]);
    assert.deepEqual(swarm.tools(session, 'anthropic'), [{ name: 'transfer_to_human', description, input_schema: schema }]);
    assert.deepEqual(swarm.tools(session, 'ai-sdk'), { transfer_to_human: { description, inputSchema: schema } });
    assert.throws(() => swarm.tools(session, 'gemini'), TypeError);
  });

  test('a hybrid edge is offered only while its condition holds', () => {
    const swarm = support();
    const session = swarm.createSession({ variables: { category: 'billing' } });
    swarm.applyRules(session);
    assert.equal(session.active, 'billing');
    assert.deepEqual(swarm.offered(session).map((t) => t.name), ['transfer_to_triage']);
    swarm.updateState(session, { amount: 250 });
    assert.deepEqual(swarm.offered(session).map((t) => t.name), ['transfer_to_human', 'transfer_to_triage']);
  });

  test('tool names are sanitized, cut to 64, made unique per agent, and overridable', () => {
    const swarm = new Swarm({
      agents: [{ id: 'a', entry: true }, { id: 'b c/é' }, { id: 'b_c__' }, { id: 'x'.repeat(80) }, { id: 'y' }],
      edges: [
        { from: 'a', to: 'b c/é' },
        { from: 'a', to: 'b_c__' },
        { from: 'a', to: 'x'.repeat(80) },
        { from: 'a', to: 'x'.repeat(80) },
        { from: 'a', to: 'y', toolName: 'escalate' },
      ],
    });
    const names = swarm.offered(swarm.createSession()).map((t) => t.name);
    assert.deepEqual(names, ['transfer_to_b_c__', 'transfer_to_b_c___2', `transfer_to_${'x'.repeat(52)}`, `transfer_to_${'x'.repeat(50)}_2`, 'escalate']);
    for (const name of names) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe('tool calls', () => {
  test('missing or invalid variables block the handoff with a reason for the model', () => {
    const swarm = support();
    const session = swarm.createSession();
    const blocked = swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: '{"urgency": "high"}' });
    assert.equal(blocked.type, 'handoff_blocked');
    assert.deepEqual(blocked.missing, ['ticketId']);
    assert.deepEqual(blocked.invalid, [{ name: 'urgency', expected: 'integer' }]);
    assert.match(blocked.rejectionReason, /^Cannot transfer to Human operator yet: the conversation has not established ticketId; urgency \(1 to 5\) must be an integer\. .*call transfer_to_human again\.$/);
    assert.equal(session.active, 'triage');
    assert.equal(session.hops, 0);
  });

  test('a valid call hands off, records the variables and counts the selection', () => {
    const swarm = support();
    const session = swarm.createSession({ variables: { ticketId: 'T-9' } });
    const outcome = swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: { urgency: 4, reason: 'asked for a person' } });
    assert.deepEqual(outcome, { type: 'handoff', via: 'tool', from: 'triage', to: 'human', tool: 'transfer_to_human', variables: { urgency: 4, ticketId: 'T-9' }, reason: 'asked for a person' });
    assert.deepEqual([session.active, session.hops, session.selections, session.variables.urgency], ['human', 1, { triage: 1 }, 4]);
    assert.equal(session.checkpoints.length, 1);
  });

  test('never a silent route: unknown tools, other agents\' tools, malformed arguments are rejected', () => {
    const swarm = support();
    const session = swarm.createSession({ variables: { ticketId: 'T' } });
    const reject = (call) => swarm.applyToolCall(session, call);
    assert.match(reject({ name: 'transfer_to_triage', arguments: {} }).reason, /not a tool of agent 'triage'/);
    assert.match(reject({ name: 'transfer_to_human', arguments: '{oops' }).reason, /not valid JSON/);
    assert.match(reject({ name: 'transfer_to_human', arguments: '[1]' }).reason, /must be a JSON object/);
    assert.match(reject({ name: 'transfer_to_human', arguments: { urgency: 1, extra: 1 } }).reason, /no argument 'extra'/);
    assert.match(reject({ name: 'transfer_to_human', arguments: { urgency: 1, reason: 5 } }).reason, /'reason' .* must be a string/);
    assert.equal(session.active, 'triage');
    assert.throws(() => swarm.applyToolCall(session, 'transfer_to_human'), TypeError);
  });

  test("limits: an agent's handoffs cap its selections; maxHops caps the session", () => {
    const swarm = new Swarm({
      maxHops: 3,
      agents: [{ id: 'a', entry: true, handoffs: 1 }, { id: 'b' }],
      edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }],
    });
    const session = swarm.createSession();
    assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_b' }).type, 'handoff');
    assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_a' }).type, 'handoff');
    assert.deepEqual(swarm.offered(session), [], 'a has used its one selection');
    assert.match(swarm.applyToolCall(session, { name: 'transfer_to_b' }).reason, /used all its handoffs/);
    const hops = new Swarm({ maxHops: 2, agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] });
    const s = hops.createSession();
    hops.applyToolCall(s, { name: 'transfer_to_b' });
    hops.applyToolCall(s, { name: 'transfer_to_a' });
    assert.deepEqual(hops.offered(s), []);
    assert.match(hops.applyToolCall(s, { name: 'transfer_to_b' }).reason, /used its 2 handoffs/);
  });
});

describe('rules', () => {
  test('rule edges fire on the session variables at zero tokens, and respect required variables', () => {
    const swarm = new Swarm({
      agents: [{ id: 'triage', entry: true }, { id: 'billing' }, { id: 'vip' }],
      edges: [
        { from: 'triage', to: 'vip', when: "tier == 'gold'", requires: ['accountId'] },
        { from: 'triage', to: 'billing', when: "category == 'billing'" },
      ],
    });
    const session = swarm.createSession({ variables: { tier: 'gold', category: 'billing' } });
    assert.deepEqual(swarm.applyRules(session), { type: 'handoff', via: 'rule', from: 'triage', to: 'billing', variables: {}, reason: null });
    const again = swarm.createSession({ variables: { tier: 'gold', accountId: 'A1' } });
    assert.equal(swarm.applyRules(again).to, 'vip');
    assert.equal(swarm.applyRules(again), null);
  });
});

describe('context policies', () => {
  const history = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
    { role: 'user', content: 'I need a refund' },
  ];
  for (const [context, expected] of [['full', history], ['last-user', [history[2]]], ['none', []]]) {
    test(`'${context}'`, () => {
      const swarm = new Swarm({ context, agents: [{ id: 'a', entry: true, instructions: 'A rules' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
      const session = swarm.createSession();
      session.histories.a = structuredClone(history);
      swarm.applyToolCall(session, { name: 'transfer_to_b' });
      assert.deepEqual(session.histories.b, expected);
    });
  }

  test('includeSystem carries the source instructions; custom policies by name', () => {
    const swarm = new Swarm(
      { agents: [{ id: 'a', entry: true, instructions: 'A rules' }, { id: 'b' }], edges: [{ from: 'a', to: 'b', context: 'lastTwo', includeSystem: true }] },
      { contexts: { lastTwo: (messages, info) => messages.slice(-2).map((m) => ({ ...m, via: `${info.from}>${info.to}` })) } },
    );
    const session = swarm.createSession();
    session.histories.a = structuredClone(history);
    swarm.applyToolCall(session, { name: 'transfer_to_b' });
    assert.deepEqual(session.histories.b, [
      { role: 'system', content: 'A rules', agent: 'a' },
      { ...history[1], via: 'a>b' },
      { ...history[2], via: 'a>b' },
    ]);
    assert.throws(() => new Swarm({ context: 'mystery', agents: [{ id: 'a' }] }), DefinitionError);
  });
});

describe('runTurn', () => {
  test('events: open, handoff_blocked fed back to the model, then a handoff and the new agent answers', async () => {
    const swarm = support();
    const session = swarm.createSession();
    const calls = [];
    const script = [
      { text: 'Let me transfer you.', toolCalls: [{ id: 'c1', name: 'transfer_to_human', arguments: '{"urgency": 5}' }] },
      { toolCalls: [{ id: 'c2', name: 'transfer_to_human', arguments: '{"urgency": 5}' }] },
      { text: 'Hi, a human here.' },
    ];
    const model = async (request) => {
      calls.push({ agent: request.agent.id, tools: request.tools.map((t) => t.function.name), last: request.messages.at(-1) });
      if (calls.length === 2) swarm.updateState(session, { ticketId: 'T-3' });
      return script.shift();
    };
    const events = [];
    for await (const event of swarm.runTurn(session, 'a person please', { model })) events.push(event);
    assert.deepEqual(events.map((e) => e.type), ['open', 'chunk', 'tool_use', 'handoff_blocked', 'tool_result', 'tool_use', 'handoff', 'tool_result', 'chunk', 'done']);
    assert.match(calls[1].last.content, /^Cannot transfer to Human operator yet/);
    assert.deepEqual(calls.map((c) => c.agent), ['triage', 'triage', 'human']);
    assert.equal(events.at(-1).agent, 'human');
    assert.equal(events.at(-1).text, 'Hi, a human here.');
    assert.deepEqual(session.histories.human.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  test('a rule that holds at the start of a turn hands off before any model call', async () => {
    const swarm = support();
    const session = swarm.createSession({ variables: { category: 'billing' } });
    const agents = [];
    const events = [];
    for await (const e of swarm.runTurn(session, 'my invoice', { model: ({ agent }) => (agents.push(agent.id), { text: 'ok' }) })) events.push(e.type);
    assert.deepEqual(events, ['open', 'handoff', 'chunk', 'done']);
    assert.deepEqual(agents, ['billing']);
  });

  test("a rule at the start of a turn takes the question along, even under 'none'", async () => {
    const swarm = new Swarm({ context: 'none', agents: [{ id: 'triage', entry: true }, { id: 'billing' }], edges: [{ from: 'triage', to: 'billing', when: "category == 'billing'" }] });
    const session = swarm.createSession({ variables: { category: 'billing' } });
    const seen = [];
    for await (const e of swarm.runTurn(session, 'my invoice is wrong', { model: (r) => (seen.push(r.messages), { text: 'ok' }) })) void e;
    assert.deepEqual(seen[0], [{ role: 'user', content: 'my invoice is wrong' }]);
  });

  test('calls after a transfer in the same response are answered "not run" before the history moves', async () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
    const session = swarm.createSession();
    const script = [{ toolCalls: [{ id: '1', name: 'transfer_to_b' }, { id: '2', name: 'transfer_to_b' }] }, { text: 'b here' }];
    const events = [];
    for await (const e of swarm.runTurn(session, 'x', { model: () => script.shift() })) events.push(e);
    const target = session.histories.b;
    const answered = target.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    assert.deepEqual(answered, ['1', '2'], 'every call in the carried history has its result');
    assert.match(target.find((m) => m.toolCallId === '2').content, /^Not run/);
    assert.equal(events.filter((e) => e.type === 'tool_use').length, 1);
    assert.equal(events.at(-1).reason, 'answered');
  });

  test('maxModelCalls bounds a turn; a session survives JSON', async () => {
    const swarm = support();
    const session = swarm.createSession();
    let n = 0;
    const model = () => ({ toolCalls: [{ id: `c${++n}`, name: 'transfer_to_nowhere', arguments: {} }] });
    let done;
    for await (const e of swarm.runTurn(session, 'x', { model, maxModelCalls: 3 })) done = e;
    assert.equal(n, 3);
    assert.equal(done.reason, 'max-model-calls');
    const copy = JSON.parse(JSON.stringify(session));
    assert.deepEqual(swarm.offered(copy), swarm.offered(session));
  });
});

test('definitions report problems with pointers', () => {
  assert.throws(
    () => new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'a' }], edges: [{ from: 'a', to: 'ghost', when: 'x = 1', toolName: 'bad name!' }] }),
    (error) => {
      assert.ok(error instanceof DefinitionError);
      assert.deepEqual(error.problems.map((p) => p.pointer), ['/agents/1/id', '/edges/0/to', '/edges/0/when', '/edges/0/toolName', '/edges/0/toolName']);
      return true;
    },
  );
});
