// What tracing costs a Swarm turn and a StateMachine step (figures for the closing note of the
// tracing change, not a test): the same turn (a rule route, one model call that calls a tool, a
// second model call that answers) and the same 10-step run, with tracing off, with the
// OpenTelemetry API present but no SDK registered (its no-op spans: an application that installed
// the API without tracing), with the SDK recording into an InMemorySpanExporter, and with a trace
// log file. Rounds alternate the configurations; each figure is the median of the rounds, in CPU
// time of the process (user + system, all its threads: steadier than wall time on a shared machine)
// and in wall time.
//   node bench/tracing-overhead.mjs [turns per round]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { END, init, StateMachine, Swarm } from 'handoff-graph';

await init();
const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 15);
const dir = mkdtempSync(join(tmpdir(), 'tracing-overhead-'));
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const DEFINITION = {
  agents: [
    { id: 'triage', entry: true },
    { id: 'billing', tools: [{ name: 'lookup', description: 'Look an invoice up', parameters: { type: 'object', properties: {} } }] },
  ],
  edges: [{ from: 'triage', to: 'billing', when: "topic == 'billing'" }],
};
const model = ({ messages }) => (messages.at(-1).role === 'tool' ? { text: 'It is 42.' } : { toolCalls: [{ id: 'c', name: 'lookup', arguments: {} }] });
const handlers = { lookup: () => ({ amount: 42 }) };

const swarms = {
  'tracing: false': new Swarm(DEFINITION, { handlers, tracing: false }),
  'API, no SDK (no-op spans)': new Swarm(DEFINITION, { handlers }),
  'SDK recording (in-memory)': new Swarm(DEFINITION, { handlers, tracing: { tracerProvider: provider } }),
  'traceLogPath (file)': new Swarm(DEFINITION, { handlers, tracing: false, traceLogPath: join(dir, 'trace.jsonl') }),
};

function machine() {
  const m = new StateMachine({ name: 'loop', start: 'a' });
  m.addState('a', ({ state }) => ({ n: (state.n ?? 0) + 1 }));
  m.addEdge('a', 'a', 'n < 10');
  m.addEdge('a', END);
  return m;
}
const machines = {
  'tracing: false': [machine(), { tracing: false }],
  'API, no SDK (no-op spans)': [machine(), {}],
  'SDK recording (in-memory)': [machine(), { tracing: { tracerProvider: provider } }],
  'traceLogPath (file)': [machine(), { tracing: false, traceLogPath: join(dir, 'run.jsonl') }],
};

// { cpu, wall } microseconds per unit of `body()`'s `units`.
async function timed(units, body) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await body();
  const wall = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  exporter.reset();
  return { cpu: (used.user + used.system) / units, wall: wall / units };
}

const turns = (swarm) => timed(N, async () => {
  for (let i = 0; i < N; i++) {
    const session = swarm.createSession({ variables: { topic: 'billing' } });
    for await (const _ of swarm.runTurn(session, 'invoice?', { model }));
  }
});

const runs = ([m, options]) => timed(N, async () => {
  for (let i = 0; i < N / 10; i++) await m.run({}, options);
});

const median = (xs, key) => xs.map((x) => x[key]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = { turn: {}, step: {} };
for (const name of Object.keys(swarms)) {
  samples.turn[name] = [];
  samples.step[name] = [];
  await turns(swarms[name]);  // warm-up
  await runs(machines[name]);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(swarms)) {
    samples.turn[name].push(await turns(swarms[name]));
    samples.step[name].push(await runs(machines[name]));
  }
}
console.log(`${N} turns and ${N} steps per round, median of ${ROUNDS} rounds (Node ${process.versions.node}); µs, CPU (wall)`);
console.log('| configuration | per turn | added | per step | added |');
console.log('|---|---|---|---|---|');
const cell = (list, baseList, key) => (median(list, key) - median(baseList, key)).toFixed(1);
for (const name of Object.keys(swarms)) {
  const [t, b, st, sb] = [samples.turn[name], samples.turn['tracing: false'], samples.step[name], samples.step['tracing: false']];
  console.log(`| ${name} | ${median(t, 'cpu').toFixed(1)} (${median(t, 'wall').toFixed(1)}) | ${cell(t, b, 'cpu')} (${cell(t, b, 'wall')}) | ${median(st, 'cpu').toFixed(2)} (${median(st, 'wall').toFixed(2)}) | ${cell(st, sb, 'cpu')} (${cell(st, sb, 'wall')}) |`);
}
rmSync(dir, { recursive: true, force: true });
await provider.shutdown();
