// Where a decision's work goes, counted rather than timed: machine instructions per decision
// under valgrind's callgrind, for route(), @marcbachmann/cel-js and filtrex on every case, and
// route()'s instructions split by where they run. Wall-clock figures on a shared machine wobble;
// instruction counts repeat to a few percent, so they are the profile BENCHMARKS.md explains the
// goals with (bench/route.mjs runs this with --instructions and stores the result).
//
// Method: the same loop is run twice under callgrind, N1 and N2 decisions after the same warm-up,
// in `node --single-threaded` (no concurrent compiler or GC threads; fixed hash and random seeds)
// with --perf-basic-prof (so JIT-compiled functions have names); per decision =
// (count(N2) - count(N1)) / (N2 - N1), per function, then grouped. Code that has no name in the perf map is WebAssembly (V8 does not list
// wasm functions there).
// Cases `compile` and `compile-mix`: instructions per compile of the escalation rule, or of
// bench/cases.mjs compileMix's 200 conditions in turn (engines route and cel), a tenth
// as many iterations as decisions.
// Usage: node bench/instructions.mjs [--cases triage,escalation,compile] [--engines route,router,cel,filtrex]
//        [--json out.json]
//        node bench/instructions.mjs --child <engine> <case> <n>     (what callgrind runs)
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const WARM_UP = 200_000;

if (args[0] === '--child') {
  const [, engine, caseId, n] = args;
  // A second name for this process's perf map, in the parent's directory (the cwd): other
  // processes on the machine delete perf-*.map files in /tmp they did not make, and a hard link
  // keeps the file (which V8 goes on writing) whatever happens to its name there.
  try {
    linkSync(`/tmp/perf-${process.pid}.map`, `perf-${process.pid}.map`);
  } catch {
    // no perf map (not run with --perf-basic-prof): nothing to name
  }
  const { parse: celParse } = await import('@marcbachmann/cel-js');
  const { compileExpression } = await import('filtrex');
  // 'router': route() on handoff-graph/router, the routing module (a process holds one runtime).
  const { HandoffGraph, init } = await import(engine === 'router' ? 'handoff-graph/router' : 'handoff-graph');
  const { cases, rng, toCel, toFiltrex, toOurs } = await import('./cases.mjs');
  await init();
  if (caseId === 'compile' || caseId === 'compile-mix') {
    // One compile per iteration: of the escalation rule with a different number each time (as
    // bench/route.mjs's compile table), so no engine can answer from a cache, or (compile-mix)
    // of the 200 conditions of bench/cases.mjs compileMix in turn; ours is disposed at once, as
    // there. Only route (compileCondition) and cel (parse) have these cases.
    const { compileCondition } = await import('handoff-graph');
    const { compileMix } = await import('./cases.mjs');
    const mix = caseId === 'compile-mix' ? compileMix(200) : null;
    const ours = mix ? mix.map((tree) => toOurs(tree))
      : Array.from({ length: 1024 }, (_, i) => `user.tier == 'gold' or (priority > ${i} and 'urgent' in tags)`);
    const theirs = mix ? mix.map((tree) => toCel(tree)) : ours.map((s) => s.replace(' or ', ' || ').replace(' and ', ' && '));
    const compile = {
      route: (i) => compileCondition(ours[i % ours.length]).dispose(),
      cel: (i) => celParse(theirs[i % theirs.length]),
    }[engine];
    const loop = (count) => {
      for (let i = 0; i < count; i++) compile(i);
    };
    loop(WARM_UP / 10);
    loop(Number(n) / 10);
    process.exit(0);
  }
  const c = cases.find((x) => x.id === caseId);
  const targets = c.edges.map(([to]) => to);
  const firstTrue = (tests) => (s) => {
    for (let k = 0; k < tests.length; k++) if (tests[k] === null || tests[k](s)) return targets[k];
    return null;
  };
  const graph = new HandoffGraph();
  for (const [to, when] of c.edges) graph.addEdge('start', to, when && toOurs(when));
  const decide = {
    route: (s) => graph.route('start', s),
    router: (s) => graph.route('start', s),
    cel: firstTrue(c.edges.map(([, w]) => w && ((f) => (s) => f(s) === true)(celParse(toCel(w))))),
    filtrex: firstTrue(c.edges.map(([, w]) => w && ((f) => (s) => f(s) === true)(compileExpression(toFiltrex(w))))),
  }[engine];
  const r = rng(0x7ed + c.id.length);
  const states = Array.from({ length: 64 }, (_, i) => c.timed(r, i));
  const loop = (count) => {
    let sink = 0;
    for (let i = 0; i < count; i++) if (decide(states[i & 63]) !== null) sink++;
    return sink;
  };
  loop(WARM_UP);
  if (loop(Number(n)) < 0) console.log('never');
  process.exit(0);
}

const argValue = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : null);
const N1 = 200_000;
const N2 = 1_200_000;
const here = fileURLToPath(new URL('.', import.meta.url));

// Functions by where they run. Names are V8's (node is built with symbols), the perf map's
// "JS:*name file:///…" for optimized JavaScript, or none (WebAssembly).
const GROUPS = [
  ['own-property checks (Object.prototype.propertyIsEnumerable, a C++ builtin)',
    /PropertyIsEnumerable|LookupIterator|GetPropertyAttributes|CEntry_|AdaptorWithBuiltinExitFrame|SmiToString|Call_ReceiverIs|CallFunction_Receiver/],
  ['property reads (megamorphic keyed loads)', /KeyedLoadIC|LoadIC_Megamorphic|LoadIC\b/],
  ['interned-string lookups (Map.get)', /FindOrderedHashMapEntry|StringEqual|MapPrototypeGet/],
  ['package JavaScript (js/*.js)', /^JIT JS:.*\/js\/[^/]+\.js/],
  ['WebAssembly', /^wasm$/],
];

