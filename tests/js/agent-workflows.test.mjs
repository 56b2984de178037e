// Agents that are workflows and agents as tools (issue 18): a Swarm agent whose turn is a
// StateMachine run (options.workflows), and an agent offered to another as a tool, run as a nested
// conversation (options.agentTools). Scripted model functions, end to end through runTurn; bad
// options; abort; failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { init, Swarm, StateMachine, END, DefinitionError } from 'handoff-graph';

await init();

const scripted = (responses, seen = []) => async (request) => {
  seen.push(request);
  const next = responses.shift();
  if (typeof next === 'function') return next(request);
  return next ?? { text: 'done' };
};

const collect = async (events) => {
  const out = [];
  for await (const e of events) out.push(e);
  return out;
};

// triage hands researcher questions over by rule; researcher is a workflow.
const desk = (options) => new Swarm({
  name: 'desk',
  agents: [
    { id: 'triage', entry: true, instructions: 'You route.' },
    { id: 'researcher', visibleVariables: ['topic'] },
  ],
  edges: [
    { from: 'triage', to: 'researcher', when: 'topic != null and done != true' },
    { from: 'researcher', to: 'triage', when: 'done == true' },
  ],
}, options);

const research = () => new StateMachine({ name: 'research', start: 'search' })
  .addState('search', (ctx) => ({ notes: `notes on ${ctx.state.topic} for "${ctx.state.input}"` }))
  .addState('write', (ctx) => ({ answer: `Answer: ${ctx.state.notes}` }))
  .addEdge('search', 'write')
  .addEdge('write', END);

test('a workflow agent answers with its machine: steps as events, the answer in its history, no model call', async () => {
  const swarm = desk({ workflows: { researcher: research() } });
  const session = swarm.createSession({ variables: { topic: 'otters', secret: 'x' } });
  const seen = [];
  const events = await collect(swarm.runTurn(session, 'how do otters sleep?', { model: scripted([], seen) }));
  assert.equal(seen.length, 0);
  assert.deepEqual(events.map((e) => e.type), ['open', 'handoff', 'workflow_step', 'workflow_step', 'workflow_done', 'chunk', 'done']);
  const steps = events.filter((e) => e.type === 'workflow_step');
  assert.deepEqual(steps.map((e) => [e.agent, e.machine, e.step.state, e.step.next]), [['researcher', 'research', 'search', 'write'], ['researcher', 'research', 'write', END]]);
  assert.deepEqual(events[4], { type: 'workflow_done', agent: 'researcher', machine: 'research', reason: 'end', stepsRun: 2 });
  const done = events.at(-1);
  // visibleVariables: the machine saw topic, not secret.
  assert.equal(done.text, 'Answer: notes on otters for "how do otters sleep?"');
  assert.equal(done.reason, 'answered');
  assert.equal(done.agent, 'researcher');
  assert.deepEqual(session.histories.researcher, [{ role: 'user', content: 'how do otters sleep?' }, { role: 'assistant', content: done.text }]);
  // A plain JSON session still.
  assert.deepEqual(JSON.parse(JSON.stringify(session)), session);
});

test('input, output and variables mappings; the rules after the answer apply', async () => {
  let given;
  const machine = new StateMachine({ name: 'echo', start: 'only' })
    .addState('only', (ctx) => ({ result: ctx.state.question.toUpperCase(), finished: true }))
    .addEdge('only', END);
  const swarm = desk({
    workflows: {
      researcher: {
        machine,
        input: (ctx) => ((given = ctx), { question: ctx.input }),
        output: (state) => `${state.result}!`,
        variables: (state) => ({ done: state.finished }),
      },
    },
  });
  const session = swarm.createSession({ variables: { topic: 't' } });
  const events = await collect(swarm.runTurn(session, 'hi', { model: scripted([]) }));
  assert.deepEqual(Object.keys(given).sort(), ['agent', 'input', 'variables']);
  assert.equal(given.agent.id, 'researcher');
  assert.deepEqual(given.variables, { topic: 't' });
  const handoffs = events.filter((e) => e.type === 'handoff');
  assert.deepEqual(handoffs.map((h) => [h.from, h.to]), [['triage', 'researcher'], ['researcher', 'triage']]);
  assert.equal(events.at(-1).text, 'HI!');
  assert.equal(session.active, 'triage');
  assert.equal(session.variables.done, true);
});

