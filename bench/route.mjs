// `npm run bench`: what a route costs from Node next to the JavaScript rule engines and a
// hand-written JavaScript floor, on 10-key and 1 MB states, and the same cases in Chromium
// (bench/browser.mjs); the two marshalling strategies the package rejected; graph growth,
// condition compile throughput, init() time, package size and WebAssembly heap; when given Google
// Benchmark's JSON, the overhead over native C++; with --instructions, instruction counts per
// decision (bench/instructions.mjs); and the goals of issue 19, correctness ones included (the
// vectors natively, in Node and in Chromium, and the Content-Security-Policy test).
// Usage: node bench/route.mjs [--json results.json] [--quick] [--native native.json]
//        [--no-browser] [--instructions | --instructions-json FILE]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

import { parse as celParse } from '@marcbachmann/cel-js';
import { compileExpression } from 'filtrex';
import { HandoffGraph, compileCondition, heapUsed, init } from 'handoff-graph';
import jsonLogic from 'json-logic-js';
import { Engine, Rule } from 'json-rules-engine';

import { MESSAGES, cases, compileMix, randomState, rng, toCel, toFiltrex, toJsonLogic, toOurs, toRules } from './cases.mjs';
import { machine, measure, measureAll, printTable } from './harness.mjs';

const args = process.argv.slice(2);
const argValue = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : null);
const jsonOut = argValue('--json');
const nativeFile = argValue('--native');
// --smoke: everything runs (agreement checks included) on tiny budgets, so that `npm test` keeps
// the benchmark working; its figures mean nothing.
const smoke = args.includes('--smoke');
const quick = smoke || args.includes('--quick');
const options = smoke ? { repetitions: 2, targetMs: 3 } : quick ? { repetitions: 5, targetMs: 25 } : { repetitions: 7, targetMs: 100 };
const AGREEMENT_STATES = smoke ? 500 : 10_000;
const AGREEMENT_STATES_1MB = smoke ? 20 : 1000;       // the first ones again, carrying the 1 MB of messages
const AGREEMENT_STATES_JSON_1MB = quick ? 20 : 200;  // JSON.stringify of 1 MB costs milliseconds
const BROWSER = !args.includes('--no-browser');
const INSTRUCTIONS = args.includes('--instructions');
const TIMED_STATES = 64;
const started = performance.now();
const loadBefore = loadavg()[0];

// How busy the rest of the machine was while this ran: CPU time used by other processes, as a
// share of all cores over the run (Linux /proc/stat; null elsewhere). Above a few percent, the
// figures are noisy.
const cpuBusy = () => {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };  // seconds, at USER_HZ = 100
  } catch {
    return null;
  }
};
const busyAtStart = cpuBusy();
const cpuAtStart = process.cpuUsage();

await init();
const require = createRequire(import.meta.url);
const alternatives = await require('../build/wasm/bench-alternatives.cjs')({
  wasmBinary: readFileSync(new URL('../build/wasm/bench-alternatives.wasm', import.meta.url)),
});

