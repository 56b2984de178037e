// `node bench/fanout.mjs`: the per-branch overhead of a fan-out: one run = one step that runs
// BRANCHES branches of an EMPTY handler at once and joins them, in handoff-graph and in LangGraph.js
// doing the same (a node with BRANCHES plain edges out, or BRANCHES `Send`s), all in this process,
// interleaved repetition by repetition after a warm-up. A result is the median (min-max) over
// repetitions of (time of one whole run) / BRANCHES; the goal is ≤ 2 µs per branch in Node
// for handoff-graph. Every engine is first checked to call each branch's handler exactly once.
// Usage: node bench/fanout.mjs [--json results.json] [--quick]
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';

import { Annotation, END as LANGGRAPH_END, Send, START, StateGraph } from '@langchain/langgraph';
import { END, StateMachine, init } from 'handoff-graph';

import { machine as host, measureAll, printTable } from './harness.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const quick = args.includes('--quick');
const options = quick ? { repetitions: 5, targetMs: 100 } : { repetitions: 11, targetMs: 300 };

const BRANCHES = 1000;
const TARGET_NS = 2000;
const names = Array.from({ length: BRANCHES }, (_, i) => `b${i}`);
const items = Array.from({ length: BRANCHES }, (_, i) => i);

await init();

// `handler(count)`: the empty handler, or one that counts its calls (the agreement check only).
const emptySync = () => {};
const emptyAsync = async () => {};

function staticFanOut(handler) {
  const m = new StateMachine({ name: 'fan', start: 'fan', feedbackOnRevisit: false });
  m.addFanOut('fan', names);
  for (const name of names) m.addState(name, handler);
  m.addEdge('fan', END);
  return m;
}

function mapFanOut(handler) {
  return new StateMachine({ name: 'map', start: 'each', feedbackOnRevisit: false })
    .addMap('each', 'one', { over: 'items' })
    .addState('one', handler)
    .addEdge('each', END);
}

const runOf = (m, input) => async () => (await m.run(input)).steps[0].branches.length;

function langGraphEdges(handler) {
  const State = Annotation.Root({ n: Annotation() });
  let graph = new StateGraph(State).addNode('fan', () => ({}));
  for (const name of names) graph = graph.addNode(name, handler).addEdge('fan', name).addEdge(name, LANGGRAPH_END);
  const app = graph.addEdge(START, 'fan').compile();
  return async () => ((await app.invoke({ n: 0 })), BRANCHES);
}

function langGraphSend(handler) {
  const State = Annotation.Root({ items: Annotation() });
  const app = new StateGraph(State)
    .addNode('fan', () => ({}))
    .addNode('one', handler)
    .addEdge(START, 'fan')
    .addConditionalEdges('fan', (s) => s.items.map((item) => new Send('one', { item })), ['one'])
    .addEdge('one', LANGGRAPH_END)
    .compile();
  return async () => ((await app.invoke({ items })), BRANCHES);
}

const engines = [
  { name: 'handoff-graph addFanOut, sync handlers', make: (h) => runOf(staticFanOut(h), {}) },
  { name: 'handoff-graph addFanOut, async handlers', make: (h) => runOf(staticFanOut(h), {}), async: true },
  { name: 'handoff-graph addMap, sync handlers', make: (h) => runOf(mapFanOut(h), { items }) },
  { name: 'handoff-graph addMap, async handlers', make: (h) => runOf(mapFanOut(h), { items }), async: true },
  { name: 'LangGraph.js 1,000 edges out of a node', make: (h) => langGraphEdges(h), langGraph: true },
  { name: 'LangGraph.js 1,000 Sends', make: (h) => langGraphSend(h), langGraph: true },
];

// Agreement: every engine calls the handler BRANCHES times per run.
for (const engine of engines) {
  let calls = 0;
  const count = engine.async ? async () => { calls++; } : engine.langGraph ? () => { calls++; return {}; } : () => { calls++; };
  const run = engine.make(count);
  const said = await run();
  if (calls !== BRANCHES || said !== BRANCHES) throw new Error(`${engine.name}: ${calls} handler calls, ${said} branches reported`);
}

const loadBefore = loadavg()[0].toFixed(2);
const timed = engines.map((engine) => {
  const run = engine.make(engine.async ? emptyAsync : engine.langGraph ? () => ({}) : emptySync);
  return { name: engine.name, async: true, run };
});
const rows = (await measureAll(timed, options)).map((r) => ({ ...r, median: r.median / BRANCHES, min: r.min / BRANCHES, max: r.max / BRANCHES }));
printTable(`Fan-out of ${BRANCHES} empty branches, per branch (one run = one fan-out step and its join)`, rows);
const ours = rows.find((r) => r.engine === 'handoff-graph addFanOut, async handlers');
console.log(`\nhandoff-graph, async handlers: ${(ours.median / 1000).toFixed(2)} µs per branch (goal ≤ ${TARGET_NS / 1000} µs): ${ours.median <= TARGET_NS ? 'met' : 'missed'}`);
console.log('host:', JSON.stringify(host()));

if (jsonOut !== null) {
  const results = existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
  const uptime = { before: loadBefore, after: loadavg()[0].toFixed(2) };
  results.fanout = { branches: BRANCHES, unit: 'ns per branch', targetNs: TARGET_NS, options, uptime, host: host(), rows };
  writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
}