test('a handoff by a model to a workflow agent: the workflow answers in the same turn', async () => {
  const swarm = new Swarm({
    agents: [{ id: 'front', entry: true }, { id: 'researcher' }],
    edges: [{ from: 'front', to: 'researcher' }],
  }, { workflows: { researcher: research() } });
  const session = swarm.createSession({ variables: { topic: 'moss' } });
  const seen = [];
  const model = scripted([{ toolCalls: [{ id: 'c1', name: 'transfer_to_researcher', arguments: { reason: null } }] }], seen);
  const events = await collect(swarm.runTurn(session, 'moss?', { model }));
  assert.equal(seen.length, 1);
  assert.equal(events.at(-1).text, 'Answer: notes on moss for "moss?"');
  assert.equal(events.at(-1).agent, 'researcher');
});

test('output guardrails check a workflow answer', async () => {
  const swarm = desk({ workflows: { researcher: research() }, outputGuardrails: { researcher: (text) => ({ tripped: text.includes('otters'), reason: 'no otters' }) } });
  const session = swarm.createSession({ variables: { topic: 'otters' } });
  const events = await collect(swarm.runTurn(session, 'q', { model: scripted([]) }));
  assert.deepEqual(events.at(-1).reason, 'guardrail-tripped');
  assert.equal(events.find((e) => e.type === 'guardrail_tripped').reason, 'no otters');
  assert.deepEqual(session.histories.researcher, [{ role: 'user', content: 'q' }]);
});

test('a failing machine fails the turn like a failing model call: error event, session restored and marked failed', async () => {
  const failing = new StateMachine({ name: 'broken', start: 'a' }).addState('a', () => {
    throw new Error('the index is down');
  }).addEdge('a', END);
  const swarm = desk({ workflows: { researcher: failing } });
  const session = swarm.createSession({ variables: { topic: 'x' } });
  const before = structuredClone(session);
  const events = [];
  await assert.rejects(async () => {
    for await (const e of swarm.runTurn(session, 'q', { model: scripted([]) })) events.push(e);
  }, /the index is down/);
  assert.deepEqual(events.at(-1), { type: 'error', agent: 'researcher', source: 'workflow', message: 'the index is down' });
  assert.equal(session.status, 'failed');
  const { status, error, ...rest } = session;
  assert.deepEqual(rest, before);
  assert.equal(error, 'the index is down');
});

