// Replays (issue 34, docs/replay.md): sessions recorded through the real trace log (traceLogPath)
// with scripted models, tools, approvals, workflows, agent tools, queued intents, guardrails and
// failures replay `same` against the unchanged definition, and report the right first divergence
// after each kind of change (a rule's condition, an edge's order, a limit, a required variable, a
// removed agent, a workflow's edge); machine runs likewise from their log, their result and their
// durable record; recordings that are not ones are clear errors with their pointer.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { END, init, RecordingError, StateMachine, Swarm } from 'handoff-graph';
import { MemoryStore } from 'handoff-graph/stores/memory';

await init();

let dir;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-replay-'));
});
after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));

let files = 0;
const logFile = () => path.join(dir, `log-${++files}.jsonl`);
const readLines = async (file) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line));

async function drain(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

// A scripted model: one answer per call, in order.
const scripted = (answers) => () => answers.shift() ?? { text: '(script exhausted)' };
// The position of the `n`th line of `type` in turn `turn` of a recording (a turn's update lines,
// the host's changes before it, are its own): what a divergence's `line` names.
const turnOf = (lines, i) => lines.slice(0, i).filter((l) => l.type === 'open').length + (lines[i].type === 'open' || lines[i].type === 'update' ? 1 : 0);
const lineOf = (lines, turn, type, n = 1) => lines.map((_, i) => i).filter((i) => lines[i].type === type && turnOf(lines, i) === turn)[n - 1];

// The triage swarm of docs/handoffs.md, with a billing tool that sets a variable.
const SUPPORT = {
  name: 'support',
  maxHops: 6,
  agents: [
    { id: 'triage', entry: true, handoffs: 2 },
    { id: 'billing', tools: [{ name: 'lookup', description: 'Look an invoice up', parameters: { type: 'object', properties: { invoice: { type: 'string' } } } }] },
    { id: 'human', name: 'Human operator' },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    { from: 'triage', to: 'human', requires: [{ name: 'ticketId', from: 'model', type: 'string' }] },
    { from: 'billing', to: 'human', when: 'amount > 100', offer: true },
    { from: 'billing', to: 'triage' },
    { from: 'human', to: 'triage' },
  ],
};
const SUPPORT_OPTIONS = {
  handlers: {
    lookup: ({ invoice }, ctx) => {
      ctx.setVariables({ amount: 250 });
      return { invoice, amount: 250 };
    },
  },
};

// Three turns: a blocked then accepted transfer to a person, back to triage, then (after the
// host's updateState routes to billing by rule) a tool that raises the amount, and the hybrid edge.
async function recordSupport() {
  const file = logFile();
  const swarm = new Swarm(SUPPORT, { ...SUPPORT_OPTIONS, traceLogPath: file });
  const session = swarm.createSession({ id: 'conv-1' });
  const model = scripted([
    { text: 'Let me find someone.', toolCalls: [{ id: 'a', name: 'transfer_to_human', arguments: { reason: null } }] },
    { toolCalls: [{ id: 'b', name: 'transfer_to_human', arguments: { reason: null, ticketId: 'T-1' } }] },
    { text: 'Sam here.' },
    { toolCalls: [{ id: 'c', name: 'transfer_to_triage', arguments: { reason: null } }] },
    { text: 'Hello again.' },
    { toolCalls: [{ id: 'd', name: 'lookup', arguments: { invoice: 'A7' } }] },
    { toolCalls: [{ id: 'e', name: 'transfer_to_human', arguments: { reason: 'a large refund' } }] },
    { text: 'A person will refund it.' },
  ]);
  await drain(swarm.runTurn(session, 'A person, please.', { model }));
  await drain(swarm.runTurn(session, 'Back to the bot.', { model }));
  swarm.updateState(session, { category: 'billing' });
  await drain(swarm.runTurn(session, 'Invoice A7 is wrong.', { model }));
  swarm.dispose();
  return readLines(file);
}

// A Swarm of `definition` changed by `change`, with the support options.
const variant = (change) => new Swarm(change(structuredClone(SUPPORT)), SUPPORT_OPTIONS);

describe('swarm.replay', () => {
  let recording;
  before(async () => {
    recording = await recordSupport();
  });

  test('the unchanged definition replays same, from the lines or their JSONL text', async () => {
    // The host's updateState between turns is a line of its own, before the turn it precedes.
    const update = recording.find((l) => l.type === 'update');
    assert.deepEqual([update.variables, update.before, update.outcome.to], [{ category: 'billing' }, { ticketId: 'T-1' }, 'billing']);
    assert.equal(recording[recording.indexOf(update) + 1].type, 'open');
    const swarm = new Swarm(SUPPORT, SUPPORT_OPTIONS);
    const expected = { same: true, turns: 3, decisions: 20, divergence: null };
    assert.deepEqual(await swarm.replay(recording), expected);
    assert.deepEqual(await swarm.replay(recording.map((l) => JSON.stringify(l)).join('\n')), expected);
    swarm.dispose();
  });

  test("a rule's condition: the rule no longer fires on the host's update, the third turn opens elsewhere", async () => {
    const swarm = variant((d) => {
      d.edges[0].when = "category == 'invoices'";
      return d;
    });
    // The host's updateState between turns 2 and 3 is compared before turn 3 opens.
    assert.deepEqual(await swarm.replay(recording), {
      same: false, turns: 3, decisions: 13, divergence: { turn: 3, index: 0, line: lineOf(recording, 3, 'update'), kind: 'rule', recorded: { via: 'rule', from: 'triage', to: 'billing', edge: 0 }, replayed: null },
    });
  });

  test("a hybrid edge's condition: the tools offered differ", async () => {
    const swarm = variant((d) => {
      d.edges[2].when = 'amount > 300';
      return d;
    });
    const { divergence } = await swarm.replay(recording);
    assert.deepEqual(divergence, {
      turn: 3, index: 4, line: lineOf(recording, 3, 'model', 2), kind: 'tools',
      recorded: { agent: 'billing', tools: ['lookup', 'transfer_to_human', 'transfer_to_triage'] },
      replayed: { agent: 'billing', tools: ['lookup', 'transfer_to_triage'] },
    });
  });

  test("an edge's order: the same call blocks on another edge", async () => {
    const swarm = variant((d) => {
      d.edges = [d.edges[1], d.edges[0], ...d.edges.slice(2)];
      return d;
    });
    const { divergence } = await swarm.replay(recording);
    assert.equal(divergence.kind, 'outcome');
    assert.deepEqual([divergence.turn, divergence.index, divergence.recorded.edge, divergence.replayed.edge], [1, 2, 1, 0]);
  });

  test('a limit: triage may hand off no more, and is offered no transfer', async () => {
    const swarm = variant((d) => {
      d.agents[0].handoffs = 0;
      return d;
    });
    assert.deepEqual((await swarm.replay(recording)).divergence, {
      turn: 1, index: 1, line: lineOf(recording, 1, 'model'), kind: 'tools', recorded: { agent: 'triage', tools: ['transfer_to_human'] }, replayed: { agent: 'triage', tools: [] },
    });
  });

  test('a required variable: the rule waits for it', async () => {
    const swarm = variant((d) => {
      d.edges[0].requires = ['account'];
      return d;
    });
    assert.deepEqual((await swarm.replay(recording)).divergence, { turn: 3, index: 0, line: lineOf(recording, 3, 'update'), kind: 'rule', recorded: { via: 'rule', from: 'triage', to: 'billing', edge: 0 }, replayed: null });
  });

  test('a removed agent: a clear divergence at the first decision that needs it, not a crash', async () => {
    const swarm = variant((d) => {
      d.agents = d.agents.filter((a) => a.id !== 'human');
      d.edges = d.edges.filter((e) => e.from !== 'human' && e.to !== 'human');
      return d;
    });
    assert.deepEqual((await swarm.replay(recording)).divergence, {
      turn: 1, index: 1, line: lineOf(recording, 1, 'model'), kind: 'tools', recorded: { agent: 'triage', tools: ['transfer_to_human'] }, replayed: { agent: 'triage', tools: [] },
    });
  });

  test('a recording cut short: the decisions it lacks are the divergence', async () => {
    const swarm = new Swarm(SUPPORT, SUPPORT_OPTIONS);
    const cut = recording.slice(0, recording.findIndex((l) => l.type === 'done'));
    const { divergence } = await swarm.replay(cut);
    assert.deepEqual([divergence.turn, divergence.kind, divergence.recorded], [1, 'end', null]);
    assert.deepEqual(divergence.replayed, { agent: 'human', reason: 'answered' });
  });
});

describe('swarm.replay of approvals, agent tools, workflows, intents, guardrails and failures', () => {
  test('an approval paused and approved in a later call replays same; without the approval, the call runs', async () => {
    const definition = {
      name: 'refunds',
      agents: [
        {
          id: 'support', entry: true,
          tools: [
            { name: 'lookup', description: 'Look an order up' },
            { name: 'refund', description: 'Refund an order', approval: true },
          ],
        },
        { id: 'manager' },
      ],
      edges: [{ from: 'support', to: 'manager', approval: true }],
    };
    const options = { handlers: { lookup: () => '40.00, paid', refund: () => 'refunded' } };
    const file = logFile();
    const swarm = new Swarm(definition, { ...options, traceLogPath: file });
    const session = swarm.createSession({ id: 'claim' });
    const model = scripted([
      { toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }, { id: 'c2', name: 'refund', arguments: {} }] },
      { text: 'Refunded.' },
    ]);
    const paused = await drain(swarm.runTurn(session, 'Refund A-7.', { model }));
    await drain(swarm.resolveApproval(session, paused.at(-1).approvalId, { approve: true, reason: 'fine', model }));
    const recording = await readLines(file);
    assert.deepEqual(await new Swarm(definition, options).replay(recording), { same: true, turns: 2, decisions: 9, divergence: null });
    const noApproval = structuredClone(definition);
    delete noApproval.agents[0].tools[1].approval;
    const { divergence } = await new Swarm(noApproval, options).replay(recording);
    assert.deepEqual([divergence.turn, divergence.index, divergence.kind], [1, 3, 'approval']);
    assert.deepEqual(divergence.replayed, { agent: 'support', call: 'refund', type: 'tool', tool: 'refund' });
  });

  // The lab of docs/handoffs.md: a workflow agent reached by rule, and an agent tool.
  const pipeline = (edge) =>
    new StateMachine({ name: 'research', start: 'search' })
      .addState('search', (ctx) => ({ notes: [`papers on ${ctx.state.topic}`] }))
      .addState('write', (ctx) => ({ summary: `${ctx.state.notes.join(', ')}.` }))
      .addEdge('search', 'write', edge)
      .addEdge('search', END)
      .addEdge('write', END);
  const LAB = {
    name: 'lab',
    agents: [
      { id: 'manager', entry: true, tools: [{ name: 'ask_critic', description: 'Ask the critic' }] },
      { id: 'researcher', visibleVariables: ['topic'] },
      { id: 'critic' },
    ],
    edges: [
      { from: 'manager', to: 'researcher', when: "mode == 'research'" },
      { from: 'researcher', to: 'manager', when: "mode != 'research'" },
      { from: 'critic', to: 'manager' },
    ],
  };
  const labOptions = (edge) => ({
    workflows: { researcher: { machine: pipeline(edge), output: (state) => state.summary ?? 'nothing', variables: () => ({ mode: 'chat' }) } },
    agentTools: { ask_critic: 'critic' },
  });

  test("a workflow agent and an agent tool replay same; a changed workflow edge is the machine's next state", async () => {
    const file = logFile();
    const lab = new Swarm(LAB, { ...labOptions('notes != null'), traceLogPath: file });
    const session = lab.createSession({ id: 'lab-1', variables: { mode: 'research', topic: 'otters' } });
    await drain(lab.runTurn(session, 'What do otters eat?', { model: scripted([]) }));
    const model = scripted([
      { toolCalls: [{ id: 'k1', name: 'ask_critic', arguments: { input: 'Do otters eat urchins?' } }] },
      { text: 'Yes.' },
      { text: 'They eat urchins.' },
    ]);
    await drain(lab.runTurn(session, 'Urchins?', { model }));
    const recording = await readLines(file);
    assert.deepEqual(await new Swarm(LAB, labOptions('notes != null')).replay(recording), { same: true, turns: 2, decisions: 12, divergence: null });
    const { divergence } = await new Swarm(LAB, labOptions('notes == null')).replay(recording);
    assert.deepEqual(divergence, {
      turn: 1, index: 2, line: lineOf(recording, 1, 'workflow_step'), kind: 'next',
      recorded: { agent: 'researcher', state: 'search', visit: 1, next: 'write', edge: 0 },
      replayed: { agent: 'researcher', state: 'search', visit: 1, next: END, edge: 1 },
    });
  });

  test('queued intents, extracted variables, guardrails and a failed turn replay same', async () => {
    const definition = {
      name: 'shop',
      agents: [{ id: 'triage', entry: true }, { id: 'billing' }, { id: 'shipping' }],
      edges: [
        { from: 'triage', to: 'billing', when: "topic == 'billing'" },
        { from: 'triage', to: 'shipping', when: "topic == 'shipping'" },
        { from: 'billing', to: 'shipping', when: "topic == 'shipping'" },
      ],
    };
    const options = {
      extractIntents: (input) => (input.includes(' and ') ? input.split(' and ').map((text) => ({ text, variables: { topic: text.includes('refund') ? 'billing' : 'shipping' } })) : null),
      extractVariables: (input) => (input.startsWith('vip') ? { vip: true } : undefined),
      inputGuardrails: { triage: [() => ({ tripped: false }), (text) => ({ tripped: text.includes('!'), reason: 'shouting' })] },
      outputGuardrails: { shipping: (text) => ({ tripped: text.includes('secret') }) },
    };
    const file = logFile();
    const swarm = new Swarm(definition, { ...options, traceLogPath: file });
    const session = swarm.createSession({ id: 'shop-1' });
    const model = scripted([{ text: 'Refunded.' }, { text: 'It ships today.' }, { text: 'the secret code' }]);
    await drain(swarm.runTurn(session, 'refund my order and where is my parcel', { model }));
    const fresh = swarm.createSession({ id: 'shop-2' });
    await drain(swarm.runTurn(fresh, 'vip help!', { model: scripted([]) }));
    await assert.rejects(drain(swarm.runTurn(fresh, 'vip hello', { model: () => { throw new Error('the model is down'); } })), /the model is down/);
    await drain(swarm.runTurn(fresh, 'vip hello', { model: scripted([{ text: 'Hi.' }]) }));
    await drain(swarm.runTurn(session, 'parcel', { model }));
    const lines = await readLines(file);
    const replaying = new Swarm(definition, options);
    assert.deepEqual(await replaying.replay(lines.filter((l) => l.session === 'shop-1')), { same: true, turns: 2, decisions: 10, divergence: null });
    assert.deepEqual(await replaying.replay(lines.filter((l) => l.session === 'shop-2')), { same: true, turns: 3, decisions: 8, divergence: null });
    // Without the billing rule, the first intent stays at triage: the rule that fired is the divergence.
    const changed = new Swarm({ ...definition, edges: definition.edges.slice(1) }, options);
    const shop1 = lines.filter((l) => l.session === 'shop-1');
    assert.deepEqual((await changed.replay(shop1)).divergence, {
      turn: 1, index: 1, line: lineOf(shop1, 1, 'handoff'), kind: 'rule', recorded: { via: 'rule', from: 'triage', to: 'billing', edge: 0 }, replayed: { agent: 'triage', tools: [] },
    });
  });
});

