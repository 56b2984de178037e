// `npm run bench`: replaying 1,000 recorded turns (docs/replay.md; issue 34 asks for under a
// second in Node). The recordings are made first, through the real trace log: 100 sessions of the
// support swarm, 10 turns each: rule handoffs (the host's updateState), tool calls, blocked and
// accepted transfers, and the model's answers. Then `swarm.replay` of every session, timed over
// several repetitions (the median and min-max of the total); every replay must report `same`.
// Usage: node bench/replay.mjs [--json results.json] [--quick]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { init, Swarm } from 'handoff-graph';

import { machine as host } from './harness.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const repetitions = args.includes('--quick') ? 3 : 9;
const SESSIONS = 100;
const TURNS = 10;

await init();

const definition = {
  name: 'support',
  agents: [
    { id: 'triage', entry: true },
    { id: 'billing', tools: [{ name: 'lookup', description: 'Look an invoice up', parameters: { type: 'object', properties: { invoice: { type: 'string' } } } }] },
    { id: 'human', name: 'Human operator' },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    { from: 'triage', to: 'human', requires: [{ name: 'ticketId', from: 'model' }] },
    { from: 'billing', to: 'triage', when: "category != 'billing'" },
    { from: 'human', to: 'triage' },
  ],
};
const options = { handlers: { lookup: ({ invoice }) => `${invoice}: 42.00, paid` } };

// The model: at billing, a lookup then an answer; at triage, a blocked transfer, the transfer;
// at human, a transfer back.
function model({ agent, messages }) {
  const last = messages.at(-1);
  if (agent.id === 'billing') return last.role === 'tool' ? { text: 'It is paid.' } : { toolCalls: [{ id: 'l', name: 'lookup', arguments: { invoice: 'A7' } }] };
  if (agent.id === 'human') return last.role === 'tool' ? { text: 'Back to you.' } : { toolCalls: [{ id: 'h', name: 'transfer_to_triage', arguments: { reason: null } }] };
  if (last.role === 'tool' && last.content.startsWith('Cannot')) return { toolCalls: [{ id: 't2', name: 'transfer_to_human', arguments: { reason: null, ticketId: 'T-1' } }] };
  if (last.role === 'tool') return { text: 'Hello.' };
  return { toolCalls: [{ id: 't1', name: 'transfer_to_human', arguments: { reason: null } }] };
}

const dir = mkdtempSync(path.join(tmpdir(), 'handoff-graph-bench-replay-'));
const log = path.join(dir, 'trace.jsonl');
const recorder = new Swarm(definition, { ...options, traceLogPath: log });
for (let s = 0; s < SESSIONS; s++) {
  const session = recorder.createSession({ id: `s${s}` });
  for (let t = 0; t < TURNS; t++) {
    recorder.updateState(session, { category: t % 2 === 0 ? 'billing' : 'other' });
    for await (const event of recorder.runTurn(session, `question ${t}`, { model })) void event;
  }
}
recorder.dispose();
const lines = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
rmSync(dir, { recursive: true, force: true });
const sessions = new Map();
for (const line of lines) sessions.set(line.session, [...(sessions.get(line.session) ?? []), line]);

const swarm = new Swarm(definition, options);
async function replayAll() {
  let decisions = 0;
  for (const recording of sessions.values()) {
    const report = await swarm.replay(recording);
    if (!report.same) throw new Error(`a replay of the unchanged definition differs: ${JSON.stringify(report.divergence)}`);
    decisions += report.decisions;
  }
  return decisions;
}

const decisions = await replayAll();  // checked, and warmed up
const times = [];
for (let r = 0; r < repetitions; r++) {
  const start = performance.now();
  await replayAll();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`replay: ${SESSIONS * TURNS} recorded turns (${SESSIONS} sessions, ${lines.length} lines, ${decisions} decisions) in ${median.toFixed(0)} ms (median of ${repetitions}; ${times[0].toFixed(0)}-${times.at(-1).toFixed(0)} ms)`);
swarm.dispose();

if (jsonOut !== null) {
  const results = existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
  results.replay = { turns: SESSIONS * TURNS, sessions: SESSIONS, lines: lines.length, decisions, repetitions, medianMs: median, minMs: times[0], maxMs: times.at(-1), host: host() };
  writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
}
