// Writes BENCHMARKS.md from the JSON of `npm run bench -- --json <file>`. Every number in the
// page, the prose included, comes from that file.
// Usage: node scripts/benchmarks-md.mjs [bench/results.json] [BENCHMARKS.md]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { payloadMarkdown } from './size-report.mjs';

const input = process.argv[2] ?? 'bench/results.json';
const output = process.argv[3] ?? 'BENCHMARKS.md';
const d = JSON.parse(readFileSync(input, 'utf8'));

const OURS = 'handoff-graph route()';
const FLOOR = 'hand-written JS if chain (the floor)';
const OWN = 'hand-written JS, own-property checks';
const VAL = 'wasm, state read via emscripten::val';
const JSONS = 'wasm, JSON.stringify + nlohmann parse';
const PEERS = ['json-logic-js', '@marcbachmann/cel-js', 'filtrex', 'json-rules-engine (async)'];
const CASES = [...new Set(d.routes.map((r) => r.case))];
const caseId = (name) => d.routes.find((r) => r.case === name).caseId;

const ns = (x) => {
  if (x === null || x === undefined) return '–';
  if (x >= 1e6) return `${(x / 1e6).toFixed(x >= 1e7 ? 0 : 1)} ms`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(x >= 1e4 ? 0 : 1)} µs`;
  return `${x.toFixed(x >= 100 ? 0 : 1)} ns`;
};
const times = (x) => (x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);
const bytes = (b) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${b} B`);
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (head, rows, align) => [row(head), row(head.map((_, i) => (align?.[i] === 'l' ? '---' : '---:'))), ...rows.map(row)].join('\n');
const get = (c, state, engine) => d.routes.find((r) => r.case === c && r.state === state && r.engine === engine);
const short = (engine) => engine.replace(' (async)', '');

// Issue 19's missed goals: for each, the profile (instruction counts per decision when measured,
// bench/instructions.mjs) and the reason, with the next idea. The reasons are the profile's.
function missedGoalsMarkdown() {
  const lines = ['### Missed goals: profile, reason, next idea'];
  const missed = d.goals.filter((g) => g.issue === 19 && !g.met);
  const ins = d.instructions?.cases ?? [];
  const total = (caseId, engine) => ins.find((c) => c.caseId === caseId)?.engines[engine]?.total;
  const fmt = (x) => (x === undefined ? '–' : Math.round(x).toLocaleString('en'));
  if (ins.length) {
    const engines = ['route', 'router', 'cel', 'filtrex'].filter((e) => ins.some((c) => c.engines[e]));
    const names = { route: 'route() (handoff-graph)', router: 'route() (handoff-graph/router)', cel: '@marcbachmann/cel-js', filtrex: 'filtrex' };
    lines.push('', `Instructions per decision in Node (${d.instructions.method}); they repeat to a few percent where wall-clock ` +
      'time on a shared machine does not, and they say where the time goes:', '',
      table(['case', ...engines.map((e) => names[e])], ins.map((c) => [CASES.find((n) => caseId(n) === c.caseId) ?? c.caseId,
        ...engines.map((e) => fmt(total(c.caseId, e)))]), ['l']), '',
      'route()\'s instructions by where they run:', '',
      table(['case', ...ins[0].engines.route.groups.map((g) => g.group)], ins.map((c) => [CASES.find((n) => caseId(n) === c.caseId) ?? c.caseId,
        ...c.engines.route.groups.map((g) => `${fmt(g.instructions)} (${Math.round((100 * g.instructions) / c.engines.route.total)}%)`)]), ['l']));
  }
  const kinds = [
    ['cel-js', (g) => g.goal.includes('faster than @marcbachmann/cel-js on every case')],
    ['filtrex', (g) => g.goal.startsWith('at least as fast as filtrex')],
    ['floor', (g) => g.goal.startsWith('triage within 4×')],
    ['router', (g) => g.goal.startsWith('50-edge router')],
    ['compile', (g) => g.goal.startsWith('compileCondition()')],
    ['flat', (g) => g.goal.startsWith('1 MB state')],
  ];
  const where = (g) => (g.where ? ` (worst: ${[g.where.case, g.where.state].filter(Boolean).join(', ')})` : '');
  // Per case, the smallest "engine's time / route()'s time" over every runtime, entry and state.
  const results = [d.routes, d.browser?.routes, d.browserRouter?.routes, d.nodeRouter?.routes].filter(Boolean);
  const perCase = (engine) => CASES.map((c) => `${c} ${times(Math.min(...results.flatMap((rows) => rows
    .filter((r) => r.case === c && r.engine === engine).map((r) => r.ratio))))}`).join(', ');
  for (const [kind, test] of kinds) {
    const gs = missed.filter(test);
    if (gs.length === 0) continue;
    const measuredText = gs.map((g) => `${g.goal.replace(/.*, (Node|Chromium)/, '$1')}: ${times(g.value)}${where(g)}`).join('; ');
    if (kind === 'filtrex' && missed.some(kinds[0][1])) {
      lines.push('', `**At least as fast as filtrex** — missed in ${measuredText}. Per case, the worst ratio over every ` +
        `runtime, entry and state: ${perCase('filtrex')}. The profile and the reason are those above; ` +
        'filtrex\'s closures are plain JavaScript compiled by `new Function` (which is why it fails under a strict ' +
        'Content-Security-Policy), so V8 inlines its property reads into one function per rule.');
    } else if (kind === 'cel-js' || kind === 'filtrex') {
      const own = ins.map((c) => c.engines.route.groups.find((x) => x.group.startsWith('own-property')));
      lines.push('', `**${kind === 'cel-js' ? '≥ 2× faster than @marcbachmann/cel-js' : 'At least as fast as filtrex'}** — missed in ${measuredText}. ` +
        `Per case, the worst ratio over every runtime, entry and state: ${perCase(kind === 'cel-js' ? '@marcbachmann/cel-js' : 'filtrex')}. ` +
        'Profile: on the small rules every property route() reads costs one `Object.prototype.propertyIsEnumerable` call, ' +
        'which V8 runs as a C++ builtin through a runtime entry (a lookup iterator per call, ' +
        (own.length && own[0] ? `${own.map((x, i) => `${fmt(x.instructions)} instructions on ${ins[i].caseId}`).join(', ')}` : 'hundreds of instructions') +
        '), plus the property load itself (one load site per path slot, so its inline cache stays monomorphic) and the call into ' +
        'WebAssembly. The escalation rule reads lazily (docs/conditions.md, when paths are read): `user` and `user.tier` ' +
        'always, `priority` when the tier is not gold, `tags` and every element of it only when priority is above 3, each with that check. ' +
        'Reason: the documented semantics read only own enumerable properties (docs/conditions.md), and no V8 builtin ' +
        'answers "own and enumerable" without the runtime call; cel-js and filtrex read with inline-cached loads and ' +
        '`hasOwnProperty` (a stub, not a runtime call) or with no own check at all, and V8 compiles their closures per rule. ' +
        'Next idea: the check itself is most of what is left (about 285 instructions a call, four calls in an average escalation ' +
        'decision); an `Object.keys` per object would answer several keys at once but calls a Proxy\'s `ownKeys` trap, which ' +
        'the pinned reading rules do not, so it needs a way to tell a Proxy from an ordinary object first (Node\'s ' +
        '`util.types.isProxy` is one, and costs more than it saves: issue 36 below); then the lazy ' +
        'read\'s round trip (the core calls JavaScript for each path it reaches: a WebAssembly-to-JS wrapper and the writer).');
    } else if (kind === 'floor') {
      lines.push('', `**Triage within 4× of the hand-written floor** — missed in ${measuredText}. ` +
        'Profile: the floor is one inline-cached property load and two `===`; route() does one ' +
        '`propertyIsEnumerable` (alone, in a microbenchmark, more than 4× the floor\'s whole time), one string-table ' +
        'lookup (`Map.get`), the cell writes and the call into WebAssembly, where the switch decides with one hash lookup. ' +
        'Reason: the goal is below the cost of the own-enumerable check the semantics require, before any routing. ' +
        'Next idea: none that keeps the semantics within 4×; the reachable target is the own-property floor (a `hasOwn` ' +
        'check, the third column of the tables).');
    } else if (kind === 'router') {
      lines.push('', `**50-edge router ≥ 10× faster than cel-js** — missed in ${measuredText}. ` +
        'Profile: the node\'s 50 edges are one switch on `intent` (one hash lookup, then the one edge whose key matched is ' +
        'evaluated), so the route costs about what the triage route does; cel-js tries the 50 compiled closures in order. ' +
        'Reason: the fixed per-route cost (the two property reads with their own-enumerable checks, the call). Next idea: ' +
        'the per-object enumerability check above.');
    } else if (kind === 'compile') {
      const ours = d.compile.find((r) => r.engine === 'handoff-graph compileCondition()');
      const cel = d.compile.find((r) => r.engine.includes('cel-js'));
      const parse = d.native?.benchmarks.find((b) => b.name === 'BM_Parse');
      lines.push('', `**compileCondition() no slower than cel-js's parse()** — missed: ${ns(ours.median)} against ${ns(cel.median)} ` +
        `(${times(ours.median / cel.median)}). Profile: the source goes in through raw exports (no embind, no JSON), ` +
        `the paths and strings come out only on first use${parse ? `; natively the parse alone takes ${ns(parse.ns)}` : ''}. ` +
        'The parser grows the condition\'s parts in scratch space reused by every compile and copies each once, at its ' +
        'size; a condition\'s own string table finds its few strings without a hash map. What remains is a fixed cost in ' +
        'JavaScript (the FinalizationRegistry registration that frees a condition nobody disposed is made in a microtask ' +
        'batch, so a condition disposed first costs none), and the parse itself at wasm speed, a dozen allocations included (`node bench/instructions.mjs ' +
        '--cases compile --engines route,cel` counts both engines). Next idea: fewer allocations per condition (the ' +
        'source copy, the string table\'s first block), and a scanner that hands tokens over without `Expected`.');
    } else if (kind === 'flat') {
      lines.push('', `**1 MB state ≤ 1.3× the 10-key state** — missed in ${measuredText}. ` +
        'Only the paths a node reads are resolved and written, so the work does not grow with the state; these figures ' +
        'are two tables timed one after the other (minutes apart, on a machine whose load is given above), while the ' +
        'interleaved side-by-side measurement in Node (the State size section) is the goal\'s measure. ' +
        'Next idea: time the two states interleaved in the page too.');
    }
  }
  return lines.join('\n');
}