test('an answer that is not a string fails the turn, saying where the answer comes from', async () => {
  const machine = new StateMachine({ start: 'a' }).addState('a', () => ({ answer: 42 })).addEdge('a', END);
  const swarm = desk({ workflows: { researcher: machine } });
  const session = swarm.createSession({ variables: { topic: 'x' } });
  await assert.rejects(collect(swarm.runTurn(session, 'q', { model: scripted([]) })), /workflow of agent 'researcher': the answer must be a string \(the final state's 'answer'.*got number 42/);
  const noState = desk({ workflows: { researcher: { machine: research(), input: () => 'nope' } } });
  await assert.rejects(collect(noState.runTurn(noState.createSession({ variables: { topic: 'x' } }), 'q', { model: scripted([]) })), /input must return an object/);
});

test('an abort reaches the machine: its handlers see the signal, the turn rejects, the session is as before', async () => {
  const controller = new AbortController();
  let sawSignal;
  const machine = new StateMachine({ start: 'a', name: 'slow' })
    .addState('a', (ctx) => {
      sawSignal = ctx.signal;
      controller.abort(new Error('user stopped'));
      return { answer: 'partial' };
    })
    .addState('b', () => ({ answer: 'never' }))
    .addEdge('a', 'b')
    .addEdge('b', END);
  let ranB = false;
  const swarm = desk({ workflows: { researcher: { machine, output: (state) => ((ranB = state.answer === 'never'), state.answer) } } });
  const session = swarm.createSession({ variables: { topic: 'x' } });
  const before = structuredClone(session);
  const events = [];
  await assert.rejects(async () => {
    for await (const e of swarm.runTurn(session, 'q', { model: scripted([]), signal: controller.signal })) events.push(e);
  }, /user stopped/);
  assert.equal(sawSignal, controller.signal);
  assert.equal(ranB, false);
  assert.deepEqual(session, before);
  assert.equal(events.some((e) => e.type === 'error'), false);
});

// A manager that may ask a researcher (an agent tool); the researcher has its own tool.
const managed = (options, researcherTools = [{ name: 'search', description: 'Search the web' }]) => new Swarm({
  name: 'managed',
  agents: [
    {
      id: 'manager', entry: true, instructions: 'You manage.',
      tools: [{ name: 'ask_researcher', description: 'Ask the researcher', parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false } }],
    },
    { id: 'researcher', instructions: 'You research.', tools: researcherTools },
    { id: 'human' },
  ],
  edges: [{ from: 'manager', to: 'human' }, { from: 'researcher', to: 'human' }],
}, options);

test('an agent as a tool: a nested conversation with its own model calls and history, its answer the tool result', async () => {
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' }, handlers: { search: ({ q }) => `results for ${q}` } });
  const session = swarm.createSession();
  const seen = [];
  const model = scripted([
    { toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'find otter facts' } }] },
    { toolCalls: [{ id: 'r1', name: 'search', arguments: { q: 'otters' } }] },
    { text: 'Otters hold hands.' },
    { text: 'The researcher says: otters hold hands.' },
  ], seen);
  const events = await collect(swarm.runTurn(session, 'tell me about otters', { model }));
  assert.deepEqual(seen.map((r) => r.agent.id), ['manager', 'researcher', 'researcher', 'manager']);
  // The nested conversation: its own instructions and history, its own tools but no transfers.
  assert.deepEqual(seen[1].messages, [{ role: 'system', content: 'You research.' }, { role: 'user', content: 'find otter facts' }]);
  assert.deepEqual(seen[1].tools.map((t) => t.function.name), ['search']);
  assert.deepEqual(seen[2].messages.slice(-1), [{ role: 'tool', toolCallId: 'r1', name: 'search', content: 'results for otters' }]);
  assert.deepEqual(seen[0].tools.map((t) => t.function.name), ['ask_researcher', 'transfer_to_human']);
  const result = events.find((e) => e.type === 'tool_result');
  assert.equal(result.result, 'Otters hold hands.');
  assert.equal(result.agent, 'manager');
  assert.equal(events.at(-1).text, 'The researcher says: otters hold hands.');
  assert.equal(session.active, 'manager');
  assert.equal(session.hops, 0);
  assert.deepEqual(session.histories.researcher, []);
  assert.equal(session.histories.manager.at(-2).content, 'Otters hold hands.');
  assert.equal(session.checkpoints.at(-1).by, 'agent');
});

test('a nested agent cannot hand off: a transfer call is answered as not run, the active agent stays', async () => {
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' }, mocks: { search: 'nothing' } });
  const session = swarm.createSession();
  const seen = [];
  const model = scripted([
    { toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'q' } }] },
    { toolCalls: [{ id: 'r1', name: 'transfer_to_human', arguments: { reason: null } }] },
    { text: 'I could not transfer.' },
    { text: 'ok' },
  ], seen);
  await collect(swarm.runTurn(session, 'x', { model }));
  assert.match(seen[2].messages.at(-1).content, /Not run: researcher is answering as a tool and cannot transfer/);
  assert.equal(session.active, 'manager');
  assert.equal(session.hops, 0);
});

test('an agent tool without an input argument gets its arguments as JSON text; the budget bounds the nested conversation', async () => {
  const swarm = new Swarm({
    agents: [
      { id: 'boss', entry: true, tools: [{ name: 'consult', description: 'Consult', parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } }] },
      { id: 'expert', tools: [{ name: 'think', description: 'Think' }] },
    ],
    edges: [],
  }, { agentTools: { consult: 'expert' }, mocks: { think: 'hmm' } });
  const session = swarm.createSession();
  const seen = [];
  const model = async (request) => {
    seen.push(request);
    if (request.agent.id === 'expert') return { text: `thinking ${seen.length}`, toolCalls: [{ id: `t${seen.length}`, name: 'think', arguments: {} }] };
    return seen.length === 1 ? { toolCalls: [{ id: 'b1', name: 'consult', arguments: { n: 7 } }] } : { text: 'fine' };
  };
  const events = await collect(swarm.runTurn(session, 'go', { model, maxModelCalls: 3 }));
  assert.equal(seen[1].messages.at(-1).content, '{"n":7}');
  // Three nested calls (its own budget), its last text returned.
  assert.equal(seen.filter((r) => r.agent.id === 'expert').length, 3);
  assert.equal(events.find((e) => e.type === 'tool_result').result, 'thinking 4');
});