test("the web demo's sample recording replays the same against the hybrid swarm example", async () => {
  const { SAMPLE_RECORDING } = await import('../../web-demo/src/sample-recording.js');
  const { exampleByName } = await import('../../web-demo/src/examples.js');
  const swarm = new Swarm(exampleByName('hybrid-swarm').swarm);
  assert.deepEqual(await swarm.replay(SAMPLE_RECORDING), { same: true, turns: 3, decisions: 18, divergence: null });
  swarm.dispose();
});

describe('recordings that cannot be replayed are clear errors', () => {
  const swarm = () => new Swarm(SUPPORT, SUPPORT_OPTIONS);
  const open = { type: 'open', recording: 1, agent: 'triage', turn: 1, input: 'hi', variables: {}, maxModelCalls: 10 };
  const { recording: _version, ...unversioned } = open;
  const cases = [
    ['not a recording', 7, TypeError, /takes a recording: an array of its lines or their JSONL text, got number 7/],
    ['a value JSON cannot hold', [{ ...open, variables: { n: Number.NaN } }], RecordingError, /\/0\/variables\/n: NaN is not a JSON number/],
    ['a line that is not JSON', `${JSON.stringify(open)}\n{"type":`, RecordingError, /\/1: line 2 is not JSON/],
    ['no version', [unversioned], RecordingError, /\/0\/recording: the turn has no recording version/],
    ['another version', [{ ...open, recording: 2 }], RecordingError, /\/0\/recording: recording version number 2 is not one this library reads \(1\)/],
    ['an unknown line', [open, { type: 'telemetry' }], RecordingError, /\/1\/type: unknown line type 'telemetry' in a swarm recording/],
    ['two sessions', [{ ...open, session: 'a' }, { ...open, session: 'b' }], RecordingError, /\/1\/session: a recording is one session's lines/],
    ['no open line first', [{ type: 'done', agent: 'triage', reason: 'answered', text: '' }], RecordingError, /\/0: the recording starts with a 'done' line/],
    ['empty', '', RecordingError, /\(root\): the recording has no turn/],
    ['an unknown field, with a suggestion', [open, { type: 'model', agent: 'triage', tools: [], text: '', toolcalls: [] }], RecordingError, /\/1\/toolcalls: unknown field 'toolcalls' of a 'model' line \(did you mean 'toolCalls'\?\)/],
    ['a model line without its tools', [open, { type: 'model', agent: 'triage', text: '', toolCalls: [] }], RecordingError, /\/1\/tools: expected the names of the tools offered/],
  ];
  for (const [name, recording, type, message] of cases) {
    test(name, async () => {
      await assert.rejects(swarm().replay(recording), (error) => error instanceof type && message.test(error.message));
    });
  }

  test('300 random mutations of a recording (lines dropped, copied, moved, fields replaced by junk): a report or a RecordingError, nothing else', async () => {
    const { SAMPLE_RECORDING } = await import('../../web-demo/src/sample-recording.js');
    const { exampleByName } = await import('../../web-demo/src/examples.js');
    const hybrid = new Swarm(exampleByName('hybrid-swarm').swarm);
    let seed = 7;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const junk = () => [null, 1, -1, 'x', [], {}, true, 1e300, '__proto__', { type: 'open' }][random(10)];
    const seen = new Set();
    for (let i = 0; i < 300; i++) {
      const lines = structuredClone(SAMPLE_RECORDING);
      for (let j = 1 + random(4); j > 0; j--) {
        const at = random(lines.length);
        const op = random(4);
        if (op === 0) lines.splice(at, 1);
        else if (op === 1) lines.splice(random(lines.length), 0, structuredClone(lines[at]));
        else if (op === 2) lines.splice(random(lines.length + 1), 0, ...lines.splice(at, 1));
        else {
          const keys = Object.keys(lines[at]);
          lines[at][keys[random(keys.length)]] = junk();
        }
      }
      try {
        const report = await hybrid.replay(lines);
        seen.add(report.same ? 'same' : report.divergence.kind);
      } catch (error) {
        assert.ok(error instanceof RecordingError, `mutation ${i}: ${error.stack}`);
        seen.add('RecordingError');
      }
    }
    assert.ok(seen.size >= 5, [...seen].join(', '));
    hybrid.dispose();
  });

  test('hostile answers end in a divergence, never a crash or a hang', async () => {
    const lines = [
      open,
      { type: 'model', agent: 'triage', tools: ['transfer_to_human'], text: 'x', toolCalls: Array.from({ length: 50 }, (_, i) => ({ id: `c${i}`, name: 'transfer_to_human', arguments: '{"ticketId": ' })) },
      { type: 'done', agent: 'triage', reason: 'answered', text: 'x' },
    ];
    const report = await swarm().replay(lines);
    assert.equal(report.same, false);
    assert.equal(report.divergence.kind, 'end');
    // Agent tools a recording claims that would form a cycle are not taken: a divergence, not an error.
    const lab = new Swarm({ agents: [{ id: 'a', entry: true, tools: [{ name: 'ask_b', description: 'b' }] }, { id: 'b', tools: [{ name: 'ask_a', description: 'a' }] }] });
    const cyclic = [
      { ...open, agent: 'a' },
      { type: 'agent_tool', agent: 'a', tool: 'ask_b', callId: 'c1', event: { type: 'chunk', agent: 'b', text: '' } },
      { type: 'agent_tool', agent: 'b', tool: 'ask_a', callId: 'c2', event: { type: 'chunk', agent: 'a', text: '' } },
      { type: 'done', agent: 'a', reason: 'answered', text: '' },
    ];
    assert.equal((await lab.replay(cyclic)).same, false);
  });
});

describe('machine.replay', () => {
  const build = ({ bound = 3, maxSteps = 20 } = {}) =>
    new StateMachine({ name: 'writer', start: 'write', maxSteps, reducers: { drafts: 'append' } })
      .addState('write', (ctx) => ({ drafts: `draft ${ctx.visit}` }))
      .addState('critique', (ctx) => ({ verdict: ctx.state.drafts.length >= 2 ? 'accept' : 'reject' }))
      .addEdge('write', 'critique')
      .addEdge('critique', 'write', `verdict == 'reject' and $visits.write < ${bound}`)
      .addEdge('critique', END);

  test('a run replays same from its trace log, its result and its durable record; changes diverge at the step', async () => {
    const file = logFile();
    const run = await build().run({ topic: 'routing' }, { traceLogPath: file });
    const lines = await readLines(file);
    assert.deepEqual(lines.map((l) => l.type), ['start', 'step', 'step', 'step', 'step', 'end']);
    const same = { same: true, turns: 1, decisions: 4, divergence: null };
    assert.deepEqual(await build().replay(lines), same);
    assert.deepEqual(await build().replay(lines.map((l) => JSON.stringify(l)).join('\n')), same);
    assert.deepEqual(await build().replay(run, { state: { topic: 'routing' } }), same);
    const store = new MemoryStore();
    await build().run({ topic: 'routing' }, { store, runId: 'r1' });
    assert.deepEqual(await build().replay(await store.getRun('r1')), same);

    // A condition: the critic's rejection no longer sends the draft back.
    assert.deepEqual(await build({ bound: 1 }).replay(lines), {
      same: false, turns: 1, decisions: 2,
      divergence: { turn: 1, index: 1, kind: 'next', recorded: { step: 2, state: 'critique', visit: 1, next: 'write', edge: 0 }, replayed: { step: 2, state: 'critique', visit: 1, next: END, edge: 1 } },
    });
    // A limit: maxSteps 3 stops the run before its fourth step.
    assert.deepEqual((await build({ maxSteps: 3 }).replay(lines)).divergence, {
      turn: 1, index: 3, kind: 'end', recorded: { step: 4, state: 'critique', visit: 2, next: END, edge: 1 }, replayed: { reason: 'max-steps' },
    });
  });

  test('recordings without updates, steps out of order and fan-out states are clear errors; steps given their updates replay', async () => {
    const run = await build().run({});
    await assert.rejects(build().replay(run.steps), /\/0\/update: the step has no update: run\.steps alone do not hold the updates/);
    // run.steps, each given its update (from run.outputs), is a recording.
    const withUpdates = run.steps.map((step) => ({ ...step, update: run.outputs[step.state][step.visit - 1] }));
    assert.deepEqual(await build().replay(withUpdates), { same: true, turns: 1, decisions: 4, divergence: null });
    // States whose steps a recording does not hold whole are refused, naming the state.
    const fanOut = new StateMachine({ name: 'fan', start: 'split' }).addState('a').addState('b').addFanOut('split', ['a', 'b']).addEdge('split', END);
    await assert.rejects(fanOut.replay(withUpdates), /machine\.replay: state 'split' of machine 'fan' is a fan-out state, which replays do not cover yet/);
    await assert.rejects(build().replay({ steps: run.steps }), /\/outputs: expected every visit's update, by state \(a run's outputs\): the steps alone do not hold the updates/);
    await assert.rejects(build().replay([{ type: 'step', step: 2, state: 'write', visit: 1, next: 'critique', edge: 0, update: null }]), /\/0\/step: expected step 1/);
    await assert.rejects(build().replay(run, { stat: {} }), /unknown option 'stat' \(did you mean 'state'\?\)/);
  });
});

