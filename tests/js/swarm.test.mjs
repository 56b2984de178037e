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
    assert.deepEqual(swarm.tools(session, 'ai-sdk'), { transfer_to_human: { description, inputSchema: schema, strict: true } });
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
    assert.deepEqual(outcome, { type: 'handoff', via: 'tool', from: 'triage', to: 'human', edge: 1, tool: 'transfer_to_human', requiredVariables: ['ticketId', 'urgency'], resolvedVariables: { urgency: 4, ticketId: 'T-9' }, variables: { urgency: 4, ticketId: 'T-9' }, reason: 'asked for a person' });
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
    assert.deepEqual(swarm.applyRules(session), { type: 'handoff', via: 'rule', from: 'triage', to: 'billing', edge: 1, requiredVariables: [], resolvedVariables: {}, variables: {}, reason: null });
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
    assert.deepEqual(events.filter((e) => e.type === 'tool_use').map((e) => e.call.id), ['1', '2'], 'the skipped call is reported too');
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

// ------------------------------------------------------------------------------------------
// Issue 13 (bug 3) and issue 20: each of these failed before its fix.

describe('the edge that fired is the core\'s to say (issue 13)', () => {
  test('of two rule edges a→b, the one that fired gives its context policy', () => {
    const swarm = new Swarm({
      agents: [{ id: 'a', entry: true }, { id: 'b' }],
      edges: [
        { from: 'a', to: 'b', when: 'x == 1', context: 'none' },
        { from: 'a', to: 'b', when: 'x == 2', context: 'full' },
      ],
    });
    const session = swarm.createSession({ variables: { x: 2 } });
    session.histories.a = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    assert.equal(swarm.applyRules(session).edge, 1);
    assert.deepEqual(session.histories.b, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
  });

  test('of two transfer tools a→b, the one called gives its policy, and a custom policy gets that edge', () => {
    const seen = [];
    const swarm = new Swarm(
      {
        agents: [{ id: 'a', entry: true, instructions: 'A' }, { id: 'b' }],
        edges: [
          { from: 'a', to: 'b', toolName: 'quick', context: 'none' },
          { from: 'a', to: 'b', toolName: 'careful', context: 'keep', includeSystem: true },
        ],
      },
      { contexts: { keep: (messages, { edge }) => (seen.push(edge), messages) } },
    );
    const session = swarm.createSession();
    session.histories.a = [{ role: 'user', content: 'hi' }];
    assert.equal(swarm.applyToolCall(session, { name: 'careful' }).edge, 1);
    assert.deepEqual(seen, [{ from: 'a', to: 'b', toolName: 'careful', context: 'keep', includeSystem: true }]);
    assert.deepEqual(session.histories.b, [{ role: 'system', content: 'A', agent: 'a' }, { role: 'user', content: 'hi' }]);
  });

  test('the entry agent is the one the core names, also when it is not the first', () => {
    const swarm = new Swarm({ agents: [{ id: 'x' }, { id: 'y', entry: true }], edges: [{ from: 'y', to: 'x' }] });
    assert.equal(swarm.createSession().active, 'y');
  });
});

// OpenAI's strict mode, written from its documentation and independently of the core's check:
// every object schema has additionalProperties: false and lists every property in `required`,
// recursively; composition other than anyOf is not allowed.
function strictProblems(schema, at = '') {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${at}: not a schema`];
  const problems = [];
  const types = [schema.type].flat();
  if (types.includes('object') || 'properties' in schema) {
    if (schema.additionalProperties !== false) problems.push(`${at}: additionalProperties is not false`);
    if (!Array.isArray(schema.required)) problems.push(`${at}: no required array`);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (!schema.required?.includes(name)) problems.push(`${at}/properties/${name}: not required`);
      problems.push(...strictProblems(property, `${at}/properties/${name}`));
    }
  }
  if ('items' in schema) problems.push(...strictProblems(schema.items, `${at}/items`));
  (schema.anyOf ?? []).forEach((branch, i) => problems.push(...strictProblems(branch, `${at}/anyOf/${i}`)));
  for (const group of ['$defs', 'definitions']) {
    for (const [name, s] of Object.entries(schema[group] ?? {})) problems.push(...strictProblems(s, `${at}/${group}/${name}`));
  }
  for (const keyword of ['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties']) {
    if (keyword in schema) problems.push(`${at}: ${keyword}`);
  }
  return problems;
}

describe('strict mode (issue 20, item 1)', () => {
  const agentTools = [
    { name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    {
      name: 'lookup',
      description: 'Find an order',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' }, page: { type: ['integer', 'null'] }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['orderId', 'page', 'tags'],
        additionalProperties: false,
      },
    },
    { name: 'ping', description: 'Is it up?' },
    { name: 'either', description: 'One of', parameters: { type: 'object', properties: { v: { oneOf: [{ type: 'string' }] } }, required: ['v'], additionalProperties: false } },
  ];
  const swarm = new Swarm({
    maxHops: 5,
    agents: [
      { id: 'triage', name: 'Triage', entry: true, tools: agentTools },
      { id: 'billing', name: 'Billing', tools: [{ name: 'refund', description: 'Refund', parameters: { type: 'object', properties: { o: { type: 'object', properties: {} } }, required: ['o'], additionalProperties: false } }] },
      { id: 'human' },
    ],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'", offer: true },
      { from: 'triage', to: 'human', requires: ['ticketId', { name: 'urgency', from: 'model', type: 'integer' }, { name: 'vip', from: 'model', type: 'boolean' }] },
      { from: 'billing', to: 'human', when: 'amount > 100', offer: true },
      { from: 'billing', to: 'triage' },
    ],
  });
  const sessions = [swarm.createSession({ variables: { category: 'billing' } }), swarm.createSession({ variables: { amount: 500 } })];
  swarm.applyToolCall(sessions[1], { name: 'transfer_to_billing' });
  const openaiTools = (session, format) => swarm.tools(session, format).map((t) => t.function ?? t);

  test('every tool marked strict meets the strict-mode rules; the others are sent as written with strict: false', () => {
    let strictCount = 0;
    for (const session of sessions) {
      for (const format of ['openai-chat', 'openai-responses']) {
        for (const tool of openaiTools(session, format)) {
          const problems = strictProblems(tool.parameters);
          assert.equal(tool.strict, problems.length === 0, `${format} ${tool.name}: strict ${tool.strict}, problems ${problems}`);
          strictCount += tool.strict ? 1 : 0;
        }
      }
      const aiSdk = swarm.tools(session, 'ai-sdk');
      const chat = openaiTools(session, 'openai-chat');
      assert.deepEqual(Object.entries(aiSdk).map(([name, t]) => [name, t.inputSchema, t.strict]), chat.map((t) => [t.name, t.parameters, t.strict]));
      assert.deepEqual(swarm.tools(session, 'anthropic').map((t) => [t.name, t.input_schema]), chat.map((t) => [t.name, t.parameters]));
    }
    assert.ok(strictCount >= 8, `${strictCount} strict tools checked`);
    const byName = Object.fromEntries(openaiTools(sessions[0], 'openai-chat').map((t) => [t.name, t]));
    assert.deepEqual(byName.search.parameters, agentTools[0].parameters, 'sent as written');
    assert.deepEqual([byName.search.strict, byName.lookup.strict, byName.ping.strict, byName.either.strict], [false, true, true, false]);
    assert.deepEqual(byName.ping.parameters, { type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  test("transfer tools are always strict, their optional 'reason' nullable", () => {
    for (const session of sessions) {
      for (const tool of openaiTools(session, 'openai-responses').filter((t) => t.name.startsWith('transfer_to_'))) {
        assert.deepEqual(strictProblems(tool.parameters), []);
        assert.equal(tool.strict, true);
        assert.deepEqual(tool.parameters.properties.reason.type, ['string', 'null']);
        for (const [name, property] of Object.entries(tool.parameters.properties)) {
          if (name !== 'reason') assert.ok(!([property.type].flat().includes('null')), `${name} is required, not optional`);
        }
      }
    }
  });

  test("with jsonSchema from 'ai', the AI SDK tools keep the core's strict verdict", () => {
    const wrapped = swarm.tools(sessions[0], 'ai-sdk', { jsonSchema: (schema) => ({ wrapped: schema }) });
    assert.deepEqual(Object.fromEntries(Object.entries(wrapped).map(([n, t]) => [n, t.strict])), { search: false, lookup: true, ping: true, either: false, transfer_to_billing: true, transfer_to_human: true });
    assert.deepEqual(wrapped.search.inputSchema, { wrapped: agentTools[0].parameters });
  });
});

describe('runTurn reports every call and what was stored (issue 20, items 2 and 3)', () => {
  test('a call after a transfer in the same response has its tool_use and a tool_result saying it was not run', async () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
    const session = swarm.createSession();
    const script = [{ toolCalls: [{ id: '1', name: 'transfer_to_b' }, { id: '2', name: 'lookup', arguments: { q: 1 } }] }, { text: 'b here' }];
    const events = [];
    for await (const e of swarm.runTurn(session, 'x', { model: () => script.shift() })) events.push(e);
    assert.deepEqual(events.map((e) => e.type), ['open', 'tool_use', 'handoff', 'tool_result', 'tool_use', 'tool_result', 'chunk', 'done']);
    assert.deepEqual(events[4], { type: 'tool_use', agent: 'a', call: { id: '2', name: 'lookup', arguments: { q: 1 } } });
    assert.deepEqual(events[5], {
      type: 'tool_result', agent: 'a', call: { id: '2', name: 'lookup', arguments: { q: 1 } },
      result: 'Not run: the conversation was transferred.', outcome: { type: 'not_run', reason: 'the conversation was transferred' },
    });
    assert.equal(session.histories.b.find((m) => m.toolCallId === '2').content, events[5].result);
  });

  test('calls made for an agent that is no longer active are reported as not run', async () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: 'go' }] });
    const session = swarm.createSession();
    const script = [{ toolCalls: [{ id: '1', name: 'anything' }] }, { text: 'b here' }];
    const model = () => (swarm.updateState(session, { go: true }), script.shift());
    const events = [];
    for await (const e of swarm.runTurn(session, 'x', { model })) events.push(e);
    const results = events.filter((e) => e.type === 'tool_result');
    assert.deepEqual(events.filter((e) => e.type === 'tool_use').map((e) => e.call.id), ['1']);
    assert.deepEqual(results.map((e) => [e.agent, e.outcome]), [['a', { type: 'not_run', reason: 'the conversation was transferred while this call was made' }]]);
  });

  test('a handoff reports the variables as the session stored them (normalized, reduced)', async () => {
    const definition = {
      agents: [{ id: 'a', entry: true }, { id: 'b' }],
      edges: [{ from: 'a', to: 'b', requires: [{ name: 'acct', from: 'model' }, { name: 'tags', from: 'model' }, 'region'] }],
    };
    const options = { state: { normalize: (key, value) => (key === 'acct' ? value.toUpperCase() : value) }, reducers: { tags: 'append' } };
    const swarm = new Swarm(definition, options);
    const session = swarm.createSession({ variables: { region: 'eu', tags: ['old'] } });
    const outcome = swarm.applyToolCall(session, { name: 'transfer_to_b', arguments: { acct: 'acme', tags: 'new' } });
    assert.deepEqual(outcome.variables, { acct: 'ACME', tags: ['old', 'new'], region: 'eu' });
    assert.deepEqual(outcome.variables, { acct: session.variables.acct, tags: session.variables.tags, region: session.variables.region });

    const turn = new Swarm(definition, options);
    const s = turn.createSession({ variables: { region: 'eu' } });
    const script = [{ toolCalls: [{ id: '1', name: 'transfer_to_b', arguments: '{"acct":"acme","tags":"t"}' }] }, { text: 'ok' }];
    const events = [];
    for await (const e of turn.runTurn(s, 'x', { model: () => script.shift() })) events.push(e);
    const handoff = events.find((e) => e.type === 'handoff');
    assert.deepEqual(handoff.variables, { acct: 'ACME', tags: ['t'], region: 'eu' });
    assert.deepEqual(events.find((e) => e.type === 'tool_result').outcome.variables, handoff.variables);
  });

  test('a state-sourced required variable is not merged again on a tool handoff (an append reducer keeps one copy)', () => {
    const swarm = new Swarm(
      { agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', requires: ['notes'] }] },
      { reducers: { notes: 'append' } },
    );
    const session = swarm.createSession({ variables: { notes: ['n1'] } });
    assert.equal(swarm.applyToolCall(session, { name: 'transfer_to_b' }).type, 'handoff');
    assert.deepEqual(session.variables.notes, ['n1']);
  });
});

describe('ids are kept exactly or refused (issue 20, item 5)', () => {
  test('ids that are not well-formed Unicode are a DefinitionError naming each', () => {
    assert.throws(
      () => new Swarm({ name: 'n\uDC00', agents: [{ id: '\uD800', entry: true }, { id: '\uDC00' }], edges: [{ from: '\uD800', to: '\uDC00', requires: ['v\uD800'], context: 'c\uD800' }] }),
      (error) => {
        assert.ok(error instanceof DefinitionError);
        assert.deepEqual(error.problems.map((p) => p.pointer), ['/name', '/agents/0/id', '/agents/1/id', '/edges/0/from', '/edges/0/to', '/edges/0/requires/0', '/edges/0/context']);
        assert.match(error.problems[1].message, /lone surrogate at index 0.*not well-formed Unicode/);
        return true;
      },
    );
    assert.throws(() => new Swarm({ agents: [{ id: 'a' }], edges: [{ from: 'a', to: 'b', requires: [{ name: '\uD800x' }] }] }), (e) => e.problems[0].pointer === '/edges/0/requires/0/name');
  });

  test('well-formed ids (astral characters included) are kept exactly', () => {
    const id = 'agent 😀 é';
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id }], edges: [{ from: 'a', to: id }] });
    const session = swarm.createSession();
    swarm.applyToolCall(session, { name: swarm.offered(session)[0].name });
    assert.equal(session.active, id);
    assert.equal(swarm.agent(id).id, id);
    assert.equal(swarm.toJSON().agents[1].id, id);
  });
});

describe('the question of a turn and start-of-turn rules (issue 20, item 6)', () => {
  // Turn 1 happens at triage; before turn 2, extractVariables reads the input and a rule hands the
  // conversation to billing: the rules run first, then the question goes to billing's history.
  const definition = {
    agents: [{ id: 'triage', entry: true, instructions: 'You triage.' }, { id: 'billing', instructions: 'You bill.' }],
    edges: [{ from: 'triage', to: 'billing', when: "category == 'billing'" }],
  };
  const earlier = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
  const question = { role: 'user', content: 'my invoice is wrong' };
  const cases = [
    ['full', {}, [...earlier, question]],
    ['last-user', {}, [earlier[0], question]],
    ['none', {}, [question]],
    ['assistantOnly', { contexts: { assistantOnly: (messages) => messages.filter((m) => m.role === 'assistant') } }, [earlier[1], question]],
    ['none', { includeSystem: true }, [{ role: 'system', content: 'You triage.', agent: 'triage' }, question]],
  ];
  for (const [context, extra, expected] of cases) {
    test(`${context}${extra.includeSystem ? ' + includeSystem' : ''}: the target gets what the policy carries, then the question; the source keeps its history`, async () => {
      const { includeSystem, ...options } = extra;
      const swarm = new Swarm(
        { ...definition, context, ...(includeSystem ? { includeSystem } : {}) },
        { ...options, extractVariables: (input) => (input.includes('invoice') ? { category: 'billing' } : {}) },
      );
      const session = swarm.createSession();
      const seen = [];
      const model = ({ agent, messages }) => (seen.push([agent.id, messages]), { text: 'hello' });
      for await (const e of swarm.runTurn(session, 'hi', { model })) void e;
      for await (const e of swarm.runTurn(session, question.content, { model })) void e;
      assert.deepEqual(seen[1], ['billing', [{ role: 'system', content: 'You bill.' }, ...expected]]);
      assert.deepEqual(session.histories.triage, earlier);
      assert.deepEqual(session.histories.billing, [...expected, { role: 'assistant', content: 'hello' }]);
    });
  }
});

test("the default tool and 'reason' descriptions name the target by its name, else its id (issue 20, also)", () => {
  const swarm = new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b', name: 'Billing' }, { id: 'c' }], edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }] });
  const [b, c] = swarm.tools(swarm.createSession(), 'openai-responses');
  assert.deepEqual([b.description, b.parameters.properties.reason.description], ['Hand the conversation over to Billing.', 'Why the conversation should go to Billing (optional).']);
  assert.deepEqual([c.description, c.parameters.properties.reason.description], ['Hand the conversation over to c.', 'Why the conversation should go to c (optional).']);
});

describe('values, not live views', () => {
  test('outcomes of applyToolCall and applyRules share nothing with the session', () => {
    const swarm = new Swarm({
      agents: [{ id: 'a', entry: true }, { id: 'b' }, { id: 'c' }],
      edges: [{ from: 'a', to: 'b', requires: [{ name: 'order', from: 'model', type: 'string' }, 'profile'] }, { from: 'b', to: 'c', when: 'profile.vip', requires: ['profile'] }],
    });
    const session = swarm.createSession({ variables: { profile: { vip: true, tags: ['x'] } } });
    const outcome = swarm.applyToolCall(session, { name: 'transfer_to_b', arguments: { order: 'o1' } });
    const rule = swarm.applyRules(session);
    const kept = structuredClone([outcome, rule]);
    session.variables.profile.tags.push('changed');
    session.variables.order = 'changed';
    for (const c of session.checkpoints) c.outcome.variables.profile.vip = 'changed';
    assert.deepEqual([outcome, rule], kept, 'mutating the session changes no outcome');
    outcome.variables.profile.tags.push('y');
    rule.variables.profile = null;
    assert.deepEqual(session.checkpoints.map((c) => c.outcome.variables.profile.tags), [['x'], ['x']]);
  });

  test('events of runTurn are fixed when yielded; done carries the session itself', async () => {
    const swarm = new Swarm(
      {
        agents: [{ id: 'a', entry: true, tools: [{ name: 'note', description: 'Note' }] }, { id: 'b' }],
        edges: [{ from: 'a', to: 'b', requires: [{ name: 'order', from: 'model' }] }],
      },
      { handlers: { note: (args) => ((args.touched = true), 'noted') } },
    );
    const session = swarm.createSession();
    const calls = [{ id: '1', name: 'note', arguments: { n: 1 } }, { id: '2', name: 'transfer_to_b', arguments: { order: 'o' } }];
    const script = [{ text: 't', toolCalls: calls }, { text: 'b' }];
    const events = [];
    const kept = [];
    for await (const e of swarm.runTurn(session, 'x', { model: () => script.shift() })) {
      events.push(e);
      const { session: s, ...rest } = e;
      kept.push(structuredClone(rest));
    }
    assert.equal(events.at(-1).session, session, 'done carries the session that runTurn was given');
    calls[0].arguments.n = 'changed by the model function';
    for (const c of session.checkpoints) {
      if (c.outcome) c.outcome.variables.order = 'changed';
      if (c.arguments) c.arguments.n = 'changed';
    }
    session.variables.order = 'changed';
    assert.deepEqual(events.map(({ session: s, ...rest }) => rest), kept);
    assert.deepEqual(session.checkpoints[0].arguments, { n: 'changed' });
    assert.equal(events.find((e) => e.type === 'tool_result').call.arguments.touched, undefined, "a handler's change to its arguments is not in the event");
  });

  test('agents, edges and messages handed out are copies', () => {
    const swarm = new Swarm({ agents: [{ id: 'a', entry: true, instructions: 'A' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] });
    const session = swarm.createSession();
    swarm.agent('a').instructions = 'changed';
    assert.equal(swarm.instructions(session), 'A');
    session.histories.a.push({ role: 'user', content: 'hi' });
    swarm.messages(session)[1].content = 'changed';
    assert.equal(session.histories.a[0].content, 'hi');
  });
});

test("a variable named '__proto__' stays a plain variable through a handoff", () => {
  const swarm = new Swarm(
    { agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', requires: [{ name: '__proto__', from: 'model' }] }] },
    { state: { normalize: (key, value) => value.toUpperCase() } },
  );
  const session = swarm.createSession();
  const outcome = swarm.applyToolCall(session, { name: 'transfer_to_b', arguments: '{"__proto__": "x"}' });
  assert.equal(outcome.type, 'handoff');
  assert.deepEqual(Object.getOwnPropertyDescriptor(outcome.variables, '__proto__').value, 'X');
  assert.equal(Object.getPrototypeOf(outcome.variables), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(session.variables, '__proto__').value, 'X');
});