test('a workflow agent as a tool: its machine runs, its answer is the tool result', async () => {
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' }, workflows: { researcher: { machine: research(), input: ({ input }) => ({ topic: 'bees', input }) } } });
  const session = swarm.createSession();
  const seen = [];
  const events = await collect(swarm.runTurn(session, 'x', { model: scripted([{ toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'pollen?' } }] }, { text: 'done' }], seen) }));
  assert.equal(seen.length, 2);
  assert.equal(events.find((e) => e.type === 'tool_result').result, 'Answer: notes on bees for "pollen?"');
  // Its steps, then its answer, reported inside the call.
  assert.deepEqual(events.filter((e) => e.type === 'agent_tool').map((e) => [e.agent, e.tool, e.callId, e.event.type, e.event.agent]), [
    ['manager', 'ask_researcher', 'm1', 'workflow_step', 'researcher'],
    ['manager', 'ask_researcher', 'm1', 'workflow_step', 'researcher'],
    ['manager', 'ask_researcher', 'm1', 'workflow_done', 'researcher'],
    ['manager', 'ask_researcher', 'm1', 'chunk', 'researcher'],
  ]);
});

test('a failing nested model call fails the turn as the tool', async () => {
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' } });
  const session = swarm.createSession();
  const before = structuredClone(session);
  const model = scripted([{ toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'q' } }] }, () => {
    throw new Error('rate limited');
  }]);
  const events = [];
  await assert.rejects(async () => {
    for await (const e of swarm.runTurn(session, 'x', { model })) events.push(e);
  }, /rate limited/);
  assert.deepEqual(events.at(-1), { type: 'error', agent: 'manager', source: 'tool', tool: 'ask_researcher', message: 'rate limited' });
  const { status, error, ...rest } = session;
  assert.deepEqual(rest, before);
});

test('an abort reaches the nested conversation', async () => {
  const controller = new AbortController();
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' } });
  const session = swarm.createSession();
  const before = structuredClone(session);
  let nestedSignal;
  const model = scripted([{ toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'q' } }] }, (request) => {
    nestedSignal = request.signal;
    controller.abort(new Error('stop'));
    return { toolCalls: [{ id: 'r1', name: 'search', arguments: {} }] };
  }]);
  await assert.rejects(collect(swarm.runTurn(session, 'x', { model, signal: controller.signal })), /stop/);
  assert.equal(nestedSignal, controller.signal);
  assert.deepEqual(session, before);
});