const figures = [];  // every figure, flat: { section, case, state?, engine, unit, median, min, max, ratio }
const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e4 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(1)} ns`);
const withMessages = (s) => ({ ...s, messages: MESSAGES });
const largeBytes = JSON.stringify(withMessages(cases[0].timed(rng(1), 0))).length;
const STATES = [['10-key', (s) => s], ['1 MB', withMessages]];

// ---------------------------------------------------------------------------------------------
// Engines. Each case's edges are translated to every engine's own language (bench/cases.mjs) and
// compiled once where the engine has a compile step. decide(state) → target or null.

const NOTES = {
  'handoff-graph route()': 'the package: paths resolved in JS, values written to a transfer buffer in WebAssembly memory, one call routes (one more per path read lazily)',
  'hand-written JS if chain (the floor)': 'the same decision as plain property reads and ===; what V8 does with no engine at all',
  'hand-written JS, own-property checks': 'the floor with the guarantees route() gives: own properties only, type checks, missing is null',
  'wasm, state read via emscripten::val': 'rejected marshalling: C++ walks the JS object through emscripten::val, one boundary crossing per property read',
  'wasm, JSON.stringify + nlohmann parse': 'rejected marshalling: the whole state serialized in JS and parsed in C++',
  'json-logic-js': 'no compile step: the JSON rule tree is interpreted on every call',
  '@marcbachmann/cel-js': 'compiled once with parse(); the compiled function is called per decision',
  filtrex: 'compiles to JavaScript source run through new Function, so it fails under a Content-Security-Policy without unsafe-eval',
  'json-rules-engine (async)': 'every run() is asynchronous (facts may be async, so each condition goes through promises); awaited one at a time, with engine.stop() after the first success so that edges are first-match like the others',
};

function enginesFor(c) {
  const targets = c.edges.map(([to]) => to);
  const graph = new HandoffGraph();
  const alt = new alternatives.HandoffGraph();
  for (const [to, when] of c.edges) {
    graph.addEdge('start', to, when && toOurs(when));
    alt.addEdge('start', to, when ? toOurs(when) : '');
  }
  const node = alt.find('start');
  const firstTrue = (tests) => (s) => {
    for (let k = 0; k < tests.length; k++) if (tests[k] === null || tests[k](s)) return targets[k];
    return null;
  };

  const logic = c.edges.map(([, when]) => when && toJsonLogic(when));
  const cel = c.edges.map(([, when]) => when && celParse(toCel(when)));
  const filtrex = c.edges.map(([, when]) => when && compileExpression(toFiltrex(when)));
  const rules = new Engine();
  c.edges.forEach(([to, when], k) => rules.addRule({
    name: to, priority: c.edges.length - k, conditions: when ? toRules(when) : { all: [] }, event: { type: 'route', params: { to } },
  }));
  rules.on('success', () => { rules.stop(); });

  // Per-edge tests, used by the disagreement report only.
  const oursConditions = c.edges.map(([, when]) => when && compileCondition(toOurs(when)));
  const engines = [
    { name: 'handoff-graph route()', decide: (s) => graph.route('start', s), edges: oursConditions.map((x) => x && ((s) => x.evaluate(s))) },
    { name: 'hand-written JS if chain (the floor)', decide: c.floor },
    { name: 'hand-written JS, own-property checks', decide: c.ownChecks },
    { name: 'wasm, state read via emscripten::val', decide: (s) => targets[alt.routeVal(node, s)] ?? null },
    { name: 'wasm, JSON.stringify + nlohmann parse', decide: (s) => targets[alt.routeJSON(node, JSON.stringify(s))] ?? null, slowOnLarge: true },
    {
      name: 'json-logic-js',
      edges: logic.map((rule) => rule && ((s) => jsonLogic.truthy(jsonLogic.apply(rule, s)))),
      language: c.edges.map(([, when]) => when && JSON.stringify(toJsonLogic(when))),
    },
    { name: '@marcbachmann/cel-js', edges: cel.map((f) => f && ((s) => f(s) === true)), language: c.edges.map(([, when]) => when && toCel(when)) },
    {
      name: 'filtrex',
      // filtrex returns (never throws) its run-time errors; treat one as the failure it is.
      edges: filtrex.map((f) => f && ((s) => {
        const v = f(s);
        if (v instanceof Error) throw v;
        return v === true;
      })),
      language: c.edges.map(([, when]) => when && toFiltrex(when)),
    },
    {
      name: 'json-rules-engine (async)',
      async: true,
      decide: async (s) => {
        const { events } = await rules.run(s);
        return events.length === 0 ? null : events[0].params.to;
      },
      language: c.edges.map(([, when]) => when && JSON.stringify(toRules(when))),
    },
  ];
  for (const e of engines) e.decide ??= firstTrue(e.edges);
  return {
    engines,
    dispose() {
      graph.dispose();
      alt.delete();
      for (const x of oursConditions) x?.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Agreement: before anything is timed, every engine decides 10,000 random states (and the same
// states carrying the 1 MB of messages) and must agree with route() on every one.

const routedKeys = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'messages'));

function explainDisagreement(c, engine, s, expected, got) {
  const lines = [`${c.name}: ${engine.name} decided ${JSON.stringify(got)}, handoff-graph ${JSON.stringify(expected)}`,
    `  state: ${JSON.stringify(routedKeys(s))}${s.messages ? ' + 5,000 messages' : ''}`];
  const k = c.edges.findIndex(([to]) => to === expected || to === got);
  if (k >= 0 && c.edges[k][1]) {
    lines.push(`  condition (ours): ${toOurs(c.edges[k][1])}`);
    if (engine.language?.[k]) lines.push(`  condition (${engine.name}): ${engine.language[k]}`);
    if (engine.edges?.[k]) {
      let theirs;
      try { theirs = engine.edges[k](s); } catch (error) { theirs = `throws ${error.message.split('\n')[0]}`; }
      lines.push(`  on this state: ours ${compileCondition(toOurs(c.edges[k][1])).evaluate(s)}, theirs ${theirs}`);
    }
  }
  return lines.join('\n');
}

async function agree(c, engines) {
  const r = rng(0x5eed + c.id.length);
  // Half the states come from the generic generator, half from the case's timed generator.
  const states = [];
  for (let i = 0; i < AGREEMENT_STATES; i++) states.push(i % 2 === 0 ? randomState(r, i) : c.timed(r, i));
  const decisions = {};
  const failures = [];
  for (const [stateName, variant] of STATES) {
    const count = stateName === '1 MB' ? AGREEMENT_STATES_1MB : states.length;
    for (let i = 0; i < count; i++) {
      const s = variant(states[i]);
      const expected = engines[0].decide(s);
      if (stateName === '10-key') decisions[expected] = (decisions[expected] ?? 0) + 1;
      for (const engine of engines.slice(1)) {
        if (stateName === '1 MB' && engine.slowOnLarge && i >= AGREEMENT_STATES_JSON_1MB) continue;
        let got;
        try {
          got = engine.async ? await engine.decide(s) : engine.decide(s);
        } catch (error) {
          got = `(threw ${error.message.split('\n')[0]})`;
        }
        if (got !== expected) failures.push(explainDisagreement(c, engine, s, expected, got));
        if (failures.length >= 5) break;
      }
      if (failures.length >= 5) break;
    }
  }
  if (failures.length > 0) {
    console.error(`\nDISAGREEMENT (the run fails):\n${failures.join('\n')}`);
    process.exit(1);
  }
  return { case: c.name, states: AGREEMENT_STATES, statesWith1MB: AGREEMENT_STATES_1MB, jsonStringifyOn1MB: AGREEMENT_STATES_JSON_1MB, decisions };
}

// ---------------------------------------------------------------------------------------------
// Semantics probe (informational, not part of the agreement check): the escalation rule on states
// outside the schema the random states follow. This is where the engines really differ.

const PROBES = [
  ['{} (every key missing)', {}],
  ['priority is the string "5"', { user: { tier: 'silver' }, priority: '5', tags: ['urgent'] }],
  ['tags is the string "urgent"', { user: { tier: 'silver' }, priority: 5, tags: 'urgent' }],
  ['user is null', { user: null, priority: 5, tags: ['urgent'] }],
  ['only user.tier, "gold"', { user: { tier: 'gold' } }],
  ['tier inherited from a prototype', { user: Object.create({ tier: 'gold' }), priority: 0, tags: [] }],
];

async function probe(engines) {
  const rows = [];
  for (const [label, s] of PROBES) {
    const row = { state: label, json: JSON.stringify(s), decisions: {} };
    for (const engine of engines) {
      if (engine.name.startsWith('wasm,')) continue;
      let got;
      try {
        got = engine.async ? await engine.decide(s) : engine.decide(s);
      } catch (error) {
        got = `throws: ${error.message.split('\n')[0].slice(0, 80)}`;
      }
      // A json-rules-engine run that rejected goes on evaluating its remaining priority sets in
      // the background (and our success handler would stop() the next run): let it finish.
      await new Promise((resolve) => setImmediate(resolve));
      row.decisions[engine.name] = got;
    }
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Routing: every engine, every case, both state sizes.

const summarize = (decisions) => {
  const entries = Object.entries(decisions).sort((x, y) => y[1] - x[1]);
  const rest = entries.slice(4).reduce((sum, [, n]) => sum + n, 0);
  return entries.slice(0, 4).map(([k, n]) => `${k} ${n}`).join(', ') + (rest ? `, ${entries.length - 4} other targets ${rest}` : '');
};
const routes = [];
const agreement = [];
let semantics = null;
for (const c of cases) {
  const { engines, dispose } = enginesFor(c);
  const t0 = performance.now();
  agreement.push(await agree(c, engines));
  console.log(`\n${c.name}: all ${engines.length} engines agree on ${AGREEMENT_STATES.toLocaleString('en')} random states ` +
    `(and ${AGREEMENT_STATES_1MB.toLocaleString('en')} of them carrying 1 MB) ` +
    `[${(performance.now() - t0).toFixed(0)} ms]; decisions ${summarize(agreement.at(-1).decisions)}`);
  if (c.id === 'escalation') semantics = await probe(engines);

  const r = rng(0x7ed + c.id.length);
  const timed = Array.from({ length: TIMED_STATES }, (_, i) => c.timed(r, i));
  for (const [stateName, variant] of STATES) {
    const states = timed.map(variant);
    const n = states.length;
    const rows = await measureAll(engines.map((e) => ({
      name: e.name, async: e.async, run: e.async ? (i) => e.decide(states[i % n]) : (i) => e.decide(states[i % n]),
    })), options);
    const label = stateName === '1 MB' ? `1 MB state (${largeBytes.toLocaleString('en')} bytes of JSON)` : '10-key state';
    printTable(`${c.name}, ${label}`, rows);
    for (const row of rows) {
      routes.push({ case: c.name, caseId: c.id, state: stateName, ...row });
      figures.push({ section: 'route', case: c.name, state: stateName, engine: row.engine, unit: 'ns/op', median: row.median, min: row.min, max: row.max, ratio: row.ratio });
    }
  }
  dispose();
}

const routeRow = (caseId, state, engine) => routes.find((r) => r.caseId === caseId && r.state === state && r.engine === engine);
const OURS = 'handoff-graph route()';
const FLOOR = 'hand-written JS if chain (the floor)';

// Flatness: route() on the 1 MB states vs the 10-key states, measured again side by side in one
// interleaved run per case (so that both see the same JIT state), next to the ratio of the two
// tables above.
const flatness = [];
console.log('\nroute() on a 1 MB state vs a 10-key state (interleaved; from the tables above):');
for (const c of cases) {
  const graph = new HandoffGraph();
  for (const [to, when] of c.edges) graph.addEdge('start', to, when && toOurs(when));
  const r = rng(0x7ed + c.id.length);
  const small = Array.from({ length: TIMED_STATES }, (_, i) => c.timed(r, i));
  const large = small.map(withMessages);
  const n = small.length;
  const [a, b] = await measureAll([
    { name: 'route(), 10-key state', run: (i) => graph.route('start', small[i % n]) },
    { name: 'route(), 1 MB state', run: (i) => graph.route('start', large[i % n]) },
  ], options);
  graph.dispose();
  const tables = routeRow(c.id, '1 MB', OURS).median / routeRow(c.id, '10-key', OURS).median;
  flatness.push({ case: c.name, ratio: b.median / a.median, smallNs: a.median, largeNs: b.median, ratioFromTables: tables });
  figures.push({ section: 'flatness', case: c.name, state: '1 MB vs 10-key', engine: OURS, unit: 'ns/op', median: b.median, min: b.min, max: b.max, ratio: b.median / a.median });
  console.log(`  ${c.name.padEnd(40)} ${fmtNs(a.median).padStart(9)} → ${fmtNs(b.median).padStart(9)}: ${(b.median / a.median).toFixed(2)}× (${tables.toFixed(2)}×)`);
}

// The other processes' share of the CPU while the routing figures above were taken (this process
// starts no child before this point).
let otherLoad = null;
{
  const busyAtEnd = cpuBusy();
  if (busyAtStart !== null && busyAtEnd !== null) {
    const own = process.cpuUsage(cpuAtStart);
    const others = busyAtEnd.busy - busyAtStart.busy - (own.user + own.system) / 1e6;
    otherLoad = Math.max(0, others / (busyAtEnd.total - busyAtStart.total));
  }
  console.log(`\nother processes used ${otherLoad === null ? '?' : (otherLoad * 100).toFixed(1)}% of the CPU while the routes were timed`);
}

// ---------------------------------------------------------------------------------------------
// The same route cases in Chromium (bench/browser.mjs bundled by esbuild, served from the
// repository and run by playwright-core in Debian's /usr/bin/chromium), on either entry, and on the
// routing module in Node (bench/router-node.mjs, a process of its own: a process holds one runtime).

const printRows = (title, result, section) => {
  for (const c of cases) {
    for (const [stateName] of STATES) {
      const rows = result.routes.filter((r) => r.caseId === c.id && r.state === stateName);
      printTable(`${title}: ${c.name}, ${stateName} state`, rows);
      for (const row of rows) {
        figures.push({ section, case: c.name, state: stateName, engine: row.engine, unit: 'ns/op', median: row.median, min: row.min, max: row.max, ratio: row.ratio });
      }
    }
  }
};
const agreementStates = smoke ? 100 : 2000;
let nodeRouter = null;
{
  const t0 = performance.now();
  const output = execFileSync(process.execPath, [new URL('./router-node.mjs', import.meta.url).pathname,
    '--repetitions', String(options.repetitions), '--target-ms', String(options.targetMs), '--agreement', String(agreementStates)],
  { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8', maxBuffer: 1 << 26 });
  nodeRouter = JSON.parse(output);
  console.log(`\nNode, handoff-graph/router [${((performance.now() - t0) / 1000).toFixed(0)} s]; agreement: ` +
    nodeRouter.agreement.map((a) => `${a.case} ${a.states}`).join(', '));
  printRows('Node, handoff-graph/router', nodeRouter, 'route (Node, handoff-graph/router)');
}

let browser = null;
let browserRouter = null;
if (BROWSER) {
  const root = new URL('..', import.meta.url).pathname;
  execFileSync(new URL('../node_modules/.bin/esbuild', import.meta.url).pathname,
    ['bench/browser.mjs', '--bundle', '--format=esm', '--platform=browser', '--log-level=error', '--outfile=build/bench/browser-bench.js'],
    { cwd: root });
  const { launchBrowser, runPage, using } = await import('../tests/browser/harness.mjs');
  const { start } = await import('../tests/browser/server.mjs');
  const t0 = performance.now();
  await using(async (use) => {
    const server = use(await start());
    const chromium = use(await launchBrowser());
    for (const entry of ['full', 'router']) {
      // A page (and so a runtime) per entry.
      const query = `repetitions=${options.repetitions}&targetMs=${options.targetMs}&agreement=${agreementStates}&entry=${entry}`;
      const run = await runPage(chromium.context, `${server.url}bench/browser.html?${query}`, { timeout: 60 * 60_000 });
      if (!run.outcome.ok) throw new Error(`the browser benchmark (${entry}) failed: ${run.outcome.error}`);
      const result = { version: chromium.version, ...run.outcome.value };
      if (entry === 'full') browser = result;
      else browserRouter = result;
    }
  });
  console.log(`\nChromium ${browser.version} [${((performance.now() - t0) / 1000).toFixed(0)} s]; agreement: ` +
    browser.agreement.map((a) => `${a.case} ${a.states}`).join(', '));
  printRows('Chromium', browser, 'route (Chromium)');
  printRows('Chromium, handoff-graph/router', browserRouter, 'route (Chromium, handoff-graph/router)');
}

if (semantics !== null) {
  console.log('\nsemantics probe (escalation rule on states outside the schema; informational):');
  for (const row of semantics) {
    const ours = row.decisions[OURS];
    const others = Object.entries(row.decisions).filter(([name, d]) => name !== OURS && d !== ours).map(([name, d]) => `${name}: ${d}`);
    console.log(`  ${row.state.padEnd(34)} ours: ${ours}${others.length ? `; differ: ${others.join('; ')}` : '; all agree'}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Scaling: time to add N edges (a chain n0 → n1 → … → nN, each with a condition), per onCycle.