// A child whose perf map another process deleted before the child could link it (in the seconds
// node takes to start under valgrind) is run again.
function run(engine, caseId, n, dir) {
  for (let attempt = 1; ; attempt++) {
    try {
      return runOnce(engine, caseId, n, dir);
    } catch (error) {
      if (attempt === 3 || !error.message.startsWith('no perf map')) throw error;
    }
  }
}

function runOnce(engine, caseId, n, dir) {
  // The child's pid (callgrind's %p) names its perf map, which the child also links into `dir`:
  // other processes on the machine write and delete perf-*.map files in /tmp at the same time.
  const prefix = `${engine}-${caseId}-${n}`;
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${join(dir, `${prefix}.%p.callgrind`)}`, process.execPath, '--single-threaded', '--perf-basic-prof',
    // Fixed seeds: V8 hashes strings (Map lookups, property lookups) with a random seed per process,
    // which moved route()'s count by up to 7% from one run to the next.
    '--hash-seed=1', '--random-seed=1',
    join(here, 'instructions.mjs'), '--child', engine, caseId, String(n)], { stdio: 'ignore', cwd: dir });  // V8 writes isolate-*.log there
  const outName = readdirSync(dir).find((f) => f.startsWith(`${prefix}.`) && f.endsWith('.callgrind'));
  const out = join(dir, outName);
  const mapName = `perf-${outName.slice(prefix.length + 1, -'.callgrind'.length)}.map`;
  const symbols = [];
  if (existsSync(join(dir, mapName))) {
    for (const line of readFileSync(join(dir, mapName), 'utf8').split('\n')) {
      const [at, size, ...name] = line.split(' ');
      if (name.length) symbols.push([parseInt(at, 16), parseInt(size, 16), name.join(' ')]);
    }
  }
  rmSync(join(dir, mapName), { force: true });
  rmSync(join('/tmp', mapName), { force: true });
  if (symbols.length === 0) {
    rmSync(out, { force: true });
    throw new Error(`no perf map for ${prefix}: JavaScript would be counted as WebAssembly`);
  }
  symbols.sort((a, b) => a[0] - b[0]);
  const lookup = (address) => {
    let lo = 0;
    let hi = symbols.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (symbols[mid][0] <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const s = symbols[hi];
    return s && address < s[0] + s[1] ? s[2] : null;
  };
  const text = execFileSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const byName = new Map();
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const count = Number(m[1].replaceAll(',', ''));
    if (m[2].includes('PROGRAM TOTALS')) {
      total = count;
      continue;
    }
    const unknown = /\?\?\?:0x([0-9a-f]+)/.exec(m[2]);
    let name = m[2].replace(/\s*\[.*\]$/, '').replace(/^\?\?\?:/, '').replace(/'\d+$/, '');
    if (unknown) {
      const jit = lookup(parseInt(unknown[1], 16));
      name = jit === null ? 'wasm' : `JIT ${jit}`;
    }
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  rmSync(out, { force: true });
  return { total, byName };
}

function perDecision(engine, caseId, dir) {
  const a = run(engine, caseId, N1, dir);
  const b = run(engine, caseId, N2, dir);
  const per = (x, y) => (y - x) / ((N2 - N1) / (caseId.startsWith('compile') ? 10 : 1));
  const functions = [...new Set([...a.byName.keys(), ...b.byName.keys()])]
    .map((name) => ({ name, instructions: per(a.byName.get(name) ?? 0, b.byName.get(name) ?? 0) }))
    .filter((f) => f.instructions > 0.5)
    .sort((x, y) => y.instructions - x.instructions);
  const total = per(a.total, b.total);
  const groups = GROUPS.map(([group, pattern]) => ({
    group, instructions: functions.filter((f) => pattern.test(f.name)).reduce((sum, f) => sum + f.instructions, 0),
  }));
  const grouped = groups.reduce((sum, g) => sum + g.instructions, 0);
  groups.push({ group: 'the rest (the timing loop, other builtins, GC)', instructions: total - grouped });
  return { total, groups, top: functions.slice(0, 12) };
}

const caseIds = (argValue('--cases') ?? 'triage,escalation,membership,router50').split(',');
const dir = mkdtempSync(join(tmpdir(), 'handoff-graph-instructions-'));
const result = { method: `callgrind, (count(${N2.toLocaleString('en')}) - count(${N1.toLocaleString('en')})) / ${(N2 - N1).toLocaleString('en')} decisions, node --single-threaded`, cases: [] };
try {
  if (!existsSync('/usr/bin/valgrind')) throw new Error('valgrind is not installed');
  for (const caseId of caseIds) {
    const entry = { caseId, engines: {} };
    for (const engine of (argValue('--engines') ?? 'route,router,cel,filtrex').split(',')) {
      entry.engines[engine] = perDecision(engine, caseId, dir);
      console.error(`${caseId} ${engine}: ${entry.engines[engine].total.toFixed(0)} instructions per decision`);
    }
    result.cases.push(entry);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const json = JSON.stringify(result, null, 2);
if (argValue('--json')) writeFileSync(argValue('--json'), json);
else console.log(json);