// Issue 36's missed goals, with the profile (bench/experiments.json: one-off measurements, each
// saying how it was taken) and the reason, and the next idea.
function issue36Markdown() {
  const x = existsSync(new URL('../bench/experiments.json', import.meta.url))
    ? JSON.parse(readFileSync(new URL('../bench/experiments.json', import.meta.url), 'utf8')) : {};
  const fmt = (n) => Math.round(n).toLocaleString('en');
  const missed = d.goals.filter((g) => g.issue === 36 && !g.met);
  const where = (g) => `${g.goal.replace(/.*, (Node|Chromium)/, '$1')}: ${times(g.value)}` +
    (g.where ? ` (${[g.where.case, g.where.state].filter(Boolean).join(', ')})` : '');
  const lines = ['### Issue 36: profile, reason, next idea'];
  const cel = missed.filter((g) => g.goal.includes('1.2× faster than @marcbachmann/cel-js'));
  const r = x.restartableRoute;
  const m = x.membershipSummary;
  const px = x.isProxyCheck;
  const MAP_GET = 'interned-string lookups (Map.get)';
  const groups = (entry) => Object.entries(entry.groups).filter(([, n]) => n > 0).map(([k, n]) => `${k.replace(/ \(.*/, '')} ${fmt(n)}`).join(', ');
  // This run's instruction counts (bench/instructions.mjs) when it has them, else the experiment's.
  const counted = (caseId, engine) => {
    const e = d.instructions?.cases.find((c) => c.caseId === caseId)?.engines[engine];
    return e ? { total: e.total, groups: Object.fromEntries(e.groups.map((g) => [g.group, g.instructions])) } : undefined;
  };
  const method = d.instructions?.method ?? r?.method;
  const profileOf = (caseId) => counted(caseId, 'route') ?? r?.lazyImport[caseId];
  const celOf = (caseId) => counted(caseId, 'cel');
  if (cel.length) {
    lines.push('', `**route() ≥ 1.2× faster than cel-js** — missed in ${cel.map(where).join('; ')}. ` +
      (profileOf('escalation') ? `Profile (instructions per decision, ${method}): the escalation rule takes ` +
        `${fmt(profileOf('escalation').total)} (${groups(profileOf('escalation'))})` +
        (celOf('escalation') ? `, cel-js ${fmt(celOf('escalation').total)}` : '') + '. ' : '') +
      'The own-enumerable check is a third of it: about four `propertyIsEnumerable` calls per decision (`user`, ' +
      '`user.tier`, then `priority` and `tags` and each tag as the decision needs them), each a C++ builtin entered ' +
      'through a runtime call. Reason: the semantics (own enumerable properties only, Proxies read through ' +
      '`getOwnPropertyDescriptor` and `get` alone) leave no cheaper exact check: `Object.hasOwn` is a fast stub but ' +
      'says nothing of enumerability, and `Object.keys` (one call per object instead of one per key) runs a ' +
      'Proxy\'s `ownKeys` trap, and no browser API tells a Proxy from an ordinary object without running a trap.' +
      (r ? ` Tried: the restartable route (${r.what}). It costs more in Node ${r.method.split('in Node ')[1] ?? ''}: ` +
        `${fmt(r.restartable.escalation.total)} instructions on the escalation rule against ${fmt(r.lazyImport.escalation.total)} ` +
        `(WebAssembly, the calls' wrappers included, ${fmt(r.restartable.escalation.groups.WebAssembly)} against ` +
        `${fmt(r.lazyImport.escalation.groups.WebAssembly)}), and ${fmt(r.restartable.triage.total)} against ` +
        `${fmt(r.lazyImport.triage.total)} on triage: each further call into WebAssembly, and the route's set-up it ` +
        'repeats, costs more than the import callback it replaces.' : '') +
      (m ? ' Tried and not kept: the membership summary (the core plans the literals of `\'literal\' in path` tests, and ' +
        'an array at a path only those read is written as its elements equal to one of them, every element still read and ' +
        `checked as before): ${fmt(m.before.escalation.total)} → ${fmt(m.after.escalation.total)} instructions on the ` +
        `escalation rule (string-id lookups ${fmt(m.before.escalation.groups[MAP_GET])} → ` +
        `${fmt(m.after.escalation.groups[MAP_GET])}), 4% of a decision for a second encoding of arrays on the tape and a ` +
        'second writer path; it cannot remove the per-element check, which only an engine fact about the array (no holes, ' +
        'no accessors, no Proxy) would spare, and no JavaScript API gives one without running a trap.' : '') +
      (px ? ` Measured and not built: Node's \`util.types.isProxy\` (${fmt(px.perCall['util.types.isProxy'])} instructions a ` +
        `call) with one \`Object.keys\` per object (${fmt(px.perCall['Object.keys(o).includes(key)'])}) costs more than the ` +
        `${fmt(px.perCall['Object.prototype.propertyIsEnumerable (today)'])} of the check it would replace, because a lazy read ` +
        'takes one key per object and getters may change an object between reads.' : '') +
      ' Next idea: the restartable route again where JS-to-WebAssembly calls are inlined (newer V8, Chromium), measured ' +
      'there first; the checks themselves, a third of the decision, have no cheaper exact replacement in the runtimes measured.');
  }
  const floor = missed.filter((g) => g.goal.startsWith('triage within 5×'));
  if (floor.length) {
    lines.push('', `**Triage within 5× of the hand-written floor** — missed in ${floor.map(where).join('; ')}. ` +
      (profileOf('triage') ? `Profile: ${fmt(profileOf('triage').total)} instructions per decision in Node (${groups(profileOf('triage'))}). ` : '') +
      'The floor is one inline-cached load and two `===`, a few nanoseconds; route() adds one `propertyIsEnumerable`, ' +
      'one `Map.get` for the interned string, the cell write and one call into WebAssembly. Reason: in Chromium the ' +
      'floor is faster still while the check and the call are not, so the ratio is higher there. Next idea: the ' +
      'own-property column is the floor of what route() promises; closing on it needs the check above.');
  }
  const compileGoal = d.goals.find((g) => g.issue === 36 && g.goal.includes('-condition mix'));
  if (compileGoal?.met && d.compileMix && x.compileMix) {
    const cm = x.compileMix;
    const runs = cm.runs?.map((run) => times(run.ratio)).join(', ');
    lines.push('', `**compileCondition() on the mix** — met in this run (${times(compileGoal.value)} cel-js's time), but not ` +
      'reliably' + (runs ? ` (in ${cm.runs.length} runs one after another on the shared machine: ${runs})` : '') +
      `: counted in a fresh process (${cm.method}), a compile of the mix takes ${fmt(cm.after.total)} instructions ` +
      `against cel-js's ${fmt(cm.cel.total)} (${fmt(cm.before.total)} before issue 36's changes: the FinalizationRegistry ` +
      'registration, now batched in a microtask, and a faster copy of long sources). cel-js allocates JavaScript objects ' +
      'for every parse, whose collection costs more in a process with a large heap, as bench/route.mjs\'s is by then; ' +
      `ours is mostly the parse in WebAssembly (${fmt(cm.after.groups.WebAssembly)} instructions). Next idea: one arena per ` +
      'condition (every part in one allocation, path keys as views into the copied source), which removes most of the ' +
      'fixed cost of a small compile.');
  }
  const compile = missed.filter((g) => g.goal.includes('-condition mix'));
  if (compile.length && d.compileMix) {
    const [ours, celMix] = d.compileMix;
    const np = x.nativeParse;
    const tiny = x.tinyCompile;
    const cm = x.compileMix;
    lines.push('', `**compileCondition() on the mix no slower than cel-js's parse()** — missed: ${ns(ours.median)} against ` +
      `${ns(celMix.median)} per condition (${times(ours.median / celMix.median)}). The FinalizationRegistry ` +
      'registration that was about a fifth of a compile is gone from compile-and-dispose (owners are registered in a ' +
      'microtask batch, so one disposed first is never registered), and a long source goes to `TextEncoder` at once' +
      (cm ? ` (instructions per compile of the mix, ${cm.method}: ${fmt(cm.before.total)} before, ${fmt(cm.after.total)} now, ` +
        `cel-js ${fmt(cm.cel.total)}; of ours, WebAssembly ${fmt(cm.after.groups.WebAssembly)})` : '') +
      '. Profile: what is left is the parse in WebAssembly, ' +
      'and most of the mix is small conditions, where a fixed cost dominates' +
      (tiny ? ` (\`x == n\`: ${fmt(tiny.rawExportsNs)} ns through the raw exports alone, against ${fmt(tiny.celParseNs)} ns for cel-js; ${tiny.what})` : '') +
      (np ? `; natively, parsing the escalation rule takes ${fmt(np.ns)} ns, spread over the scanner and the parser ` +
        `(${np.top.map(([f, share]) => `${f} ${share.toFixed(0)}%`).join(', ')})` : '') +
      '. Reason: a compile allocates a dozen times (the condition, its string table, its nodes, operands, constants, ' +
      'paths and each path step\'s key as a `std::string`, the source copy), and emmalloc and the copies are a large ' +
      'share at this size. Next idea: one arena per condition (every part in one allocation, path keys as views into ' +
      'the copied source), which removes most of the fixed cost.');
  }
  return lines.join('\n');
}