const scaling = [];
{
  const SIZES = smoke ? [1000] : [1000, 10_000, 100_000];
  const repetitions = quick ? 3 : 5;
  console.log('\nadd N edges (a chain, each edge conditional), Node, median of', repetitions);
  for (const n of SIZES) {
    const names = Array.from({ length: n + 1 }, (_, i) => `n${i}`);
    const builds = Math.max(1, Math.floor(20_000 / n));  // graphs per sample, so a sample lasts ≥ ~20k edges
    const samples = { error: [], allow: [] };
    for (let r = 0; r < repetitions + 1; r++) {
      for (const onCycle of ['error', 'allow']) {
        const graphs = [];
        const t = process.hrtime.bigint();
        for (let b = 0; b < builds; b++) {
          const g = new HandoffGraph({ onCycle });
          for (let i = 0; i < n; i++) g.addEdge(names[i], names[i + 1], 'x == 1');
          graphs.push(g);
        }
        const ms = Number(process.hrtime.bigint() - t) / 1e6 / builds;
        for (const g of graphs) g.dispose();
        if (r > 0) samples[onCycle].push(ms);  // the first repetition warms up
      }
    }
    for (const onCycle of ['error', 'allow']) {
      const xs = samples[onCycle].sort((a, b) => a - b);
      scaling.push({ n, onCycle, engine: 'handoff-graph (Node)', median: xs[Math.floor(xs.length / 2)], min: xs[0], max: xs.at(-1) });
    }
  }
}

