// The package as npm delivers it: `npm pack`, install the tarball into an empty project, and use
// it from ESM, from CommonJS and from a browser page, the way a user would. Also checks what the
// tarball holds. Needs the build outputs in dist/ (`bash scripts/build.sh`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import { launchBrowser, problems, runPage, using } from '../browser/harness.mjs';
import { start } from '../browser/server.mjs';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const ROUTES = { billing: 'billing', empty: 'human' };

// npm run sets npm_* variables (package name, lifecycle, local prefix...) that must not leak
// into the npm commands run here; keep only what says where the cache and registry are.
const KEEP = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || KEEP.has(k.toLowerCase())));
const npm = (args, cwd) => run('npm', args, { cwd, env, maxBuffer: 16 << 20 });
const node = (file, cwd) => run(process.execPath, [file], { cwd, env, timeout: 15_000 });

// The triage example, in each module system. Each prints one JSON line.
const ESM = `import { init, HandoffGraph } from 'handoff-graph';
await init();
const g = new HandoffGraph();
g.addEdge('triage', 'billing', "category == 'billing'");
g.addEdge('triage', 'human');
const billing = g.route('triage', { category: 'billing' });
const empty = g.route('triage', {});
g.dispose();
console.log(JSON.stringify({ resolved: import.meta.resolve('handoff-graph'), routes: { billing, empty } }));
`;

const CJS = `const hg = require('handoff-graph');
hg.init().then(() => {
  const g = new hg.HandoffGraph();
  g.addEdge('triage', 'billing', "category == 'billing'");
  g.addEdge('triage', 'human');
  const billing = g.route('triage', { category: 'billing' });
  const empty = g.route('triage', {});
  g.dispose();
  console.log(JSON.stringify({
    resolved: require.resolve('handoff-graph'),
    wasm: require.resolve('handoff-graph/handoff-graph.wasm'),
    routes: { billing, empty },
  }));
}, (error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

// A user's page: one inline module script importing the installed package by its file path.
const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>handoff-graph from node_modules</title>
<link rel="icon" href="data:,">
<script>window.__done = new Promise((resolve) => { window.__finish = resolve; });</script>
<script type="module">
import { init, HandoffGraph } from './node_modules/handoff-graph/js/browser.js';
try {
  await init();
  const g = new HandoffGraph();
  g.addEdge('triage', 'billing', "category == 'billing'");
  g.addEdge('triage', 'human');
  const routes = { billing: g.route('triage', { category: 'billing' }), empty: g.route('triage', {}) };
  g.dispose();
  window.__finish({ ok: true, value: { routes } });
} catch (e) {
  window.__finish({ ok: false, error: String(e && e.stack || e) });
}
</script>
</head>
<body></body>
</html>
`;

// What the tarball may hold (npm always adds package.json, README and a license file).
const ALLOWED = [
  /^schema\/[^/]+\.json$/,
  /^js\/(?:[^/]+\/)*[^/]+\.(?:js|cjs)$/,
  // Each module's .wasm and the loader em++ wrote for it.
  /^dist\/handoff-graph(?:-router)?\.(?:mjs|wasm)$/,
  /^dist\/index\.cjs$/,
  // handoff-graph/router for require() in Nodes without require(esm) (js/router-require.cjs).
  /^dist\/router\.cjs$/,
  /^dist\/inline\.js$/,
  // The declarations (scripts/typings.mjs): emitted from js/ or copied from its .d.ts, and their CommonJS twins.
  /^dist\/(?:[^/]+\/)*[^/]+\.d\.c?ts$/,
  /^examples\/[^/]+\.mjs$/,
  /^package\.json$/,
  /^README\.md$/,
  /^LICEN[CS]E(\.md|\.txt)?$/,
  /^docs\/[^/]+\.md$/,
  // For bundlers that ignore the exports map (Parcel by default): handoff-graph/router by directory.
  /^router\/package\.json$/,
];

