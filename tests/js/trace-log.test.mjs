// The JSON-lines trace log (seed 003's traceLogPath): one JSON object per line per event of a Swarm
// turn (but the text deltas, chunk) and the recording's lines (docs/replay.md), or a StateMachine run, appended; lines of concurrent turns never mix; a log that cannot be
// written fails the turn (before its `done`) instead of being dropped; outside Node the option is
// a clear error.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { END, init, StateMachine, Swarm } from 'handoff-graph';

await init();

const DEFINITION = {
  name: 'helpdesk',
  agents: [
    { id: 'triage', entry: true },
    { id: 'billing', tools: [{ name: 'lookup', description: 'Look an invoice up', parameters: { type: 'object', properties: { invoice: { type: 'string' } } } }] },
  ],
  edges: [{ from: 'triage', to: 'billing', when: "topic == 'billing'" }],
};

async function temporaryDirectory(t) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-trace-log-'));
  t.after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

async function collect(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

const readLines = async (file) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line));

// A model that looks the invoice up, then answers with the tool's result.
const model = ({ messages }) => {
  const last = messages.at(-1);
  if (last.role === 'tool') return { text: `It is ${JSON.parse(last.content).amount}.` };
  return { toolCalls: [{ id: `call-${last.content}`, name: 'lookup', arguments: { invoice: last.content } }] };
};