let native = null;
if (nativeFile !== null && existsSync(nativeFile)) {
  const raw = JSON.parse(readFileSync(nativeFile, 'utf8'));
  const toNs = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
  native = {
    context: raw.context,
    benchmarks: raw.benchmarks.filter((b) => b.run_type !== 'aggregate' || b.aggregate_name === 'median').map((b) => ({
      name: b.name, ns: b.real_time * toNs[b.time_unit], cpuNs: b.cpu_time * toNs[b.time_unit], iterations: b.iterations, label: b.label, error: b.error_message,
    })),
  };
  for (const b of native.benchmarks) {
    const m = /^BM_AddEdges\/(\d+)\/(\d)$/.exec(b.name);
    if (m) scaling.push({ n: Number(m[1]), onCycle: m[2] === '0' ? 'error' : 'allow', engine: 'native C++ (Google Benchmark)', median: b.ns / 1e6, min: null, max: null });
  }
}
for (const row of scaling) {
  const previous = scaling.find((r) => r.engine === row.engine && r.onCycle === row.onCycle && r.n * 10 === row.n);
  row.perEdgeNs = (row.median * 1e6) / row.n;
  row.growth = previous === undefined ? null : row.median / previous.median;  // linear: 10×
  figures.push({ section: 'add edges', case: `add ${row.n} edges, onCycle '${row.onCycle}'`, engine: row.engine, unit: 'ms', median: row.median, min: row.min, max: row.max, ratio: row.growth });
}
console.log(`  ${'engine'.padEnd(32)} ${'N'.padStart(7)} ${'onCycle'.padStart(8)} ${'median'.padStart(10)} ${'per edge'.padStart(10)} ${'growth for 10× N'.padStart(17)}`);
for (const row of [...scaling].sort((a, b) => a.engine.localeCompare(b.engine) || a.onCycle.localeCompare(b.onCycle) || a.n - b.n)) {
  console.log(`  ${row.engine.padEnd(32)} ${String(row.n).padStart(7)} ${row.onCycle.padStart(8)} ${(row.median.toFixed(2) + ' ms').padStart(10)} ` +
    `${fmtNs(row.perEdgeNs).padStart(10)} ${(row.growth === null ? '' : row.growth.toFixed(1) + '×').padStart(17)}`);
}

// ---------------------------------------------------------------------------------------------
// Condition compile throughput: a fresh source each call (the priority literal changes), so no
// engine can answer from a cache.