describe('handoff-graph replay (the command)', () => {
  const cli = new URL('../../js/cli.js', import.meta.url).pathname;
  const run = (args) =>
    new Promise((resolve) => {
      execFile(process.execPath, [cli, 'replay', ...args], (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }));
    });

  test('one line per session, a summary, exit 1 when one differs; --json; machines; usage mistakes exit 2', async () => {
    const logs = path.join(dir, 'logs');
    await mkdir(logs);
    const lines = await recordSupport();
    // Two sessions in one log (the second a copy of the first under another id), one in another.
    await writeFile(path.join(logs, 'a.jsonl'), [...lines, ...lines.map((l) => ({ ...l, session: 'conv-2' }))].map((l) => `${JSON.stringify(l)}\n`).join(''));
    await writeFile(path.join(logs, 'b.jsonl'), lines.map((l) => `${JSON.stringify({ ...l, session: 'conv-3' })}\n`).join(''));
    await writeFile(path.join(logs, 'notes.txt'), 'not a log');
    const definition = path.join(dir, 'support.json');
    await writeFile(definition, JSON.stringify(SUPPORT));
    const same = await run([definition, logs]);
    assert.deepEqual([same.code, same.stdout.split('\n')], [0, [
      `${path.join(logs, 'a.jsonl')} session conv-1: same (3 turns, 20 decisions)`,
      `${path.join(logs, 'a.jsonl')} session conv-2: same (3 turns, 20 decisions)`,
      `${path.join(logs, 'b.jsonl')} session conv-3: same (3 turns, 20 decisions)`,
      '0 of 3 conversations route differently',
      '',
    ]]);
    const changed = path.join(dir, 'support-changed.json');
    const edited = structuredClone(SUPPORT);
    edited.edges[0].when = "category == 'invoices'";
    await writeFile(changed, JSON.stringify(edited));
    const differs = await run([changed, path.join(logs, 'b.jsonl'), '--json']);
    assert.equal(differs.code, 1);
    // The third turn's update line (the session's and the file's line, from 1).
    const update = lineOf(lines, 3, 'update');
    assert.deepEqual(JSON.parse(differs.stdout), [{
      file: path.join(logs, 'b.jsonl'), session: 'conv-3', same: false, turns: 3, decisions: 13,
      divergence: { turn: 3, index: 0, line: update, kind: 'rule', recorded: { via: 'rule', from: 'triage', to: 'billing', edge: 0 }, replayed: null },
      line: update + 1,
    }]);
    // A session's divergence names the file's line, past the lines of the sessions before it.
    const twoSessions = await run([changed, path.join(logs, 'a.jsonl')]);
    const rule = '(rule): recorded {"via":"rule","from":"triage","to":"billing","edge":0}, replayed null';
    assert.deepEqual(twoSessions.stdout.split('\n'), [
      `${path.join(logs, 'a.jsonl')} session conv-1: differs at turn 3, decision 0, line ${update + 1} ${rule}`,
      `${path.join(logs, 'a.jsonl')} session conv-2: differs at turn 3, decision 0, line ${lines.length + update + 1} ${rule}`,
      '2 of 2 conversations route differently',
      '',
    ]);

    const machineLog = path.join(dir, 'machine.jsonl');
    const machine = new StateMachine({ name: 'count', start: 'tick', reducers: { n: 'sum' } }).addState('tick', () => ({ n: 1 })).addEdge('tick', END, 'n >= 2').addEdge('tick', 'tick');
    await machine.run({ n: 0 }, { traceLogPath: machineLog });
    await machine.run({ n: 1 }, { traceLogPath: machineLog });
    const machineFile = path.join(dir, 'count.json');
    await writeFile(machineFile, JSON.stringify({ ...machine.toJSON(), edges: [{ from: 'tick', to: END, when: 'n >= 3' }, { from: 'tick', to: 'tick' }] }));
    // A durable run's record, as a FileStore keeps it, is a recording too.
    const { FileStore } = await import('handoff-graph/stores/file');
    const runsDir = path.join(dir, 'runs');
    await machine.run({ n: 0 }, { store: new FileStore(runsDir), runId: 'nightly' });
    const durable = await run([machineFile, runsDir]);
    assert.deepEqual([durable.code, durable.stdout.split('\n').slice(1)], [1, ['1 of 1 runs route differently', '']]);
    assert.match(durable.stdout, /run nightly: differs at step 2 \(next\)/);
    const runs = await run([machineFile, machineLog]);
    assert.deepEqual([runs.code, runs.stdout.split('\n')], [1, [
      `${machineLog} run #1: differs at step 2 (next): recorded {"step":2,"state":"tick","visit":2,"next":"__end__","edge":0}, replayed {"step":2,"state":"tick","visit":2,"next":"tick","edge":1}`,
      `${machineLog} run #2: differs at step 1 (next): recorded {"step":1,"state":"tick","visit":1,"next":"__end__","edge":0}, replayed {"step":1,"state":"tick","visit":1,"next":"tick","edge":1}`,
      '2 of 2 runs route differently',
      '',
    ]]);

    const usage = await run([definition]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /replay needs at least one recording/);
    const missing = await run([definition, path.join(dir, 'nothing.jsonl')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nothing\.jsonl: no such file or directory/);
  });
});
