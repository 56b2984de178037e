// `node bench/check.mjs`: how long check() takes on a 500-edge graph (issue 31's goal: under 50 ms
// in Node), the definition built from the kinds of conditions bench/cases.mjs routes on: 100 nodes
// of 5 edges each, over a handful of paths per node. No peer offers this, so the table has one row:
// the median (min–max) over repetitions of one whole check(graph), the report included.
// Usage: node bench/check.mjs [--json results.json] [--quick]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { check, HandoffGraph, init } from 'handoff-graph';

import { machine as host } from './harness.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const repetitions = args.includes('--quick') ? 5 : 21;
const TARGET_MS = 50;
const NODES = 100;

// Five edges per node: a switch on one path, thresholds, membership, a conjunction, a default.
const templates = [
  (i) => `intent == 'refund_${i}' or intent == 'billing_${i}'`,
  (i) => `user.tier == 'gold' or (priority > ${i % 7} and 'urgent' in tags)`,
  (i) => `country in ['DE', 'FR', 'IT', 'C${i}'] and amount >= ${100 + i}`,
  (i) => `not verified and attempts < ${3 + (i % 4)}`,
  () => null,
];

await init();
const graph = new HandoffGraph({ onCycle: 'allow' });
for (let n = 0; n < NODES; n++) {
  templates.forEach((when, e) => {
    const condition = when(n);
    if (condition === null) graph.addEdge(`n${n}`, `n${(n + e + 1) % NODES}`);
    else graph.addEdge(`n${n}`, `n${(n + e + 1) % NODES}`, condition);
  });
}
const edges = graph.toJSON().edges.length;

const first = check(graph);
const undecided = first.findings.filter((f) => f.code === 'undecided').length;
if (first.cases.length + first.findings.filter((f) => f.edge !== undefined).length < edges - undecided) {
  throw new Error('check() left edges without a case or a finding');
}
const times = [];
for (let r = 0; r < repetitions; r++) {
  const started = performance.now();
  check(graph);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `check() on a ${edges}-edge graph (${NODES} nodes): median ${median.toFixed(2)} ms (min ${times[0].toFixed(2)}, max ${times.at(-1).toFixed(2)}) over ${repetitions} runs; ` +
    `${first.cases.length} cases, ${first.findings.length} findings (${undecided} undecided); goal < ${TARGET_MS} ms: ${median < TARGET_MS ? 'met' : 'missed'}`,
);
graph.dispose();

if (jsonOut !== null) {
  const results = existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
  results.check = {
    edges,
    nodes: NODES,
    repetitions,
    targetMs: TARGET_MS,
    medianMs: median,
    minMs: times[0],
    maxMs: times.at(-1),
    cases: first.cases.length,
    findings: first.findings.length,
    undecided,
    host: host(),
  };
  writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
}