describe('trace log of a Swarm turn', () => {
  test('one line per event, with time, swarm and session; no live session, no raw response; appended', async (t) => {
    const file = path.join(await temporaryDirectory(t), 'trace.jsonl');
    const swarm = new Swarm(DEFINITION, { traceLogPath: file, handlers: { lookup: ({ invoice }) => ({ invoice, amount: 42 }) } });
    const session = swarm.createSession({ id: 's1', variables: { topic: 'billing' } });
    const events = await collect(swarm.runTurn(session, 'A7', { model }));
    const lines = await readLines(file);
    // Every event but the text's stream deltas (chunk): their text is in done; and the
    // recording's own lines (docs/replay.md): each model answer and each tool run.
    const recordingLines = new Set(['model', 'tool']);
    assert.deepEqual(lines.map((l) => l.type).filter((type) => !recordingLines.has(type)), events.map((e) => e.type).filter((type) => type !== 'chunk'));
    assert.deepEqual(lines.map((l) => l.type), ['open', 'handoff', 'model', 'tool_use', 'tool', 'tool_result', 'model', 'done']);
    // The open line holds what the turn started from.
    assert.deepEqual([lines[0].input, lines[0].variables, lines[0].maxModelCalls], ['A7', { topic: 'billing' }, 10]);
    assert.deepEqual(lines[2].tools, ['lookup']);
    assert.deepEqual(lines[4].result, '{"invoice":"A7","amount":42}');
    for (const line of lines) {
      assert.equal(line.swarm, 'helpdesk');
      assert.equal(line.session, 's1');
      assert.ok(!Number.isNaN(Date.parse(line.time)), line.time);
    }
    assert.deepEqual(Object.keys(lines.at(-1)).sort(), ['agent', 'reason', 'session', 'swarm', 'text', 'time', 'type']);
    assert.equal(lines.at(-1).text, 'It is 42.');
    assert.equal(lines[1].to, 'billing');
    assert.equal(lines[5].result, '{"invoice":"A7","amount":42}');
    // A second swarm on the same file appends.
    const other = new Swarm(DEFINITION, { traceLogPath: pathToFileURL(file) });
    await collect(other.runTurn(other.createSession({ id: 's2' }), 'hi', { model: () => ({ text: 'hello' }) }));
    const all = await readLines(file);
    assert.equal(all.length, 11);
    assert.deepEqual(all.slice(8).map((l) => [l.session, l.type]), [['s2', 'open'], ['s2', 'model'], ['s2', 'done']]);
  });

  test("an agent tool's nested events are logged inside their agent_tool wrapper, without chunks or raw responses", async (t) => {
    const file = path.join(await temporaryDirectory(t), 'trace.jsonl');
    const swarm = new Swarm({
      name: 'lab',
      agents: [{ id: 'manager', entry: true, tools: [{ name: 'ask_critic', description: 'Ask the critic' }] }, { id: 'critic' }],
      edges: [],
    }, { traceLogPath: file, agentTools: { ask_critic: 'critic' } });
    const script = [
      { toolCalls: [{ id: 'm1', name: 'ask_critic', arguments: { input: 'check' } }] },
      { text: 'It holds.', raw: { id: 'resp-critic', secret: 'provider payload' } },
      { text: 'Checked.' },
    ];
    await collect(swarm.runTurn(swarm.createSession({ id: 's1' }), 'go', { model: () => script.shift() }));
    const lines = await readLines(file);
    assert.deepEqual(lines.map((l) => (l.type === 'agent_tool' ? `agent_tool:${l.event.type}` : l.type)), ['open', 'model', 'tool_use', 'model', 'agent_tool:response', 'tool_result', 'model', 'done']);
    assert.deepEqual(lines.filter((l) => l.type === 'model').map((l) => [l.agent, l.text]), [['manager', ''], ['critic', 'It holds.'], ['manager', 'Checked.']]);
    const nested = lines[4];
    assert.deepEqual([nested.agent, nested.tool, nested.callId, nested.event.agent, nested.event.text], ['manager', 'ask_critic', 'm1', 'critic', 'It holds.']);
    assert.equal('raw' in nested.event, false);
  });

  test('50 concurrent turns with large events: every line whole, each session\'s events in order', async (t) => {
    const file = path.join(await temporaryDirectory(t), 'trace.jsonl');
    const big = 'x'.repeat(100_000);
    const swarm = new Swarm(DEFINITION, {
      traceLogPath: file,
      handlers: { lookup: async ({ invoice }) => { await new Promise((resolve) => setTimeout(resolve, Math.random() * 5)); return { invoice, amount: 42, big }; } },
    });
    const sessions = Array.from({ length: 50 }, (_, i) => swarm.createSession({ id: `s${i}`, variables: { topic: 'billing' } }));
    await Promise.all(sessions.map((session) => collect(swarm.runTurn(session, session.id, { model }))));
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    assert.equal(lines.pop(), '', 'the log ends with a newline');
    assert.equal(lines.length, 50 * 8);
    const bySession = new Map();
    for (const line of lines) {
      const record = JSON.parse(line);  // throws on a line mixed with another
      bySession.set(record.session, [...(bySession.get(record.session) ?? []), record.type]);
    }
    for (const session of sessions) assert.deepEqual(bySession.get(session.id), ['open', 'handoff', 'model', 'tool_use', 'tool', 'tool_result', 'model', 'done'], session.id);
  });

  test('a log that cannot be written fails the turn before its done, with the cause', async (t) => {
    const dir = await temporaryDirectory(t);
    const file = path.join(dir, 'a-directory');
    await mkdir(file);
    const swarm = new Swarm(DEFINITION, { traceLogPath: file });
    const seen = [];
    await assert.rejects(
      (async () => {
        for await (const event of swarm.runTurn(swarm.createSession(), 'hi', { model: () => ({ text: 'hello' }) })) seen.push(event.type);
      })(),
      (error) => {
        assert.match(error.message, /^the trace log could not be written: EISDIR/);
        assert.equal(error.cause.code, 'EISDIR');
        return true;
      },
    );
    assert.deepEqual(seen, ['open', 'chunk'], 'no done: the turn did not end well');
    // A turn that fails on its own reports its own error, not the log's.
    await assert.rejects(collect(swarm.runTurn(swarm.createSession(), 'hi', { model: () => { throw new Error('the model failed'); } })), /the model failed/);
  });

  test("the host's updateState between turns is an update line; one that cannot be written fails the next turn before it opens", async (t) => {
    const dir = await temporaryDirectory(t);
    const file = path.join(dir, 'trace.jsonl');
    const swarm = new Swarm(DEFINITION, { traceLogPath: file });
    const session = swarm.createSession({ id: 's1' });
    assert.equal(swarm.updateState(session, { topic: 'billing' }).to, 'billing');
    assert.equal(swarm.applyRules(session), null);
    await collect(swarm.runTurn(session, 'hi', { model: () => ({ text: 'hello' }) }));
    const lines = await readLines(file);
    assert.deepEqual(lines.map((l) => l.type), ['update', 'update', 'open', 'model', 'done']);
    assert.deepEqual(lines.slice(0, 2).map(({ variables, before, outcome }) => [variables, before, outcome?.to ?? null]), [[{ topic: 'billing' }, {}, 'billing'], [{}, { topic: 'billing' }, null]]);
    const broken = path.join(dir, 'a-directory');
    await mkdir(broken);
    const failing = new Swarm(DEFINITION, { traceLogPath: broken });
    const other = failing.createSession();
    failing.updateState(other, { topic: 'billing' });
    const seen = [];
    await assert.rejects(
      (async () => {
        for await (const event of failing.runTurn(other, 'hi', { model: () => ({ text: 'hello' }) })) seen.push(event.type);
      })(),
      /the trace log could not be written: EISDIR/,
    );
    assert.deepEqual(seen, [], 'the turn did not open');
  });

  test('the option is checked', () => {
    assert.throws(() => new Swarm(DEFINITION, { traceLogPath: 7 }), /Swarm options\.traceLogPath must be a file path or a file: URL, got number 7/);
    assert.throws(() => new Swarm(DEFINITION, { traceLogPath: '' }), /traceLogPath must be a file path, got an empty string/);
    assert.throws(() => new Swarm(DEFINITION, { traceLogpath: 'x' }), /unknown option 'traceLogpath' \(did you mean 'traceLogPath'\?\)/);
  });

  test('outside Node (the browser entry): a clear error when the Swarm is made', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const script = `
      const { Swarm } = await import('./js/browser.js');
      try { new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] }, { traceLogPath: 'trace.jsonl' }); console.log('no error'); }
      catch (error) { console.log(error.name + ': ' + error.message); }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }).trim();
    assert.equal(out, "TypeError: Swarm options.traceLogPath needs a file system: it works in Node (import 'handoff-graph' there); in this runtime, read the turn's events or use OpenTelemetry (options.tracing) instead");
  });
});

describe('trace log of a StateMachine run', () => {
  test('a line per step, then the end; a failed run ends with its error', async (t) => {
    const file = path.join(await temporaryDirectory(t), 'run.jsonl');
    const machine = new StateMachine({ name: 'review', start: 'draft' });
    machine.addState('draft', ({ state }) => ({ drafts: (state.drafts ?? 0) + 1 }));
    machine.addEdge('draft', 'draft', 'drafts < 3');
    machine.addEdge('draft', END);
    await machine.run({}, { traceLogPath: file });
    const lines = await readLines(file);
    assert.deepEqual(lines.map(({ time: _time, durationMs: _durationMs, ...rest }) => rest), [
      { machine: 'review', type: 'start', recording: 1, state: {}, step: 0 },
      { machine: 'review', type: 'step', step: 1, state: 'draft', visit: 1, next: 'draft', edge: 0, update: { drafts: 1 } },
      { machine: 'review', type: 'step', step: 2, state: 'draft', visit: 2, next: 'draft', edge: 0, update: { drafts: 2 } },
      { machine: 'review', type: 'step', step: 3, state: 'draft', visit: 3, next: END, edge: 1, update: { drafts: 3 } },
      { machine: 'review', type: 'end', reason: 'end', stepsRun: 3 },
    ]);
    const failing = new StateMachine({ name: 'fails', start: 'a' });
    failing.addState('a', () => {
      throw new RangeError('no');
    });
    failing.addEdge('a', END);
    await assert.rejects(failing.run({}, { traceLogPath: file }), /no/);
    assert.deepEqual((await readLines(file)).at(-1).type, 'error');
    assert.deepEqual((await readLines(file)).at(-1).name, 'RangeError');
  });
});