test('bad options: types, unknown agents and tools, a tool bound twice, cycles', () => {
  assert.throws(() => desk({ workflow: {} }), /unknown option 'workflow' \(did you mean 'workflows'\?\)/);
  assert.throws(() => desk({ workflows: [] }), /options.workflows must be an object/);
  assert.throws(() => desk({ workflows: { researcher: {} } }), /options.workflows.researcher must be a StateMachine or \{ machine/);
  // A StateMachine is what its constructor made (js/machine-brand.js), not what has its prototype.
  assert.throws(() => desk({ workflows: { researcher: Object.create(StateMachine.prototype) } }), /options.workflows.researcher must be a StateMachine or \{ machine/);
  assert.throws(() => desk({ workflows: { researcher: { machine: Object.create(StateMachine.prototype) } } }), /must be a StateMachine/);
  assert.throws(() => desk({ workflows: { researcher: { machine: research(), ouput: () => '' } } }), /options.workflows.researcher: unknown option 'ouput' \(did you mean 'output'\?\)/);
  assert.throws(() => desk({ workflows: { researcher: { machine: research(), output: 'answer' } } }), /options.workflows.researcher.output must be a function/);
  assert.throws(() => desk({ workflows: { writer: research() } }), (error) => error instanceof DefinitionError && /options.workflows.writer: no agent 'writer' in the definition/.test(error.message));
  assert.throws(() => managed({ agentTools: 'researcher' }), /options.agentTools must be an object/);
  assert.throws(() => managed({ agentTools: { ask_researcher: { agent: 'researcher' } } }), /options.agentTools.ask_researcher must be an agent id/);
  assert.throws(() => managed({ agentTools: { ask_writer: 'researcher' } }), /options.agentTools.ask_writer: no tool 'ask_writer' in the definition/);
  assert.throws(() => managed({ agentTools: { ask_researcher: 'writer' } }), /options.agentTools.ask_researcher: no agent 'writer' in the definition/);
  assert.throws(() => managed({ agentTools: { ask_researcher: 'researcher' }, handlers: { ask_researcher: () => '' } }), /the tool also has a handler/);
  // An agent asking itself, and a two-agent cycle.
  assert.throws(() => managed({ agentTools: { ask_researcher: 'manager' } }), /the agent tools form a cycle \(manager \(ask_researcher\) -> manager\)/);
  assert.throws(() => managed({ agentTools: { ask_researcher: 'researcher', search: 'manager' } }), /cycle \(manager \(ask_researcher\) -> researcher \(search\) -> manager\)/);
  // A chain is fine: manager -> researcher -> human.
  const chain = managed({ agentTools: { ask_researcher: 'researcher', search: 'human' } });
  chain.dispose();
});

test('a workflow agent answers even when the turn allows no model call', async () => {
  const swarm = desk({ workflows: { researcher: research() } });
  const session = swarm.createSession({ variables: { topic: 'ants' } });
  const events = await collect(swarm.runTurn(session, 'q', { model: scripted([]), maxModelCalls: 0 }));
  assert.equal(events.at(-1).reason, 'answered');
  assert.equal(events.at(-1).text, 'Answer: notes on ants for "q"');
});

test('agent tools chain (manager -> researcher -> human), with dynamic instructions; a streamed nested answer; approval tools not run', async () => {
  const swarm = new Swarm({
    agents: [
      { id: 'manager', entry: true, tools: [{ name: 'ask_researcher', description: 'Ask the researcher' }] },
      { id: 'researcher', tools: [{ name: 'ask_human', description: 'Ask a person' }, { name: 'delete_all', description: 'Dangerous', approval: true }] },
      { id: 'human' },
    ],
    edges: [],
  }, {
    agentTools: { ask_researcher: 'researcher', ask_human: 'human' },
    instructions: { human: ({ state }) => `You are ${state.name}.` },
    handlers: { delete_all: () => 'deleted' },
  });
  const session = swarm.createSession({ variables: { name: 'Sam' } });
  const seen = [];
  const model = scripted([
    { toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: {} }] },
    { toolCalls: [{ id: 'r1', name: 'delete_all', arguments: {} }, { id: 'r2', name: 'ask_human', arguments: { input: 'who?' } }] },
    async function* () {
      yield { type: 'text-delta', delta: 'It is ' };
      yield { type: 'text-delta', delta: 'Sam.' };
    },
    { text: 'The person says: It is Sam.' },
    { text: 'Done.' },
  ], seen);
  const events = await collect(swarm.runTurn(session, 'go', { model }));
  assert.deepEqual(seen.map((r) => r.agent.id), ['manager', 'researcher', 'human', 'researcher', 'manager']);
  assert.equal(seen[1].messages.at(-1).content, '{}');
  assert.deepEqual(seen[2].messages, [{ role: 'system', content: 'You are Sam.' }, { role: 'user', content: 'who?' }]);
  assert.deepEqual(seen[3].messages.slice(-2).map((m) => m.content), [
    "Not run: delete_all needs a person's approval, which an agent answering as a tool cannot ask for.",
    'It is Sam.',
  ]);
  assert.equal(events.find((e) => e.type === 'tool_result').result, 'The person says: It is Sam.');
  // Chunks of nested conversations are not chunks of the turn: they come wrapped, as agent_tool events.
  assert.deepEqual(events.filter((e) => e.type === 'chunk').map((e) => e.agent), ['manager']);
  // What each nested conversation did, one agent_tool wrapper per level: the researcher's calls,
  // the person's streamed answer inside the researcher's call of ask_human.
  const unwrap = (event) => (event.type === 'agent_tool' ? [`${event.agent}>${event.tool}(${event.callId})`, ...unwrap(event.event)] : [event.type, event.agent, event.result ?? event.text ?? event.call?.name]);
  assert.deepEqual(events.filter((e) => e.type === 'agent_tool').map((e) => unwrap(e).join(' ')), [
    'manager>ask_researcher(m1) tool_use researcher delete_all',
    "manager>ask_researcher(m1) tool_result researcher Not run: delete_all needs a person's approval, which an agent answering as a tool cannot ask for.",
    'manager>ask_researcher(m1) tool_use researcher ask_human',
    'manager>ask_researcher(m1) researcher>ask_human(r2) chunk human It is ',
    'manager>ask_researcher(m1) researcher>ask_human(r2) chunk human Sam.',
    'manager>ask_researcher(m1) tool_result researcher It is Sam.',
    'manager>ask_researcher(m1) chunk researcher The person says: It is Sam.',
  ]);
  // In order: between the caller's tool_use and tool_result of that call.
  const types = events.map((e) => e.type);
  assert.deepEqual(types.slice(types.indexOf('tool_use'), types.indexOf('tool_result') + 1), ['tool_use', ...Array(7).fill('agent_tool'), 'tool_result']);
  const refused = events.find((e) => e.type === 'agent_tool' && e.event.type === 'tool_result').event;
  assert.deepEqual(refused.outcome, { type: 'not_run', reason: "delete_all needs a person's approval, which an agent answering as a tool cannot ask for" });
  assert.equal(session.approvals, undefined);
  assert.equal(session.active, 'manager');
});

