// The payload report (issue 21): what each entry costs a browser user (its JavaScript bundled and
// minified by esbuild, plus its .wasm, gzipped), what an application that imports one part of the
// whole package pays (its JavaScript tree-shaken), the triage route on each module (ns/route, each
// module in its own process, since a process holds one runtime), and init() of the routing entry
// in Chromium (bench/router-init.mjs). (Its per-function breakdown of each module went with the
// hand-made wasm parser it needed, issue 30.)
// `npm run bench` runs it after a build; it writes build/bench/size-report.md, a section
// BENCHMARKS.md includes, and with --json FILE merges its figures into FILE's `payload` key.
//
//   node scripts/size-report.mjs [--json FILE] [--quick]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const quick = args.includes('--quick');
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The entry's JavaScript as a browser bundle (minified, .wasm left as an asset), gzipped. */
function bundled(entry) {
  execFileSync(
    path.join(root, 'node_modules/.bin/esbuild'),
    [entry, '--bundle', '--minify', '--format=esm', '--platform=browser', '--loader:.wasm=file', '--log-level=error', '--outdir=build/size/out'],
    { cwd: root, encoding: 'buffer' },
  );
  const file = path.join(root, 'build/size/out', `${path.basename(entry, '.js')}.js`);
  const bytes = readFileSync(file);
  return { bytes: bytes.length, gzip: gz(bytes) };
}

/**
 * What an application that imports only `names` from the browser entry pays in JavaScript: a
 * module importing them (and init) bundled and minified like an entry, gzipped. The package
 * declares `"sideEffects": false`, so bundlers leave out the modules nothing imported reaches.
 */
function importing(names) {
  execFileSync(
    path.join(root, 'node_modules/.bin/esbuild'),
    ['--bundle', '--minify', '--format=esm', '--platform=browser', '--loader:.wasm=file', '--log-level=error', '--outdir=build/size/imports'],
    { cwd: root, input: `export { init, ${names.join(', ')} } from './js/browser.js';` },
  );
  const bytes = readFileSync(path.join(root, 'build/size/imports/stdin.js'));
  return { bytes: bytes.length, gzip: gz(bytes) };
}