let seq = 0;
const escalationSource = () => `user.tier == 'gold' or (priority > ${seq++} and 'urgent' in tags)`;
const escalationTree = cases.find((c) => c.id === 'escalation').edges[0][1];
const compileRows = measure([
  { name: 'handoff-graph compileCondition()', run: () => compileCondition(escalationSource()).dispose() },
  {
    // What the first evaluate() adds: the paths and strings fetched from the core, the readers built.
    name: 'handoff-graph compileCondition() + first evaluate()',
    run: () => {
      const c = compileCondition(escalationSource());
      c.evaluate(null);
      c.dispose();
    },
  },
  { name: '@marcbachmann/cel-js parse()', run: () => celParse(escalationSource().replace(' or ', ' || ').replace(' and ', ' && ')) },
  { name: 'filtrex compileExpression()', run: () => compileExpression(`tier of user == "gold" or (priority > ${seq++} and "urgent" in tags)`) },
  { name: 'json-rules-engine new Rule()', run: () => new Rule({ conditions: toRules(escalationTree), event: { type: 'escalate', params: { n: seq++ } } }) },
], quick ? { repetitions: 5, targetMs: 25 } : { repetitions: 7, targetMs: 100 });
printTable('condition compile (the escalation rule; json-logic-js has no compile step)', compileRows);
const compile = compileRows.map((r) => ({ ...r, perSecond: 1e9 / r.median }));
for (const r of compile) figures.push({ section: 'compile', case: 'compile the escalation rule', engine: r.engine, unit: 'ns/op', median: r.median, min: r.min, max: r.max, ratio: r.ratio });

// Issue 36's measure: a mix of 200 conditions, mostly small (bench/cases.mjs compileMix: the cases'
// conditions, the seed rules among them, then small random ones), compiled in turn, each disposed
// as the escalation row's are. Neither engine caches a compile by its source.
const MIX_SIZE = 200;
const mixOurs = compileMix(MIX_SIZE).map((tree) => toOurs(tree));
const mixCel = compileMix(MIX_SIZE).map((tree) => toCel(tree));
const compileMixRows = measure([
  { name: 'handoff-graph compileCondition(), 200-condition mix', run: (i) => compileCondition(mixOurs[i % MIX_SIZE]).dispose() },
  { name: '@marcbachmann/cel-js parse(), 200-condition mix', run: (i) => celParse(mixCel[i % MIX_SIZE]) },
], quick ? { repetitions: 5, targetMs: 25 } : { repetitions: 7, targetMs: 100 });
printTable(`condition compile, a mix of ${MIX_SIZE} conditions (per condition)`, compileMixRows);
const compileMixResult = compileMixRows.map((r) => ({ ...r, perSecond: 1e9 / r.median, conditions: MIX_SIZE }));
for (const r of compileMixResult) figures.push({ section: 'compile', case: `compile a ${MIX_SIZE}-condition mix`, engine: r.engine, unit: 'ns/op', median: r.median, min: r.min, max: r.max, ratio: r.ratio });

// ---------------------------------------------------------------------------------------------
// WebAssembly heap after building a 100k-edge graph.

let heap;
{
  const names = Array.from({ length: 100_001 }, (_, i) => `n${i}`);
  const before = heapUsed();
  const t = performance.now();
  const g = new HandoffGraph();
  for (let i = 0; i < 100_000; i++) g.addEdge(names[i], names[i + 1], 'x == 1');
  const buildMs = performance.now() - t;
  const after = heapUsed();
  g.dispose();
  heap = { edges: 100_000, condition: 'x == 1', before, after, used: after - before, perEdge: (after - before) / 100_000, afterDispose: heapUsed(), buildMs };
  console.log(`\nwasm heap for a 100,000-edge graph: ${(heap.used / 2 ** 20).toFixed(1)} MiB (${heap.perEdge.toFixed(0)} B per edge); ` +
    `${heap.afterDispose - before} B left after dispose()`);
  figures.push({ section: 'heap', case: '100,000-edge graph', engine: 'handoff-graph', unit: 'bytes', median: heap.used, min: heap.used, max: heap.used, ratio: null });
}

// ---------------------------------------------------------------------------------------------
// init() time (fresh processes) and package size.

const initScript = `const t0 = performance.now(); const { init } = await import('handoff-graph'); const t1 = performance.now();
  await init(); console.log(JSON.stringify({ importMs: t1 - t0, initMs: performance.now() - t1 }));`;