test("a consumer that stops during a nested conversation stops the nested model's stream", async () => {
  const swarm = managed({ agentTools: { ask_researcher: 'researcher' } });
  const session = swarm.createSession();
  let closed = false;
  const model = scripted([
    { toolCalls: [{ id: 'm1', name: 'ask_researcher', arguments: { input: 'q' } }] },
    async function* () {
      try {
        yield { type: 'text-delta', delta: 'first ' };
        yield { type: 'text-delta', delta: 'second' };
      } finally {
        closed = true;
      }
    },
  ]);
  for await (const event of swarm.runTurn(session, 'x', { model })) {
    if (event.type === 'agent_tool' && event.event.type === 'chunk') break;
  }
  assert.equal(closed, true);
});

test('adversarial keys in the options are refused, never reach the prototype chain', () => {
  assert.throws(() => desk({ workflows: JSON.parse('{"__proto__": {"machine": 1}}') }), /options.workflows.__proto__ must be a StateMachine/);
  assert.throws(() => desk({ workflows: JSON.parse('{"constructor": null}') }), /options.workflows.constructor/);
  assert.throws(() => managed({ agentTools: JSON.parse('{"__proto__": "researcher"}') }), /options.agentTools.__proto__: no tool '__proto__'/);
  assert.throws(() => managed({ agentTools: { toString: 'researcher' } }), /no tool 'toString'/);
  assert.equal({}.machine, undefined);
});

test('one machine serves concurrent turns of several sessions, each its own run', async () => {
  const machine = new StateMachine({ name: 'slow', start: 'a' })
    .addState('a', async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, ctx.state.wait));
      return { answer: `${ctx.state.topic} after ${ctx.state.wait}` };
    })
    .addEdge('a', END);
  const swarm = desk({ workflows: { researcher: { machine, input: ({ input, variables }) => ({ ...variables, wait: Number(input) }) } } });
  const sessions = ['a', 'b', 'c'].map((topic) => swarm.createSession({ variables: { topic } }));
  const turns = await Promise.all(sessions.map((s, i) => collect(swarm.runTurn(s, String([20, 0, 10][i]), { model: scripted([]) }))));
  assert.deepEqual(turns.map((events) => events.at(-1).text), ['a after 20', 'b after 0', 'c after 10']);
  assert.deepEqual(sessions.map((s) => s.histories.researcher.at(-1).content), ['a after 20', 'b after 0', 'c after 10']);
});