/** The full module's loader (em++'s, dist/handoff-graph.mjs: embind's runtime and the raw exports' stubs) minified alone, gzipped: its share of the JS. */
function glue() {
  const out = execFileSync(
    path.join(root, 'node_modules/.bin/esbuild'),
    ['dist/handoff-graph.mjs', '--bundle', '--minify', '--format=esm', '--log-level=error'],
    { cwd: root, encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  return { bytes: out.length, gzip: gz(out) };
}

// What an application pays for one part of the whole package (its JS tree-shaken, the full module).
const IMPORTS = [['HandoffGraph', 'compileCondition'], ['StateMachine'], ['Swarm']];

// The ceilings of issue 30 (budgets, not targets: bytes below them are not worth speed or code).
const ENTRIES = [
  { name: 'handoff-graph/router', js: 'js/router.js', wasm: 'dist/handoff-graph-router.wasm', goal: 75 * 1024 },
  { name: 'handoff-graph (everything)', js: 'js/browser.js', wasm: 'dist/handoff-graph.wasm', goal: 160 * 1024 },
];

function routeNs(entry) {
  const program = `
    const api = await import(${JSON.stringify(path.join(root, entry))});
    await api.init();
    const g = new api.HandoffGraph();
    g.addEdge('triage', 'billing', "category == 'billing'");
    g.addEdge('triage', 'support', "category == 'support'");
    g.addEdge('triage', 'human');
    const state = { category: 'support', user: { tier: 'gold' } };
    const n = ${quick ? 50_000 : 200_000};
    const runs = [];
    for (let r = 0; r < 7; r++) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) g.route('triage', state);
      runs.push(Number(process.hrtime.bigint() - t) / n);
    }
    runs.sort((a, b) => a - b);
    console.log(runs[3]);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' }).trim());
}

/**
 * The payload section of BENCHMARKS.md from the figures alone (`payload` of the bench JSON), so that
 * scripts/benchmarks-md.mjs can include it: `payloadMarkdown(d.payload)`.
 */
export function payloadMarkdown({ entries, imports = [], route, glue: glueSize, quick = false, routerInit, commit }) {
  const lines = [
    '## Payload (issue 21)',
    '',
    `Made by \`node scripts/size-report.mjs\` (run by \`npm run bench\`)${commit ? ` at commit ${commit}` : ''}. JS: the entry bundled and minified by esbuild for the browser; all figures gzipped (level 9).`,
    '',
    '| entry | JS | .wasm | JS + .wasm | goal |',
    '|---|---:|---:|---:|---:|',
    ...entries.map((e) => `| ${e.name} | ${kb(e.jsGzip)} | ${kb(e.wasmGzip)} (${kb(e.wasmBytes)} raw) | **${kb(e.totalGzip)}** | ${kb(e.goal)} ${e.totalGzip <= e.goal ? 'met' : 'not met'} |`),
    '',
    ...(imports.length > 0
      ? [
          "What an application that imports one part of `handoff-graph` pays: its bundler keeps only the modules its imports reach (the package declares `\"sideEffects\": false`), and every part uses the full module. Measured as `export { init, … } from './js/browser.js'` bundled like the entries.",
          '',
          '| imports | JS | JS + .wasm |',
          '|---|---:|---:|',
          ...imports.map((i) => `| ${i.names.map((n) => `\`${n}\``).join(', ')} | ${kb(i.jsGzip)} | ${kb(i.totalGzip)} |`),
          '',
        ]
      : []),
    ...(glueSize ? [`Of the whole package's JS, the module's loader (dist/handoff-graph.mjs, em++'s, with embind's runtime) is ${kb(glueSize.gzip)} minified and gzipped alone (${kb(glueSize.bytes)} minified).`, ''] : []),
    `Triage route (3 edges, Node ${process.version}, median of 5 processes per module, taking turns, each the median of 7 × ${quick ? '50k' : '200k'}): routing module ${route.router.toFixed(0)} ns, full module ${route.full.toFixed(0)} ns.`,
    '',
    ...(routerInit
      ? [`\`init()\` of handoff-graph/router in Chromium ${routerInit.browser} (bench/router-init.mjs: fetch from a local server, compile, instantiate; a new browser per load): median ${routerInit.medianMs.toFixed(1)} ms over ${routerInit.loads} loads (min ${routerInit.minMs.toFixed(1)}, max ${routerInit.maxMs.toFixed(1)}).`, '']
      : []),
  ];
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(path.join(root, 'build/size'), { recursive: true });
  mkdirSync(path.join(root, 'build/bench'), { recursive: true });
  const entries = ENTRIES.map((e) => {
    const js = bundled(path.join(root, e.js));
    const wasm = readFileSync(path.join(root, e.wasm));
    return { name: e.name, jsGzip: js.gzip, jsBytes: js.bytes, wasmBytes: wasm.length, wasmGzip: gz(wasm), totalGzip: js.gzip + gz(wasm), goal: e.goal };
  });
  const fullWasm = gz(readFileSync(path.join(root, 'dist/handoff-graph.wasm')));
  const imports = IMPORTS.map((names) => {
    const js = importing(names);
    return { names, jsGzip: js.gzip, jsBytes: js.bytes, totalGzip: js.gzip + fullWasm };
  });
  // Five processes per module, the two modules taking turns, and the median of their medians: on a
  // busy machine one process apiece put either module ahead by half from run to run.
  const runs = { router: [], full: [] };
  for (let i = 0; i < 5; i++) {
    runs.router.push(routeNs('js/router-node.js'));
    runs.full.push(routeNs('js/node.js'));
  }
  const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];
  const route = { router: median(runs.router), full: median(runs.full) };
  // Chromium through playwright-core: imported here, so that benchmarks-md.mjs needs neither.
  const { measureRouterInit } = await import('../bench/router-init.mjs');
  const routerInit = await measureRouterInit({ loads: quick ? 5 : 15 });


  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // not a git checkout: the section names no commit
  }
  const payload = {
    commit,
    entries,
    imports,
    glue: glue(),
    route,
    quick,
    routerInit,
  };
  const markdown = payloadMarkdown(payload);
  writeFileSync(path.join(root, 'build/bench/size-report.md'), markdown);
  console.log(markdown);
  if (jsonFile) {
    const existing = existsSync(jsonFile) ? JSON.parse(readFileSync(jsonFile, 'utf8')) : {};
    existing.payload = payload;
    writeFileSync(jsonFile, `${JSON.stringify(existing, null, 2)}\n`);
  }
}