const out = [];
const p = (...lines) => out.push(...lines, '');

// ---------------------------------------------------------------------------------------------
p('# Benchmarks',
  '<!-- Generated by scripts/benchmarks-md.mjs from bench/results.json: edit those, not this file. -->');
const m = d.host ?? d.machine;
p(`Measured ${d.date.slice(0, 10)} on ${m.cpu} (${m.cores} cores), Node ${m.node}, ${m.platform}` +
  `${d.commit ? `, commit ${d.commit}` : ''}; other processes used ${d.otherLoad === null || d.otherLoad === undefined ? 'an unknown share' : `${(d.otherLoad * 100).toFixed(1)}%`} ` +
  `of the CPU while the routes were timed.` +
  (d.native?.context ? ` Native: g++ Release build (-O3) with Debian's Google Benchmark` +
    (d.native.context.library_build_type === 'debug' ? ' (it warns that the library itself was built without NDEBUG; the timed loops are inlined into our -O3 code)' : '') + '.' : ''),
  'Reproduce with:',
  '```sh',
  d.command,
  `node scripts/benchmarks-md.mjs ${input}   # this page`,
  '```');
p('How it measures: every engine of a case runs in the same Node process, interleaved repetition by repetition ' +
  `(${d.options.repetitions} repetitions of about ${d.options.targetMs} ms each, after a warm-up), and a figure is the median ` +
  'time per decision with its min–max over the repetitions; "×" is the ratio to `route()` (above 1: slower than ours). ' +
  `The timed states are ${d.timedStates} seeded random tickets per case, cycled; the "1 MB" state is the same ticket carrying ` +
  `5,000 chat messages (${d.largeStateBytes.toLocaleString('en')} bytes as JSON) besides the routed keys. ` +
  `Before anything is timed, every engine decides ${d.agreement[0].states.toLocaleString('en')} random states per case ` +
  `(and ${d.agreement[0].statesWith1MB.toLocaleString('en')} of them carrying the messages) and must agree with \`route()\` on every one, ` +
  'or the run fails. The rules are written once (bench/cases.mjs) and translated to each engine\'s language.');

