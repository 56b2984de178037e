// `npm run bench`: what a route costs from Node, by marshalling strategy, on small and 1 MB
// states, next to hand-written JavaScript; plus init() time and package size.
// Usage: node bench/route.mjs [--json results.json] [--quick]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

import { HandoffGraph, init } from 'handoff-graph';
import { machine, measure, printTable } from './harness.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const quick = args.includes('--quick');
const options = quick ? { repetitions: 5, targetMs: 40 } : { repetitions: 7, targetMs: 150 };

await init();
const require = createRequire(import.meta.url);
const alternatives = await require('../build/wasm/bench-alternatives.cjs')({
  wasmBinary: readFileSync(new URL('../build/wasm/bench-alternatives.wasm', import.meta.url)),
});

// ---------------------------------------------------------------------------------------------
// States: a 10-key ticket, and the same ticket carrying 5,000 chat messages (about 1 MB).

function ticket(i) {
  const categories = ['billing', 'support', 'other', 'sales'];
  return {
    id: i, category: categories[i % 4], priority: i % 6, tags: i % 3 === 0 ? ['vip', 'urgent'] : ['later'],
    user: { tier: i % 5 === 0 ? 'gold' : 'silver', name: `user ${i}` }, channel: 'email', locale: 'en',
    createdAt: '2026-11-22T10:00:00Z', subject: 'Question about my invoice',
  };
}
const messages = Array.from({ length: 5000 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(6)}`,
  at: 1_700_000_000 + i,
}));
const small = Array.from({ length: 16 }, (_, i) => ticket(i));
const large = small.map((t) => ({ ...t, messages }));
const largeBytes = JSON.stringify(large[0]).length;

// ---------------------------------------------------------------------------------------------
// Cases: the same decision made by every engine.

const cases = [
  {
    name: 'triage (3 edges, seed)',
    edges: [['billing', "category == 'billing'"], ['support', "category == 'support'"], ['human', null]],
    ifChain: (s) => (s.category === 'billing' ? 'billing' : s.category === 'support' ? 'support' : 'human'),
    ownChecks: (s) => {
      const c = Object.hasOwn(s, 'category') ? s.category : null;
      return c === 'billing' ? 'billing' : c === 'support' ? 'support' : 'human';
    },
  },
  {
    name: 'escalation rule (seed)',
    edges: [['escalate', "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)"], ['queue', null]],
    ifChain: (s) => (s.user.tier === 'gold' || (s.priority > 3 && s.tags.includes('urgent')) ? 'escalate' : 'queue'),
    ownChecks: (s) => {
      const user = Object.hasOwn(s, 'user') ? s.user : null;
      const tier = user !== null && typeof user === 'object' && Object.hasOwn(user, 'tier') ? user.tier : null;
      const priority = Object.hasOwn(s, 'priority') ? s.priority : null;
      const tags = Object.hasOwn(s, 'tags') ? s.tags : null;
      return tier === 'gold' || (typeof priority === 'number' && priority > 3 && Array.isArray(tags) && tags.includes('urgent'))
        ? 'escalate' : 'queue';
    },
  },
];

const results = [];
for (const c of cases) {
  const graph = new HandoffGraph();
  const alt = new alternatives.HandoffGraph();
  for (const [to, when] of c.edges) {
    graph.addEdge('start', to, when);
    alt.addEdge('start', to, when ?? '');
  }
  const node = alt.find('start');
  const targets = c.edges.map(([to]) => to);

  for (const [stateName, states] of [['10-key state', small], [`1 MB state (${largeBytes} bytes JSON)`, large]]) {
    const n = states.length;
    const engines = [
      { name: 'handoff-graph route() (transfer buffer)', run: (i) => graph.route('start', states[i % n]) },
      { name: 'hand-written JS if chain (the floor)', run: (i) => c.ifChain(states[i % n]) },
      { name: 'hand-written JS, own-property checks', run: (i) => c.ownChecks(states[i % n]) },
      { name: 'wasm, state read via emscripten::val', run: (i) => targets[alt.routeVal(node, states[i % n])] ?? null },
      { name: 'wasm, JSON.stringify + nlohmann parse', run: (i) => targets[alt.routeJSON(node, JSON.stringify(states[i % n]))] ?? null },
    ];
    // Every engine must agree with ours before anything is timed.
    for (let i = 0; i < n; i++) {
      const expected = engines[0].run(i);
      for (const engine of engines) {
        const got = engine.run(i);
        if (got !== expected) throw new Error(`${c.name}: ${engine.name} says ${got}, ours says ${expected} on state ${i}`);
      }
    }
    const slowOnLarge = stateName.startsWith('1 MB');
    const rows = measure(slowOnLarge ? engines : engines, options);
    printTable(`${c.name}, ${stateName}`, rows);
    for (const row of rows) results.push({ case: c.name, state: stateName, ...row });
  }
  graph.dispose();
  alt.delete();
}

// Flatness: large / small for our route.
const flatness = cases.map((c) => {
  const ours = results.filter((r) => r.case === c.name && r.engine.startsWith('handoff-graph'));
  return { case: c.name, ratio: ours[1].median / ours[0].median };
});
console.log('\nroute() on a 1 MB state vs a 10-key state:');
for (const f of flatness) console.log(`  ${f.case.padEnd(30)} ${f.ratio.toFixed(2)}×`);

// ---------------------------------------------------------------------------------------------
// init() time (fresh processes) and package size.

const initScript = `const t0 = performance.now(); const { init } = await import('handoff-graph'); const t1 = performance.now();
  await init(); console.log(JSON.stringify({ importMs: t1 - t0, initMs: performance.now() - t1 }));`;
const inits = Array.from({ length: 7 }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', initScript], { encoding: 'utf8' })));
const initMs = inits.map((r) => r.initMs).sort((a, b) => a - b)[3];
const size = (file) => {
  const bytes = readFileSync(new URL(`../dist/${file}`, import.meta.url));
  return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const sizes = { wasm: size('handoff-graph.wasm'), glue: size('handoff-graph.mjs') };
const jsFiles = ['api.js', 'marshal.js', 'runtime.js', 'errors.js', 'browser.js'];
const jsGzip = jsFiles.reduce((sum, f) => sum + gzipSync(readFileSync(new URL(`../js/${f}`, import.meta.url)), { level: 9 }).length, 0);
console.log(`\ninit(): median ${initMs.toFixed(1)} ms over 7 fresh processes (compile + instantiate)`);
console.log(`size, gzipped: wasm ${sizes.wasm.gzip} B (raw ${sizes.wasm.bytes}), glue ${sizes.glue.gzip} B, package JS ${jsGzip} B; total ${sizes.wasm.gzip + sizes.glue.gzip + jsGzip} B`);

if (jsonOut) {
  writeFileSync(jsonOut, JSON.stringify({ machine: machine(), options, routes: results, flatness, initMs, sizes, jsGzip }, null, 2));
  console.log(`\nwrote ${jsonOut}`);
}