const initRuns = smoke ? 1 : quick ? 3 : 7;
const inits = Array.from({ length: initRuns }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', initScript], { encoding: 'utf8' })));
const sortedInit = inits.map((r) => r.initMs).sort((a, b) => a - b);
const initMs = sortedInit[Math.floor(initRuns / 2)];
const importMs = inits.map((r) => r.importMs).sort((a, b) => a - b)[Math.floor(initRuns / 2)];
figures.push({ section: 'init', case: 'init() in a fresh process', engine: 'handoff-graph', unit: 'ms', median: initMs, min: sortedInit[0], max: sortedInit.at(-1), ratio: null });

const size = (file) => {
  const bytes = readFileSync(new URL(`../${file}`, import.meta.url));
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const sizes = { wasm: size('dist/handoff-graph.wasm'), glue: size('dist/handoff-graph.mjs') };
const jsFiles = ['api.js', 'paths.js', 'state-writer.js', 'condition-compile.js', 'utf8.js', 'runtime.js', 'errors.js', 'browser.js'];
const jsGzip = jsFiles.reduce((sum, f) => sum + size(`js/${f}`).gzip, 0);
// The packed tarball, as `npm pack` makes it, and every JS / wasm file in it gzipped alone.
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const packFiles = packed.files.map((f) => f.path).filter((p) => /\.(m?js|cjs|wasm)$/.test(p)).map(size);
const pack = {
  tarballBytes: packed.size,
  unpackedBytes: packed.unpackedSize,
  entryCount: packed.entryCount,
  files: packFiles,
  jsAndWasmGzip: packFiles.reduce((sum, f) => sum + f.gzip, 0),
};
// What a browser loads: js/browser.js and everything it imports (the Emscripten glue included),
// bundled and minified by esbuild as an application's bundler would, plus the wasm.
{
  const bundle = execFileSync(new URL('../node_modules/.bin/esbuild', import.meta.url).pathname,
    ['js/browser.js', '--bundle', '--format=esm', '--minify', '--platform=browser', '--log-level=error'],
    { cwd: new URL('..', import.meta.url).pathname, maxBuffer: 64 << 20 });
  pack.browserBundle = { bytes: bundle.length, gzip: gzipSync(bundle, { level: 9 }).length };
  pack.browserGzip = pack.browserBundle.gzip + sizes.wasm.gzip;
}
console.log(`\ninit(): median ${initMs.toFixed(1)} ms over ${initRuns} fresh processes (compile + instantiate); import ${importMs.toFixed(1)} ms`);
console.log(`size, gzipped: wasm ${sizes.wasm.gzip} B (raw ${sizes.wasm.bytes}), glue ${sizes.glue.gzip} B, core JS ${jsGzip} B; ` +
  `npm pack: ${pack.tarballBytes} B tarball (${pack.entryCount} files), every JS + wasm file gzipped ${pack.jsAndWasmGzip} B, browser set ${pack.browserGzip} B`);
figures.push({ section: 'size', case: 'npm pack tarball', engine: 'handoff-graph', unit: 'bytes', median: pack.tarballBytes, min: pack.tarballBytes, max: pack.tarballBytes, ratio: null });
figures.push({ section: 'size', case: 'JS + wasm, gzipped', engine: 'handoff-graph', unit: 'bytes', median: pack.jsAndWasmGzip, min: pack.jsAndWasmGzip, max: pack.jsAndWasmGzip, ratio: null });

// ---------------------------------------------------------------------------------------------
// Overhead over native: route() from Node vs the same route in C++ from a JSON state
// (marshalling included) and on an already marshalled state.

const overhead = [];
if (native !== null) {
  const nativeNs = (name) => native.benchmarks.find((b) => b.name === name)?.ns ?? null;
  console.log('\nroute() from Node vs native C++ (Google Benchmark):');
  for (const c of cases) {
    for (const [stateName, nativeState] of [['10-key', '10key'], ['1 MB', '1MB']]) {
      const node = routeRow(c.id, stateName, OURS).median;
      const fromJson = nativeNs(`BM_RouteFromJson/${c.id}/${nativeState}`);
      const marshalled = nativeNs(`BM_RouteMarshalled/${c.id}`);
      if (fromJson === null) continue;
      overhead.push({ case: c.name, state: stateName, nodeNs: node, nativeFromJsonNs: fromJson, nativeMarshalledNs: marshalled, ratioFromJson: node / fromJson, ratioMarshalled: node / marshalled });
      figures.push({ section: 'native', case: c.name, state: stateName, engine: 'native C++ route from nlohmann::json', unit: 'ns/op', median: fromJson, min: null, max: null, ratio: fromJson / node });
      figures.push({ section: 'native', case: c.name, state: stateName, engine: 'native C++ route, state already marshalled', unit: 'ns/op', median: marshalled, min: null, max: null, ratio: marshalled / node });
      console.log(`  ${`${c.name}, ${stateName}`.padEnd(48)} Node ${fmtNs(node).padStart(9)}  native from JSON ${fmtNs(fromJson).padStart(9)} (Node ${(node / fromJson).toFixed(2)}×)` +
        `  native marshalled ${fmtNs(marshalled).padStart(8)} (Node ${(node / marshalled).toFixed(1)}×)`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Where a route's time goes: a CPU profile (node --cpu-prof, in a fresh process) of route()
// on the tiny cases (last, so that it cannot disturb the timings), its samples split between the package's JavaScript (path resolution and
// marshalling), the Emscripten glue, the WebAssembly module, and the rest (the loop, GC).

const profile = [];
{
  const dir = mkdtempSync(join(tmpdir(), 'handoff-graph-profile-'));
  for (const c of cases.filter((x) => x.id === 'triage' || x.id === 'escalation')) {
    // A fresh process under `node --cpu-prof`, so that the profiler sees only this loop.
    const script = `
      import { HandoffGraph, init } from 'handoff-graph';
      import { cases, rng, toOurs } from ${JSON.stringify(new URL('./cases.mjs', import.meta.url).href)};
      await init();
      const c = cases.find((x) => x.id === ${JSON.stringify(c.id)});
      const graph = new HandoffGraph();
      for (const [to, when] of c.edges) graph.addEdge('start', to, when && toOurs(when));
      const r = rng(${0x7ed + c.id.length});
      const states = Array.from({ length: ${TIMED_STATES} }, (_, i) => c.timed(r, i));
      function hot(calls) {
        let sink = 0;
        for (let i = 0; i < calls; i++) if (graph.route('start', states[i % ${TIMED_STATES}]) !== null) sink++;
        return sink;
      }
      if (hot(${smoke ? 20_000 : quick ? 500_000 : 3_000_000}) < 0) console.log('unreachable');`;
    const out = join(dir, `${c.id}.cpuprofile`);
    execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, '--cpu-prof-name', `${c.id}.cpuprofile`,
      '--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname, stdio: 'ignore' });
    const cpu = JSON.parse(readFileSync(out, 'utf8'));
    const byId = new Map(cpu.nodes.map((n) => [n.id, n]));
    const parent = new Map(cpu.nodes.flatMap((n) => (n.children ?? []).map((child) => [child, n.id])));
    const inLoop = (id) => {
      for (let at = id; at !== undefined; at = parent.get(at)) if (byId.get(at).callFrame.functionName === 'hot') return true;
      return false;
    };
    const shares = { 'package JS (js/*.js)': 0, WebAssembly: 0, 'Emscripten glue': 0, 'the timing loop, builtins, GC': 0 };
    const functions = new Map();
    for (let i = 0; i < cpu.samples.length; i++) {
      // Only what happens inside the loop (not start-up); GC pauses have no JS stack: counted too.
      const node = byId.get(cpu.samples[i]);
      if (!inLoop(node.id) && node.callFrame.functionName !== '(garbage collector)') continue;
      const { callFrame } = node;
      const dt = cpu.timeDeltas[i] ?? 0;
      const where = callFrame.url.startsWith('wasm://') ? 'WebAssembly'
        : /\/js\/[^/]+\.js$/.test(callFrame.url) ? 'package JS (js/*.js)'
          : /handoff-graph\.mjs$/.test(callFrame.url) ? 'Emscripten glue' : 'the timing loop, builtins, GC';
      shares[where] += dt;
      if (where === 'package JS (js/*.js)') {
        const name = `${callFrame.functionName || '(anonymous)'} (${callFrame.url.split('/').pop()})`;
        functions.set(name, (functions.get(name) ?? 0) + dt);
      }
    }
    const total = Object.values(shares).reduce((a, b) => a + b, 0);
    const entry = {
      case: c.name,
      shares: Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, v / total])),
      topJs: [...functions].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, v]) => ({ name, share: v / total })),
    };
    profile.push(entry);
    console.log(`\nprofile of route(), ${c.name}: ` + Object.entries(entry.shares).map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`).join(', ') +
      `; top JS: ${entry.topJs.map((f) => `${f.name} ${(f.share * 100).toFixed(0)}%`).join(', ')}`);
  }
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Instruction counts per decision (bench/instructions.mjs, valgrind): the profile the goals are
// explained with. Minutes of work, so only on request.

let instructions = null;
if (argValue('--instructions-json')) {
  // Counted earlier by `node bench/instructions.mjs --json FILE` (valgrind takes minutes per case).
  instructions = JSON.parse(readFileSync(argValue('--instructions-json'), 'utf8'));
} else if (INSTRUCTIONS) {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-graph-instructions-'));
  const file = join(dir, 'instructions.json');
  execFileSync(process.execPath, [new URL('./instructions.mjs', import.meta.url).pathname, '--json', file],
    { cwd: new URL('..', import.meta.url).pathname, stdio: ['ignore', 'ignore', 'inherit'] });
  instructions = JSON.parse(readFileSync(file, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Correctness goals, checked by the test suites themselves (not on --quick or --smoke runs).

function runCheck(command, argv) {
  let output;
  let ok = true;
  try {
    output = execFileSync(command, argv, { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
  } catch (error) {
    ok = false;
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  const gtest = /\[ {2}PASSED {2}\] (\d+) tests?/.exec(output);
  const pass = /^# pass (\d+)/m.exec(output);
  const fail = /^# fail (\d+)/m.exec(output);
  const passed = Number(gtest?.[1] ?? pass?.[1] ?? 0);
  return { ok: ok && (fail === null || fail[1] === '0'), passed, failed: Number(fail?.[1] ?? (ok ? 0 : 1)) };
}
let checks = null;
if (!quick) {
  checks = {
    vectorsNative: runCheck('build/native/handoff_tests', ['--gtest_filter=ConditionVectors*:GraphVectors*:MachineVectors*:HandoffVectors*', '--gtest_brief=1']),
    vectorsNode: runCheck(process.execPath, ['--test', 'tests/js/vectors.test.mjs', 'tests/js/machine-vectors.test.mjs', 'tests/js/handoff-vectors.test.mjs']),
    vectorsChromium: runCheck(process.execPath, ['--test', 'tests/browser/vectors.test.mjs']),
    csp: runCheck(process.execPath, ['--test', 'tests/browser/csp.test.mjs']),
  };
  console.log(`\nchecks: ${Object.entries(checks).map(([k, v]) => `${k} ${v.ok ? 'passed' : 'FAILED'} (${v.passed} passed, ${v.failed} failed)`).join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// The goals: issue 19's, in Node and in Chromium, and the earlier ones they did not replace.

const worst = (xs, key) => xs.reduce((a, b) => (b[key] < a[key] ? b : a));
const highest = (xs, key) => xs.reduce((a, b) => (b[key] > a[key] ? b : a));
// Per case and state, how many times route()'s time `engine` takes (above 1: we are faster).
const speedups = (rows, engine, caseIds = cases.map((c) => c.id)) => cases.filter((c) => caseIds.includes(c.id)).flatMap((c) => STATES.map(([s]) => {
  const ours = rows.find((r) => r.caseId === c.id && r.state === s && r.engine === OURS);
  const peer = rows.find((r) => r.caseId === c.id && r.state === s && r.engine === engine);
  return { case: c.name, state: s, engine, speedup: peer.median / ours.median, ratio: ours.median / peer.median };
}));
const runtimes = [
  ['Node', routes],
  ...(browser ? [['Chromium', browser.routes]] : []),
  ['Node, handoff-graph/router', nodeRouter.routes],
  ...(browserRouter ? [['Chromium, handoff-graph/router', browserRouter.routes]] : []),
];
const CEL = '@marcbachmann/cel-js';
const goals = [];
for (const [runtime, rows] of runtimes) {
  const cel = speedups(rows, CEL);
  const filtrex = speedups(rows, 'filtrex');
  const floor = speedups(rows, FLOOR, ['triage']);
  const router = speedups(rows, CEL, ['router50']);
  goals.push(
    { issue: 19, goal: `≥ 2× faster than @marcbachmann/cel-js on every case, 10-key and 1 MB (worst shown), ${runtime}`, value: worst(cel, 'speedup').speedup, unit: '×', target: 2, higherIsBetter: true, where: worst(cel, 'speedup') },
    { issue: 19, goal: `at least as fast as filtrex on every case, 10-key and 1 MB (worst shown), ${runtime}`, value: worst(filtrex, 'speedup').speedup, unit: '×', target: 1, higherIsBetter: true, where: worst(filtrex, 'speedup') },
    { issue: 19, goal: `triage within 4× of the hand-written floor (worst state shown), ${runtime}`, value: highest(floor, 'ratio').ratio, unit: '×', target: 4, where: highest(floor, 'ratio') },
    { issue: 19, goal: `50-edge router ≥ 10× faster than @marcbachmann/cel-js (worst state shown), ${runtime}`, value: worst(router, 'speedup').speedup, unit: '×', target: 10, higherIsBetter: true, where: worst(router, 'speedup') },
  );
}
// Issue 36's goals: ahead of cel-js by a margin on every case, the triage route near the floor, and
// compiling a realistic mix no slower than cel-js parses it.
for (const [runtime, rows] of runtimes) {
  const cel = speedups(rows, CEL);
  const floor = speedups(rows, FLOOR, ['triage']);
  goals.push(
    { issue: 36, goal: `route() ≥ 1.2× faster than @marcbachmann/cel-js on every case, 10-key and 1 MB (worst shown), ${runtime}`, value: worst(cel, 'speedup').speedup, unit: '×', target: 1.2, higherIsBetter: true, where: worst(cel, 'speedup') },
    { issue: 36, goal: `triage within 5× of the hand-written floor (worst state shown), ${runtime}`, value: highest(floor, 'ratio').ratio, unit: '×', target: 5, where: highest(floor, 'ratio') },
  );
}
{
  const [ours, cel] = compileMixResult;
  goals.push({ issue: 36, goal: `compileCondition() on a ${MIX_SIZE}-condition mix no slower than @marcbachmann/cel-js parse() (time ratio, ours / theirs)`, value: ours.median / cel.median, unit: '×', target: 1 });
}
{
  const ours = compile.find((r) => r.engine === 'handoff-graph compileCondition()');
  const cel = compile.find((r) => r.engine === '@marcbachmann/cel-js parse()');
  goals.push({ issue: 19, goal: 'compileCondition() no slower than @marcbachmann/cel-js parse() (time ratio, ours / theirs)', value: ours.median / cel.median, unit: '×', target: 1 });
}
goals.push({ issue: 19, goal: '1 MB state ≤ 1.3× the 10-key state (worst case shown), Node', value: Math.max(...flatness.map((f) => f.ratio)), unit: '×', target: 1.3, where: highest(flatness, 'ratio') });
for (const [runtime, rows] of runtimes.slice(1)) {
  const flat = cases.map((c) => {
    const at = (s) => rows.find((r) => r.caseId === c.id && r.state === s && r.engine === OURS).median;
    return { case: c.name, ratio: at('1 MB') / at('10-key') };
  });
  goals.push({ issue: 19, goal: `1 MB state ≤ 1.3× the 10-key state (worst case shown, from the tables), ${runtime}`, value: highest(flat, 'ratio').ratio, unit: '×', target: 1.3, where: highest(flat, 'ratio') });
}
if (checks) {
  const all = [checks.vectorsNative, checks.vectorsNode, checks.vectorsChromium];
  goals.push({
    issue: 19, goal: 'every vector passes: natively, in Node and in Chromium (tests/vectors/*.json)', unit: 'check', value: all.every((c) => c.ok),
    detail: `${checks.vectorsNative.passed} native tests, ${checks.vectorsNode.passed} Node tests, ${checks.vectorsChromium.passed} Chromium tests passed; ${all.reduce((n, c) => n + c.failed, 0)} failed`,
  });
  goals.push({
    issue: 19, goal: "no eval / new Function: the Content-Security-Policy test passes (script-src 'self' 'wasm-unsafe-eval')", unit: 'check', value: checks.csp.ok,
    detail: `tests/browser/csp.test.mjs: ${checks.csp.passed} passed, ${checks.csp.failed} failed`,
  });
}
{
  const peerRatios = routes.filter((r) => ['json-logic-js', CEL].includes(r.engine)).map((r) => ({ case: r.case, state: r.state, engine: r.engine, speedup: r.ratio }));
  const floorRatios = cases.flatMap((c) => STATES.map(([s]) => ({ case: c.name, state: s, ratio: routeRow(c.id, s, OURS).median / routeRow(c.id, s, FLOOR).median })));
  const error100k = scaling.filter((r) => r.n === 100_000 && r.onCycle === 'error');
  goals.push(
    { goal: 'route() ≤ 100 ns median on triage (10-key) in Node', value: routeRow('triage', '10-key', OURS).median, unit: 'ns', target: 100 },
    { goal: '≥ 3× faster than json-logic-js and cel-js on every case (worst case shown), Node', value: worst(peerRatios, 'speedup').speedup, unit: '×', target: 3, higherIsBetter: true, where: worst(peerRatios, 'speedup') },
    { goal: 'within 10× of the hand-written floor on every case (worst case shown), Node', value: highest(floorRatios, 'ratio').ratio, unit: '×', target: 10, where: highest(floorRatios, 'ratio') },
    ...error100k.map((r) => ({ goal: `100k edges with onCycle 'error' < 0.5 s (${r.engine})`, value: r.median / 1000, unit: 's', target: 0.5 })),
  );
}
for (const g of goals) g.met = g.unit === 'check' ? g.value === true : g.higherIsBetter ? g.value >= g.target : g.value <= g.target;
console.log('\ngoals:');
for (const g of goals) {
  const value = g.unit === 'check' ? g.detail : `${g.value.toPrecision(3)} ${g.unit}`;
  console.log(`  ${g.met ? 'met    ' : 'MISSED '} ${g.goal}: ${value}${g.where ? ` (${g.where.case}, ${g.where.state ?? ''}${g.where.engine ? ', ' + g.where.engine : ''})` : ''}`);
}

const elapsed = (performance.now() - started) / 1000;
console.log(`\nbench/route.mjs: ${elapsed.toFixed(0)} s; while the routes were timed, other processes used ` +
  `${otherLoad === null ? '?' : (otherLoad * 100).toFixed(1)}% of the CPU`);

if (jsonOut) {
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch { /* not a git checkout */ }
  const host = machine();
  writeFileSync(jsonOut, JSON.stringify({
    command: process.env.HANDOFF_BENCH_COMMAND ?? `node bench/route.mjs ${args.join(' ')}`,
    date: new Date().toISOString(),
    commit,
    host,
    loadAverage: (await import('node:os')).loadavg(),
    otherLoad,
    machine: host,  // bench/machine.mjs adds the state-machine results under this key
    options,
    seconds: elapsed,
    largeStateBytes: largeBytes,
    timedStates: TIMED_STATES,
    engineNotes: NOTES,
    agreement,
    routes,
    flatness,
    profile,
    semantics,
    scaling,
    compile,
    compileMix: compileMixResult,
    heap,
    initMs,
    importMs,
    sizes,
    jsGzip,
    pack,
    native,
    overhead,
    uptime: { before: loadBefore.toFixed(2), after: loadavg()[0].toFixed(2) },
    browser,
    browserRouter,
    nodeRouter,
    instructions,
    checks,
    goals,
    figures,
  }, null, 2));
  console.log(`wrote ${jsonOut}`);
}