// ---------------------------------------------------------------------------------------------
p('## Headline: one decision, 10-key state');
p(table(['case', 'handoff-graph', 'hand-written JS', 'hand-written JS, own-property checks', ...PEERS.map(short)],
  CASES.map((c) => [c, ns(get(c, '10-key', OURS).median), ...[FLOOR, OWN, ...PEERS].map((e) => {
    const r = get(c, '10-key', e);
    return `${ns(r.median)} (${times(r.ratio)})`;
  })]), ['l']));
p('The same with the 1 MB state:');
p(table(['case', 'handoff-graph', 'hand-written JS', 'hand-written JS, own-property checks', ...PEERS.map(short)],
  CASES.map((c) => [c, ns(get(c, '1 MB', OURS).median), ...[FLOOR, OWN, ...PEERS].map((e) => {
    const r = get(c, '1 MB', e);
    return `${ns(r.median)} (${times(r.ratio)})`;
  })]), ['l']));

// ---------------------------------------------------------------------------------------------
// The same cases in Chromium (both entries) and on the routing module in Node (bench/route-cases.mjs).
{
  const others = [
    [d.browser, `Chromium ${d.browser?.version ?? ''}, handoff-graph (the full module)`],
    [d.browserRouter, `Chromium ${d.browserRouter?.version ?? ''}, handoff-graph/router (the routing module)`],
    [d.nodeRouter, 'Node, handoff-graph/router (the routing module, in a process of its own)'],
  ].filter(([r]) => r);
  if (others.length) {
    p('## The same cases in Chromium and on handoff-graph/router');
    p('bench/route-cases.mjs runs the cases above with route(), the floors, json-logic-js, cel-js and filtrex interleaved in ' +
      'one page or process, after the same kind of agreement check ' +
      `(${others[0][0].agreement[0].states.toLocaleString('en')} random states per case); json-rules-engine and the rejected ` +
      'marshalling strategies are Node-only. In Chromium the package is loaded unbundled from the repository as a browser ' +
      'user\'s ES modules are (`/js/browser.js` or `/js/router.js`), under playwright-core with Debian\'s /usr/bin/chromium. ' +
      'A figure is the median time per decision; "×" is the ratio to route() in the same run.');
    const engines = ['hand-written JS if chain (the floor)', 'hand-written JS, own-property checks', 'json-logic-js', '@marcbachmann/cel-js', 'filtrex'];
    for (const [result, title] of others) {
      for (const state of ['10-key', '1 MB']) {
        const at = (c, e) => result.routes.find((r) => r.case === c && r.state === state && r.engine === e);
        p(`### ${title}, ${state} state`);
        p(table(['case', 'route()', ...engines.map((e) => e.replace(' (the floor)', '').replace('hand-written JS, ', ''))],
          CASES.map((c) => [c, ns(at(c, OURS).median), ...engines.map((e) => `${ns(at(c, e).median)} (${times(at(c, e).ratio)})`)]), ['l']));
      }
      if (result.initMs !== undefined) p(`\`init()\` of this entry in this run: ${result.initMs.toFixed(1)} ms.`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
p('## Goals');
{
  const measured = (g) => {
    if (g.unit === 'check') return g.detail;
    const value = g.unit === 'ns' ? ns(g.value) : g.unit === 's' ? `${g.value.toFixed(3)} s` : times(g.value);
    return value + (g.where ? ` (${[g.where.case, g.where.state, g.where.engine].filter(Boolean).join(', ')})` : '');
  };
  const target = (g) => (g.unit === 'check' ? 'passes' : `${g.higherIsBetter ? '≥' : '≤'} ${g.unit === 'ns' ? `${g.target} ns` : g.unit === 's' ? `${g.target} s` : `${g.target}×`}`);
  const issue36 = d.goals.filter((g) => g.issue === 36);
  if (issue36.length) {
    p('Issue 36\'s goals, per runtime and entry: `route()` ahead of cel-js by 20% on every case, the triage route within 5× ' +
      'of the hand-written floor, and compiling a realistic mix of conditions (bench/cases.mjs `compileMix`: the cases\' ' +
      'conditions, the seed rules among them, then small random ones) no slower than cel-js parses it. The ' +
      '"own-property checks" column of the tables is the floor of what `route()` promises (own properties only, type ' +
      'checks, missing is null). ' +
      (d.uptime ? `The machine's load average (1 min) was ${d.uptime.before} before the run and ${d.uptime.after} after: ` +
        'absolute times from a busy machine are noisy, and the ratios, taken within one process or page with the ' +
        'engines interleaved, are the figures to read. ' : '') +
      'Why a missed goal is missed follows the tables.');
    p(table(['goal', 'measured', 'target', ''], issue36.map((g) => [g.goal, measured(g), target(g), g.met ? 'met' : '**missed**']), ['l', 'l', 'l', 'l']));
  }
  const issue19 = d.goals.filter((g) => g.issue === 19);
  if (issue19.length) {
    p('Issue 19\'s goals, per runtime and entry ("handoff-graph/router": the routing module of issue 21, to which the ' +
      'same goals apply). A "×" against an engine is how many times `route()`\'s time that engine takes (above 1: we are ' +
      'faster); against the floor and between state sizes it is our time over the other. ' +
      (d.uptime ? `The machine's load average (1 min) was ${d.uptime.before} before the run and ${d.uptime.after} after. ` : '') +
      'Why each missed goal is missed, with its profile and the next idea, follows the table.');
    p(table(['goal', 'measured', 'target', ''], issue19.map((g) => [g.goal, measured(g), target(g), g.met ? 'met' : '**missed**']), ['l', 'l', 'l', 'l']));
  }
  const earlier = d.goals.filter((g) => g.issue !== 19 && g.issue !== 36);
  if (earlier.length) {
    p('Earlier goals, still measured:');
    p(table(['goal', 'measured', 'target', ''], earlier.map((g) => [g.goal, measured(g), target(g), g.met ? 'met' : '**missed**']), ['l', 'l', 'l', 'l']));
  }
}
if (d.goals.some((g) => g.issue === 19 && !g.met)) p(missedGoalsMarkdown());
if (d.goals.some((g) => g.issue === 36 && !g.met)) p(issue36Markdown());

// ---------------------------------------------------------------------------------------------
// The honest paragraph, from the figures.
p('## Where we lose, and why');
{
  const tiny = CASES.filter((c) => ['triage', 'escalation'].includes(caseId(c)));
  const floorVs = (engines, cs) => {
    const xs = cs.flatMap((c) => engines.map((e) => get(c, '10-key', e).median / get(c, '10-key', FLOOR).median));
    return [Math.min(...xs), Math.max(...xs)];
  };
  const [fo1, fo2] = floorVs([OURS], tiny);
  const [fe1, fe2] = floorVs(PEERS.filter((e) => !e.includes('rules-engine')), tiny);
  const triage = CASES.find((c) => caseId(c) === 'triage');
  const over = d.overhead?.find((o) => o.case === triage && o.state === '10-key');
  // Per peer: the cases where it is faster than route() (10-key / 1 MB), and those where it is slower.
  const both = (c, e) => `${times(1 / get(c, '10-key', e).ratio)} / ${times(1 / get(c, '1 MB', e).ratio)}`;
  const bothSlow = (c, e) => `${times(get(c, '10-key', e).ratio)} / ${times(get(c, '1 MB', e).ratio)}`;
  const losses = PEERS.map((e) => [e, CASES.filter((c) => get(c, '10-key', e).ratio < 1 || get(c, '1 MB', e).ratio < 1)])
    .filter(([, cs]) => cs.length).map(([e, cs]) => `${short(e)} is faster on ${cs.map((c) => `${c} (${both(c, e)})`).join(', ')}`);
  const wins = ['@marcbachmann/cel-js', 'filtrex', 'json-logic-js'].map((e) => [e, CASES.filter((c) => get(c, '10-key', e).ratio >= 1 && get(c, '1 MB', e).ratio >= 1)])
    .filter(([, cs]) => cs.length).map(([e, cs]) => `${short(e)} takes ${cs.map((c) => `${bothSlow(c, e)} our time on ${c}`).join(', ')}`);
  p(`**Hand-written JavaScript wins every case.** On the tiny rules (triage, escalation) the \`if\` chain is ` +
    `${times(fo1)}–${times(fo2)} faster than \`route()\`, and ${times(fe1)}–${times(fe2)} faster than the compiled or ` +
    'interpreted JS engines (json-rules-engine, asynchronous, is far behind everything). A few property reads and `===` ' +
    'that V8 inlines into the caller cannot be beaten by any engine that has to look the rule up, and is not the ' +
    'point of one: rules that live in configuration, can be written by people you do not trust, run without `eval`, ' +
    'and give the same answer in C++ and JS. The own-property column is the fairer floor: the same guarantees ' +
    '`route()` gives (own properties only, type checks, missing is null).');
  p(`**The boundary costs more than the evaluation.** ${over
    ? `Natively, the triage route on an already marshalled state takes ${ns(over.nativeMarshalledNs)} and ${ns(over.nativeFromJsonNs)} ` +
      `from a JSON object; from Node it takes ${ns(over.nodeNs)}, ${times(over.ratioMarshalled)} the marshalled native figure. `
    : ''}${(d.profile ?? []).map((pr) => {
      const pct = (x) => `${Math.round(x * 100)}%`;
      return `A CPU profile of route() on ${pr.case} (\`node --cpu-prof\`, run by the benchmark) puts ` +
        `${pct(pr.shares['package JS (js/*.js)'])} of the time in the package's JavaScript ` +
        `(${pr.topJs.slice(0, 3).map((f) => `${f.name.replace(/ \(.*\)$/, '')} ${pct(f.share)}`).join(', ')}) and ` +
        `${pct(pr.shares.WebAssembly)} inside WebAssembly. `;
    }).join('')}The JavaScript part resolves each path the node reads on the state object and writes the values as ` +
    'cells into WebAssembly memory; inside the module the route reads those cells, which costs more than the native ' +
    'marshalled figure because wasm code runs slower than native and the call crosses the boundary. ' +
    'Engines that compile a rule into a JavaScript closure (filtrex, cel-js), which V8 ' +
    'then optimizes like hand-written code, stay ahead of us on small rules (10-key / 1 MB): ' +
    (losses.length ? `${losses.join('; ')}.` : 'not on this run: we were ahead everywhere.') +
    (wins.length ? ` We are ahead where ${wins.join('; ')}. The more edges and list items a ` +
      'decision tries, the more of its time is evaluation, which runs at C++ speed inside the module, while the ' +
      'boundary is paid once per route.' : ''));
  const flat = d.flatness.map((f) => `${times(f.ratio)} (${f.case})`).join(', ');
  const mk = (c, s, e) => get(c, s, e);
  const marsh = CASES.map((c) => {
    const o10 = mk(c, '10-key', OURS); const o1 = mk(c, '1 MB', OURS);
    return `${c}: ${ns(o10.median)} / ${ns(o1.median)} with the transfer buffer, ` +
      `${ns(mk(c, '10-key', VAL).median)} / ${ns(mk(c, '1 MB', VAL).median)} through \`emscripten::val\`, ` +
      `${ns(mk(c, '10-key', JSONS).median)} / ${ns(mk(c, '1 MB', JSONS).median)} through JSON`;
  });
  p('**Why a transfer buffer, not `emscripten::val` or JSON.** Three ways to get the state into WebAssembly were built ' +
    'and measured on the same graphs (10-key / 1 MB): ' + marsh.join('; ') + '. ' +
    '`emscripten::val` makes C++ read the JS object itself, but every property read, type test and string copy is a ' +
    'separate crossing of the boundary through embind\'s handle table, so it costs several times the buffer. ' +
    'JSON is simple and keeps the C++ side in charge, but it serializes the whole state on every route, so its cost ' +
    'grows with the state (milliseconds at 1 MB) although a condition reads three keys. The transfer buffer resolves ' +
    'only the paths the node\'s conditions name, in JS, and copies only those values, so the state\'s size does not ' +
    `matter: 1 MB / 10-key for \`route()\` is ${flat}.`);
  const compileOurs = d.compile.find((r) => r.engine.startsWith('handoff-graph'));
  const compileCel = d.compile.find((r) => r.engine.includes('cel-js'));
  const parseNative = d.native?.benchmarks.find((b) => b.name === 'BM_Parse');
  if (compileOurs && compileCel) {
    const firstUse = d.compile.find((r) => r.engine.includes('first evaluate'));
    p(`**Compiling.** \`compileCondition()\` takes ${ns(compileOurs.median)} for the escalation rule ` +
      (parseNative ? `(the C++ parser alone, natively: ${ns(parseNative.ns)}) ` : '') +
      `against ${ns(compileCel.median)} for cel-js's \`parse()\`. The source goes in through raw exports and the paths ` +
      'and interned strings come out only when first needed' + (firstUse ? ` (compile + first evaluate(): ${ns(firstUse.median)})` : '') +
      '. It happens once per edge (`addEdge`) or per distinct condition (`evaluateCondition` caches), never per route.');
  }
}

// ---------------------------------------------------------------------------------------------
p('## State size');
p('`route()` on the 1 MB states against the same states without the messages, measured side by side in one ' +
  'interleaved run per case (both under the same JIT state); the last column is the same ratio taken from the two ' +
  'tables below, which were measured one after the other.');
p(table(['case', '10-key', '1 MB', '1 MB / 10-key', 'from the tables'],
  d.flatness.map((f) => [f.case, ns(f.smallNs), ns(f.largeNs), times(f.ratio), times(f.ratioFromTables)]), ['l']));

p('## Routing, every engine');
p('Median time per decision, min–max over the repetitions, and the ratio to `route()`. ' +
  'The two `wasm, …` rows are the marshalling strategies the package rejected, built only for the benchmark ' +
  '(wasm/bench_alternatives.cpp): they end in the same C++ `route`.');
for (const c of CASES) {
  for (const s of ['10-key', '1 MB']) {
    p(`### ${c}, ${s} state`);
    p(table(['engine', 'median', 'min–max', 'vs route()'],
      d.routes.filter((r) => r.case === c && r.state === s).map((r) => [r.engine, ns(r.median), `${ns(r.min)}–${ns(r.max)}`, times(r.ratio)]), ['l']));
  }
}

// ---------------------------------------------------------------------------------------------
if (d.overhead?.length) {
  p('## WebAssembly and JS overhead over native C++');
  p('The same graphs routed in C++ by Google Benchmark (bench/native_bench.cpp), from an `nlohmann::ordered_json` state ' +
    '(the native analogue of `route()` from JS: the paths are looked up and marshalled each time) and on a state already ' +
    'marshalled (evaluation alone). The native state is one fixed ticket per case; Node cycles through random ones ' +
    '(for the 50-edge router both always match on the last edge).');
  p(table(['case', 'state', 'route() from Node', 'native from JSON', 'Node / native', 'native, marshalled', 'Node / marshalled'],
    d.overhead.map((o) => [o.case, o.state, ns(o.nodeNs), ns(o.nativeFromJsonNs), times(o.ratioFromJson), ns(o.nativeMarshalledNs), times(o.ratioMarshalled)]), ['l', 'l']));
  const nb = (name) => d.native.benchmarks.find((b) => b.name === name);
  const parse = nb('BM_Parse');
  if (parse) p(`Natively, parsing the escalation rule takes ${ns(parse.ns)} and evaluating it on a marshalled state ${ns(nb('BM_EvaluateEscalation')?.ns)}.`);
}

// ---------------------------------------------------------------------------------------------
p('## Building graphs');
p('Time to add N edges (a chain n0 → n1 → … → nN, every edge with a condition), for both cycle policies; ' +
  'destroying the graph afterwards is not timed (`dispose()` in Node, the destructor natively). ' +
  '"Growth" is the time for N divided by the time for N/10: 10× is linear. Node figures are the median of ' +
  'repeated builds; native ones are Google Benchmark\'s mean over its iterations (a few at N = 100,000).');
{
  const engines = [...new Set(d.scaling.map((r) => r.engine))];
  p(table(['engine', 'N', 'onCycle', 'median', 'min–max', 'per edge', 'growth'],
    engines.flatMap((e) => ['error', 'allow'].flatMap((pol) => d.scaling.filter((r) => r.engine === e && r.onCycle === pol)
      .sort((a, b) => a.n - b.n).map((r) => [e, r.n.toLocaleString('en'), `'${pol}'`, `${r.median.toFixed(2)} ms`,
        r.min === null ? '–' : `${r.min.toFixed(2)}–${r.max.toFixed(2)} ms`, ns(r.perEdgeNs), r.growth === null ? '' : times(r.growth)]))), ['l', 'r', 'l']));
}
p(`WebAssembly heap after building a ${d.heap.edges.toLocaleString('en')}-edge graph (every edge \`${d.heap.condition}\`): ` +
  `${bytes(d.heap.used)} (${d.heap.perEdge.toFixed(0)} bytes per edge, node names, conditions and the topological order included); ` +
  `${d.heap.afterDispose - d.heap.before} bytes left in use after \`dispose()\`. Measured with \`heapUsed()\`.`);
p('### Condition compile throughput');
p('The escalation rule with a different number each call, so no engine can answer from a cache. ' +
  'json-logic-js has no compile step (the rule is a JSON tree, interpreted on every call); json-rules-engine only ' +
  'validates a JSON object.');
p(table(['engine', 'median', 'min–max', 'per second', 'vs ours'],
  d.compile.map((r) => [r.engine, ns(r.median), `${ns(r.min)}–${ns(r.max)}`, Math.round(r.perSecond).toLocaleString('en'), times(r.ratio)]), ['l']));
if (d.compileMix) {
  p(`A mix of ${d.compileMix[0].conditions} conditions, mostly small (bench/cases.mjs \`compileMix\`), compiled in turn; ` +
    'the time is per condition, ours with its `dispose()` as above.');
  p(table(['engine', 'median', 'min–max', 'per second', 'vs ours'],
    d.compileMix.map((r) => [r.engine, ns(r.median), `${ns(r.min)}–${ns(r.max)}`, Math.round(r.perSecond).toLocaleString('en'), times(r.ratio)]), ['l']));
}

// ---------------------------------------------------------------------------------------------
p('## Start-up and size');
p(table(['what', 'value'], [
  ['`init()` in a fresh process (compile + instantiate the wasm), median', `${d.initMs.toFixed(1)} ms`],
  ['`import(\'handoff-graph\')` in a fresh process, median', `${d.importMs.toFixed(1)} ms`],
  ['`npm pack` tarball', `${bytes(d.pack.tarballBytes)} (${d.pack.entryCount} files, ${bytes(d.pack.unpackedBytes)} unpacked)`],
  ['every JS and wasm file in the package, each gzipped', bytes(d.pack.jsAndWasmGzip)],
  ['what a browser loads: js/browser.js bundled and minified by esbuild (glue included) + the wasm, gzipped',
    `${bytes(d.pack.browserGzip)} (JS ${bytes(d.pack.browserBundle.gzip)} + wasm ${bytes(d.sizes.wasm.gzip)})`],
  ['of which the wasm, gzipped (raw)', `${bytes(d.sizes.wasm.gzip)} (${bytes(d.sizes.wasm.bytes)})`],
], ['l', 'l']));
p(table(['file', 'bytes', 'gzipped'], d.pack.files.map((f) => [`\`${f.file}\``, f.bytes.toLocaleString('en'), f.gzip.toLocaleString('en')]), ['l']));

// ---------------------------------------------------------------------------------------------
if (Array.isArray(d.machine?.engines)) {
  p('## State machine steps');
  p(`${d.machine.loop}: ${d.machine.stepsPerRun} steps per run, empty handlers; time per step (a handler run plus a ` +
    `routing decision), median over ${d.machine.options.repetitions} interleaved repetitions (bench/machine.mjs).`);
  p(table(['engine', 'median per step', 'min–max', 'vs machine.run()'],
    d.machine.engines.map((r) => [r.engine, ns(r.median), `${ns(r.min)}–${ns(r.max)}`, times(r.ratio)]), ['l']));
}

// ---------------------------------------------------------------------------------------------
if (Array.isArray(d.fanout?.rows)) {
  const f = d.fanout;
  const ours = f.rows.find((r) => r.engine === 'handoff-graph addFanOut, async handlers');
  p('## Fan-out');
  p(`One fan-out step of ${f.branches.toLocaleString('en')} branches with empty handlers, and its join: time per branch, ` +
    `median over ${f.options.repetitions} interleaved repetitions in one process (bench/fanout.mjs), beside LangGraph.js ` +
    'doing the same (a node with that many outgoing edges, and that many `Send`s). Issue 18\'s goal: at most ' +
    `${ns(f.targetNs)} per branch in Node with async handlers: ${ours.median <= f.targetNs ? 'met' : '**missed**'} (${ns(ours.median)}).` +
    (f.uptime ? ` The machine's load average (1 min) was ${f.uptime.before} before the run and ${f.uptime.after} after.` : ''));
  p(table(['engine', 'median per branch', 'min–max', 'vs addFanOut, async'],
    f.rows.map((r) => [r.engine, ns(r.median), `${ns(r.min)}–${ns(r.max)}`, times(r.median / ours.median)]), ['l']));
}

// ---------------------------------------------------------------------------------------------
if (d.check?.medianMs !== undefined) {
  const c = d.check;
  p('## check()');
  p(`\`check(graph)\` on a ${c.edges}-edge graph of ${c.nodes} nodes (bench/check.mjs: a switch, thresholds, membership, a ` +
    `conjunction and a default per node): median ${c.medianMs.toFixed(1)} ms (${c.minMs.toFixed(1)}–${c.maxMs.toFixed(1)}) over ` +
    `${c.repetitions} runs, the report (${c.cases} cases, ${c.findings} findings, ${c.undecided} undecided) included. Issue 31's ` +
    `goal: under ${c.targetMs} ms in Node: ${c.medianMs < c.targetMs ? 'met' : '**missed**'}. No other engine decides its conditions ahead of a run, so there is nothing to set beside it.`);
}

// ---------------------------------------------------------------------------------------------
if (d.replay?.medianMs !== undefined) {
  const r = d.replay;
  p('## Replays');
  p(`\`swarm.replay()\` of ${r.turns.toLocaleString('en')} recorded turns (bench/replay.mjs: ${r.sessions} sessions of the support swarm, ` +
    `${r.lines.toLocaleString('en')} trace log lines, ${r.decisions.toLocaleString('en')} decisions compared; turns with rule handoffs, tool calls, ` +
    `blocked and accepted transfers): median ${r.medianMs.toFixed(0)} ms (${r.minMs.toFixed(0)}–${r.maxMs.toFixed(0)}) over ${r.repetitions} runs. ` +
    `Issue 34's goal: under a second in Node: ${r.medianMs < 1000 ? 'met' : '**missed**'}. No model or tool is called: the real turn loop runs, answered from the recording.`);
}

// ---------------------------------------------------------------------------------------------
if (Array.isArray(d.swarm?.cases)) {
  const s = d.swarm;
  const us = (x) => (x >= 1e5 ? `${Math.round(x / 1000).toLocaleString('en')} µs` : `${(x / 1000).toFixed(1)} µs`);
  p('## Swarm turns');
  p('A swarm turn\'s own overhead, the model left out: every engine runs the same agents (triage, billing, human) ' +
    'with the same scripted model, which answers at once, so a turn\'s time is the engine\'s work (run state, ' +
    'messages, tool offers, the handoff, events). One turn is a fresh conversation\'s first turn, run to its end: ' +
    '`createSession` and `runTurn` drained to `done` in handoff-graph, `Runner.run()` in OpenAI Agents JS ' +
    `${s.versions['@openai/agents']} (Agents with a Model of the benchmark's own, tracing disabled), \`invoke()\` of ` +
    `@langchain/langgraph-swarm ${s.versions['@langchain/langgraph-swarm']}'s \`createSwarm\` over prebuilt ` +
    `\`createReactAgent\` agents in LangGraph.js ${s.versions['@langchain/langgraph']} (a minimal \`BaseChatModel\`, ` +
    'no checkpointer). Before timing, every engine gives the same answer from the same agent after the same number ' +
    'of model calls on every case (bench/swarm-engines.mjs). Per case, the engines are interleaved repetition by ' +
    `repetition in one process; median over ${s.options.repetitions} repetitions, min–max, in wall time and in the ` +
    'process\'s CPU time (user + system, steadier on a busy machine; it includes the garbage collector\'s threads). ' +
    `The machine's load average (1 min) was ${s.uptime.before} before the run and ${s.uptime.after} after.`);
  p('The peers have no rule edges; in the rule case each does the closest thing it offers:');
  p(table(['engine', 'the rule case'], Object.entries(s.ruleNotes), ['l', 'l']));
  for (const c of s.cases) {
    p(`### ${c.name}`);
    p(table(['engine', 'median per turn', 'min–max', 'vs ours', 'CPU per turn', 'CPU min–max', 'CPU vs ours'],
      c.rows.map((r) => [r.engine, us(r.median), `${us(r.min)}–${us(r.max)}`, times(r.ratio), us(r.cpuMedian),
        `${us(r.cpuMin)}–${us(r.cpuMax)}`, times(r.cpuRatio)]), ['l']));
  }
}

// ---------------------------------------------------------------------------------------------
if (d.semantics) {
  p('## Outside the schema: where the engines really differ');
  p('The agreement check uses states that follow the schema (every key present, with its type). On other states the ' +
    'engines disagree by design. The escalation rule (`user.tier == \'gold\' or (priority > 3 and \'urgent\' in tags)`) ' +
    'on a few such states (informational; not part of the check):');
  const engines = Object.keys(d.semantics[0].decisions);
  p(table(['state', ...engines.map(short)], d.semantics.map((r) => [
    `${r.state}: \`${r.json}\``, ...engines.map((e) => String(r.decisions[e]).replace(/\|/g, '\\|'))]), ['l', ...engines.map(() => 'l')]));
  p('handoff-graph\'s rules (docs/conditions.md): missing is null, comparisons across types are false, `in` on a string ' +
    'is a substring test, only own properties are read, and nothing throws.');
}

// ---------------------------------------------------------------------------------------------
p('## The engines');
p(table(['engine', 'how it runs here'], Object.entries(d.engineNotes).map(([e, n]) => [e, n]), ['l', 'l']));
p('Agreement decisions (how the 10,000 random states of each case were decided, so that every edge is exercised):');
p(table(['case', 'decisions'], d.agreement.map((a) => {
  const entries = Object.entries(a.decisions).sort((x, y) => y[1] - x[1]);
  const shown = entries.slice(0, 4).map(([k, v]) => `${k} ${v}`);
  return [a.case, shown.join(', ') + (entries.length > 4 ? `, and ${entries.length - 4} more targets (${entries.slice(4).reduce((s, [, v]) => s + v, 0)} states)` : '')];
}), ['l', 'l']));

// The browser payload per entry and per part (scripts/size-report.mjs, issue 21), when measured.
if (d.payload !== undefined) p(payloadMarkdown(d.payload));

// The HTTP server's section is written by bench/server.mjs --write, from its own run: kept as it is.
const serverSection = (existsSync(output) ? readFileSync(output, 'utf8') : '').match(/<!-- server-bench:begin[^>]*-->[\s\S]*?<!-- server-bench:end -->/)?.[0];
if (serverSection !== undefined) p(serverSection);

writeFileSync(output, out.join('\n').replace(/\n+$/, '\n'));
console.log(`wrote ${output}`);