function leaves(value) {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(leaves);
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

test('the npm package', { timeout: 60_000 }, async (t) => {
  for (const f of ['handoff-graph.mjs', 'handoff-graph.wasm', 'index.cjs', 'index.d.cts']) {
    assert.ok(existsSync(path.join(repo, 'dist', f)), `dist/${f} is missing: run bash scripts/build.sh`);
  }
  await using(async (use) => {
    const work = await mkdtemp(path.join(tmpdir(), 'handoff-graph-pack-'));
    use({ close: () => rm(work, { recursive: true, force: true, maxRetries: 3 }) });
    const consumer = path.join(work, 'consumer');
    const installed = path.join(consumer, 'node_modules', 'handoff-graph');

    const { stdout: packed } = await npm(['pack', '--json', '--pack-destination', work], repo);
    const [info] = JSON.parse(packed);
    const tarball = path.join(work, info.filename);
    const tarballSize = (await stat(tarball)).size;

    await mkdir(consumer);
    await writeFile(path.join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`);
    await npm(['install', tarball, '--no-audit', '--no-fund', '--offline'], consumer);
    const consumerReal = await realpath(consumer);
    const installedReal = path.join(consumerReal, 'node_modules', 'handoff-graph');

    await t.test('the tarball holds the package files and nothing else', async (t) => {
      const { stdout } = await run('tar', ['-tzf', tarball]);
      const entries = stdout.split('\n').filter(Boolean);
      assert.ok(entries.every((e) => e.startsWith('package/')), 'entries outside package/');
      const files = entries.map((e) => e.slice('package/'.length)).filter((e) => e !== '' && !e.endsWith('/'));
      const forbidden = files.filter((f) => /^(src|tests|build|node_modules|wasm|scripts|bench|fuzz|web-demo)\//.test(f));
      assert.deepEqual(forbidden, [], 'source, test or build files in the tarball');
      assert.deepEqual(files.filter((f) => !ALLOWED.some((re) => re.test(f))), [], 'unexpected files in the tarball');

      // js/inline.js is only the input of dist/inline.js (it imports the .wasm as base64).
      const jsFiles = (await readdir(path.join(repo, 'js'), { recursive: true }))
        .filter((f) => /\.(?:js|cjs)$/.test(f) && f !== 'inline.js')
        .map((f) => `js/${f.split(path.sep).join('/')}`);
      const examples = (await readdir(path.join(repo, 'examples'))).filter((f) => f.endsWith('.mjs')).map((f) => `examples/${f}`);
      const required = [
        'package.json',
        'README.md',
        'dist/handoff-graph.mjs',
        'dist/handoff-graph.wasm',
        'dist/index.cjs',
        'dist/index.d.ts',
        'dist/index.d.cts',
        'dist/router.cjs',
        'dist/handoff-graph-router.mjs',
        'dist/handoff-graph-router.wasm',
        'router/package.json',
        'dist/inline.js',
        ...jsFiles,
        ...examples,
      ];
      assert.deepEqual(required.filter((f) => !files.includes(f)), [], 'files missing from the tarball');

      // Every file package.json points at (exports, main, types) is in the tarball.
      const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
      const targets = [...leaves(manifest.exports), manifest.main, manifest.types].filter(Boolean);
      assert.deepEqual(
        targets.map((p) => path.posix.normalize(p)).filter((p) => !files.includes(p)),
        [],
        'package.json points at files the tarball lacks',
      );

      // Relative links in the README that lead nowhere in the package (reported, not failed).
      const readme = await readFile(path.join(installed, 'README.md'), 'utf8');
      const links = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)].map((m) => path.posix.normalize(m[1]));
      const dangling = links.filter((l) => !files.includes(l));
      if (dangling.length > 0) t.diagnostic(`README links missing from the package: ${dangling.join(', ')}`);

      // The examples the docs send people to travel with the docs.
      for (const doc of files.filter((f) => /^docs\/[^/]+\.md$/.test(f))) {
        const text = await readFile(path.join(installed, doc), 'utf8');
        const toExamples = [...text.matchAll(/\]\((\.\.\/examples\/[^)#\s]+)/g)].map((m) => path.posix.join('docs', m[1]));
        assert.deepEqual(toExamples.filter((l) => !files.includes(l)), [], `${doc} links to examples the package lacks`);
      }

      const wasm = await readFile(path.join(installed, 'dist', 'handoff-graph.wasm'));
      const glue = await readFile(path.join(installed, 'dist', 'handoff-graph.mjs'));
      t.diagnostic(`tarball ${info.filename}: ${files.length} files, ${kib(tarballSize)} (unpacked ${kib(info.unpackedSize)})`);
      t.diagnostic(`dist/handoff-graph.wasm ${kib(wasm.length)}, gzipped ${kib(gzipSync(wasm, { level: 9 }).length)}`);
      t.diagnostic(`dist/handoff-graph.mjs ${kib(glue.length)}, gzipped ${kib(gzipSync(glue, { level: 9 }).length)}`);
    });

    await t.test("ESM: import { init, HandoffGraph } from 'handoff-graph'", async () => {
      await writeFile(path.join(consumer, 'esm.mjs'), ESM);
      const { stdout, stderr } = await node('esm.mjs', consumer);
      assert.equal(stderr, '', 'stderr');
      const out = JSON.parse(stdout);
      assert.equal(out.resolved, new URL('js/node.js', `file://${installedReal}/`).href, 'resolved to the Node ESM entry');
      assert.deepEqual(out.routes, ROUTES);
    });

    await t.test("CommonJS: require('handoff-graph')", async () => {
      await writeFile(path.join(consumer, 'cjs.cjs'), CJS);
      const { stdout, stderr } = await node('cjs.cjs', consumer);
      assert.equal(stderr, '', 'stderr');
      const out = JSON.parse(stdout);
      assert.equal(out.resolved, path.join(installedReal, 'js', 'require.cjs'), 'resolved to the CommonJS entry');
      assert.equal(out.wasm, path.join(installedReal, 'dist', 'handoff-graph.wasm'));
      assert.deepEqual(out.routes, ROUTES);
    });

    await t.test('browser: <script type="module"> importing ./node_modules/handoff-graph/js/browser.js', async () => {
      await writeFile(path.join(consumer, 'index.html'), HTML);
      const server = use(await start({ root: consumer }));
      const browser = use(await launchBrowser());
      const page = await runPage(browser.context, `${server.url}index.html`, { timeout: 10_000 });
      assert.deepEqual(problems(page), []);
      assert.equal(page.outcome.ok, true, page.outcome.error);
      assert.deepEqual(page.outcome.value.routes, ROUTES);
      const wasm = page.responses.filter((r) => new URL(r.url).pathname === '/node_modules/handoff-graph/dist/handoff-graph.wasm');
      assert.equal(wasm.length, 1, 'the .wasm beside the installed package was not fetched');
      assert.equal(wasm[0].contentType, 'application/wasm');
    });

    await t.test("the server: the handoff-graph bin and 'handoff-graph/server'", async () => {
      const bin = path.join(consumer, 'node_modules', '.bin', 'handoff-graph');
      const { stdout: version } = await run(bin, ['--version'], { cwd: consumer, env, timeout: 15_000 });
      assert.equal(version, `${JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')).version}\n`);
      await writeFile(path.join(consumer, 'server.mjs'), `import { createHandler, serve } from 'handoff-graph/server';
console.log(JSON.stringify({ resolved: import.meta.resolve('handoff-graph/server'), createHandler: typeof createHandler, serve: typeof serve }));
`);
      const { stdout } = await node('server.mjs', consumer);
      assert.deepEqual(JSON.parse(stdout), { resolved: new URL('js/server/index.js', `file://${installedReal}/`).href, createHandler: 'function', serve: 'function' });
    });
  });
});
