// The consumer matrix (issue 14): the package as people install it. `npm pack` once; then each
// consumer is a fresh project (tests/consumers/fixtures/<name>) that installs the tarball offline,
// builds with its pinned tool and runs: Node (ESM, CommonJS, worker_threads), TypeScript (four
// setups, each with TypeScript 5.9 and 7), esbuild Node bundles, and in Chromium, under
// script-src 'self' 'wasm-unsafe-eval': Vite (build and dev), webpack 5, esbuild (with and
// without its file loader), Rollup, Parcel (also with handoff-graph/inline), a module Web Worker,
// an import-map page and handoff-graph/inline; then the other runtimes: Bun, Deno (no permission
// flag), Cloudflare's workerd (through miniflare, a Worker bundled as wrangler bundles it, with
// init() awaited at its top level) and Vercel's edge-runtime (the .wasm compiled by the host, in
// another realm), each also running a swarm turn. handoff-graph/router runs in every one of them
// that can hold it (all but the two handoff-graph/inline consumers: inline is the full module):
// the TypeScript setups compile and run router.ts beside main.ts, and the others have a router
// consumer of their own. Each routes the README's triage example (shared/triage.mjs) and must
// give its answer.
//
// Adding a consumer is one entry in CONSUMERS (and a fixture folder). Figures (gzipped JS + wasm,
// time from process start or navigation to the first route) are printed as diagnostics and
// written to build/consumers/results.json; no timing is asserted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

import { launchBrowser, problems, runPage, using } from '../browser/harness.mjs';
import { start } from '../browser/server.mjs';
import {
  describeResult, filesUnder, lastJsonLine, loadedFiles, missingTools, pack, prepare, repo, runFolder, runTool, sizes,
} from './harness.mjs';
import { bundleEdgeFunction, bundleWorker, runInEdgeRuntime, runInWorkerd, runScript, runtimes, versionOf } from './runtimes.mjs';
import { SWARM_EXPECTED } from './shared/swarm-turn.mjs';

const EXPECTED = { billing: 'billing', support: 'support', other: 'human' };
const STRICT = "script-src 'self' 'wasm-unsafe-eval'";

/** Runs `node <args>` in the project; returns the program's last stdout line as JSON. */
async function runNode(project, args) {
  const { stdout, stderr } = await runTool('node', args, { cwd: project, timeout: 30_000 });
  assert.equal(stderr, '', `stderr of node ${args.join(' ')}`);
  return lastJsonLine(stdout);
}

/** A timed build step. */
async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * Serves `root` (with `csp`, default the strict policy) and opens `page` in Chromium. Asserts a
 * clean run (no console error, failed request or CSP violation) and returns the page's value,
 * its time to the first route and what it loaded (gzipped).
 */
async function runInChromium(ctx, root, page = 'index.html', { csp = STRICT } = {}) {
  const server = await start({ root, csp });
  try {
    const run = await runPage((await ctx.browser()).context, `${server.url}${page}`, { timeout: 20_000 });
    assert.deepEqual(problems(run), [], 'console errors, failed requests or HTTP errors');
    assert.equal(run.outcome.ok, true, run.outcome.error);
    assert.deepEqual(run.outcome.violations, [], 'Content-Security-Policy violations');
    const loaded = loadedFiles(run, server.url, root);
    // A bundler may write what it knew at build time into the bundle (import.meta.url as a file:
    // URL): the page must carry no path of the machine that built it.
    for (const file of loaded.filter((f) => !f.endsWith('.wasm'))) {
      const text = await readFile(file, 'utf8');
      assert.ok(!text.includes(ctx.project) && !text.includes('file:///'), `${file} holds a build-machine path`);
    }
    return { out: run.outcome.value, firstRouteMs: run.outcome.value.firstRouteMs, size: await sizes(loaded), loaded, run };
  } finally {
    await server.close();
  }
}

const relative = (project, files) => files.map((f) => path.relative(project, f).split(path.sep).join('/'));

/** A TypeScript setup compiled by one TypeScript, then run by Node. */
function typescript(fixture, compiler, label) {
  return {
    name: `TypeScript ${label}, ${compiler === 'tsc-5' ? 'TS 5.9' : 'TS 7'} (handoff-graph and handoff-graph/router)`,
    fixture,
    async run({ project }) {
      const outDir = `out-${compiler}`;
      const buildMs = await timed(() => runTool(compiler, ['-p', '.', '--outDir', outDir], { cwd: project }));
      const out = await runNode(project, [`${outDir}/main.js`]);
      // handoff-graph/router in the same setup (router.ts, compiled with main.ts).
      const router = await runNode(project, [`${outDir}/router.js`]);
      assert.deepEqual(router.routes, EXPECTED, 'handoff-graph/router (router.ts)');
      return { out, firstRouteMs: out.firstRouteMs, buildMs };
    },
  };
}

/** `parcel build <page>` in the project, then the page in Chromium. */
async function parcel(ctx, { page = 'index.html', distDir = 'dist' } = {}) {
  const buildMs = await timed(() => runTool('parcel', [
    'build', page, '--dist-dir', distDir, '--public-url', './', '--no-cache', '--cache-dir', '.parcel-cache',
    '--no-autoinstall', '--no-source-maps', '--log-level', 'warn',
  ], { cwd: ctx.project }));
  // Parcel 2 writes an inline import map when a bundle references assets through
  // `new URL(…, import.meta.url)`: a page under a CSP without 'unsafe-inline' must allow it by
  // hash, as with any inline import map.
  const html = await readFile(path.join(ctx.project, distDir, page), 'utf8');
  const hashes = hashesOfInlineScripts(html);
  const result = await runInChromium(ctx, path.join(ctx.project, distDir), page, { csp: `${STRICT}${hashes}` });
  return { ...result, buildMs, note: hashes === '' ? undefined : 'its inline import map allowed by hash' };
}

const CONSUMERS = [
  {
    name: 'Node ESM (import, then require)',
    fixture: 'node-esm',
    async run({ project }) {
      const out = await runNode(project, ['main.mjs']);
      assert.equal(out.resolved, new URL('node_modules/handoff-graph/js/node.js', `file://${project}/`).href);
      assert.deepEqual(out.routesThroughRequire, EXPECTED, 'require() routes without an init() of its own');
      assert.equal(out.sameInit, true, 'import and require share init');
      assert.equal(out.errorsInstanceofAcross, true, 'a require() error is instanceof the imported class');
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  {
    name: 'Node CJS (require, then import)',
    fixture: 'node-cjs',
    async run({ project }) {
      const out = await runNode(project, ['main.cjs']);
      assert.equal(out.resolved, path.join(project, 'node_modules/handoff-graph/js/require.cjs'));
      assert.deepEqual(out.routesThroughImport, EXPECTED, 'import() routes without an init() of its own');
      assert.equal(out.sameInit, true, 'require and import share init');
      assert.equal(out.errorsInstanceofAcross, true, 'an import() error is instanceof the required class');
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  {
    name: 'Node worker_threads',
    fixture: 'worker-threads',
    async run({ project }) {
      const out = await runNode(project, ['main.mjs']);
      assert.deepEqual(out.worker.routes, EXPECTED, 'the worker routes');
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  {
    name: 'Node ESM, handoff-graph/router',
    fixture: 'node-esm-router',
    async run({ project }) {
      const out = await runNode(project, ['main.mjs']);
      assert.equal(out.resolved, new URL('node_modules/handoff-graph/js/router-node.js', `file://${project}/`).href);
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  typescript('ts-node16-esm', 'tsc-5', 'node16 ESM'),
  typescript('ts-node16-esm', 'tsc-7', 'node16 ESM'),
  typescript('ts-node16-cjs', 'tsc-5', 'node16 "type": "commonjs"'),
  typescript('ts-node16-cjs', 'tsc-7', 'node16 "type": "commonjs"'),
  typescript('ts-bundler', 'tsc-5', 'bundler'),
  typescript('ts-bundler', 'tsc-7', 'bundler'),
  typescript('ts-es2022-no-dom', 'tsc-5', 'es2022 + @types/node, no DOM'),
  typescript('ts-es2022-no-dom', 'tsc-7', 'es2022 + @types/node, no DOM'),
  {
    name: 'esbuild Node bundle (ESM), .wasm beside it',
    fixture: 'esbuild-node',
    async run({ project }) {
      const buildMs = await timed(() =>
        runTool('esbuild', ['main.mjs', '--bundle', '--platform=node', '--format=esm', '--outfile=deploy/main.mjs', '--log-level=warning'], { cwd: project }));
      // Before the .wasm is copied: the error names where it looked and how to pass it.
      const missing = await runNode(project, ['deploy/main.mjs']);
      assert.match(missing.initError ?? '', new RegExp(`${path.join(project, 'deploy', 'handoff-graph.wasm').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(ENOENT\\)`));
      assert.match(missing.initError, /init\(\{ wasm \}\)/);
      assert.match(missing.initError, /handoff-graph\/inline/);
      await copyFile(path.join(project, 'node_modules/handoff-graph/dist/handoff-graph.wasm'), path.join(project, 'deploy/handoff-graph.wasm'));
      const out = await runNode(project, ['deploy/main.mjs']);
      return { out, firstRouteMs: out.firstRouteMs, buildMs, size: await sizes(await filesUnder(path.join(project, 'deploy'), /\.(mjs|wasm)$/)) };
    },
  },
  {
    name: 'esbuild Node bundle (CommonJS), .wasm beside it',
    fixture: 'esbuild-node',
    async run({ project }) {
      const buildMs = await timed(() =>
        runTool('esbuild', ['main.mjs', '--bundle', '--platform=node', '--format=cjs', '--outfile=deploy/main.cjs', '--log-level=error'], { cwd: project }));
      const missing = await runNode(project, ['deploy/main.cjs']);
      assert.match(missing.initError ?? '', /deploy[\\/]handoff-graph\.wasm \(ENOENT\)/);
      await copyFile(path.join(project, 'node_modules/handoff-graph/dist/handoff-graph.wasm'), path.join(project, 'deploy/handoff-graph.wasm'));
      const out = await runNode(project, ['deploy/main.cjs']);
      return { out, firstRouteMs: out.firstRouteMs, buildMs, size: await sizes(await filesUnder(path.join(project, 'deploy'), /\.(cjs|wasm)$/)) };
    },
  },
  {
    name: 'esbuild Node bundle of handoff-graph/inline',
    fixture: 'esbuild-node',
    async run({ project }) {
      const buildMs = await timed(() =>
        runTool('esbuild', ['inline.mjs', '--bundle', '--platform=node', '--format=esm', '--outfile=deploy/inline.mjs', '--log-level=warning'], { cwd: project }));
      const out = await runNode(project, ['deploy/inline.mjs']);
      const deployed = await filesUnder(path.join(project, 'deploy'), /./);
      assert.deepEqual(relative(project, deployed), ['deploy/inline.mjs'], 'one file, nothing beside it');
      return { out, firstRouteMs: out.firstRouteMs, buildMs, size: await sizes(deployed) };
    },
  },
  {
    name: 'Vite build (no configuration)',
    fixture: 'vite',
    async run(ctx) {
      const buildMs = await timed(() => runTool('vite', ['build', '--logLevel', 'warn'], { cwd: ctx.project }));
      const result = await runInChromium(ctx, path.join(ctx.project, 'dist'));
      assert.ok(result.loaded.some((f) => /handoff-graph-[\w-]+\.wasm$/.test(f)), 'the emitted .wasm asset was loaded');
      return { ...result, buildMs };
    },
  },
  {
    name: 'Vite build of handoff-graph/router (no configuration)',
    fixture: 'vite-router',
    async run(ctx) {
      const buildMs = await timed(() => runTool('vite', ['build', '--logLevel', 'warn'], { cwd: ctx.project }));
      const result = await runInChromium(ctx, path.join(ctx.project, 'dist'));
      const wasm = result.loaded.filter((f) => f.endsWith('.wasm'));
      assert.equal(wasm.length, 1, 'one .wasm loaded');
      assert.match(wasm[0], /handoff-graph-router-[\w-]+\.wasm$/, 'the routing module, not the full one');
      return { ...result, buildMs };
    },
  },
  {
    name: "Vite dev server (optimizeDeps.exclude: ['handoff-graph'])",
    fixture: 'vite',
    async run(ctx) {
      const { createServer } = await import(path.join(repo, 'node_modules/vite/dist/node/index.js'));
      const serve = async (optimizeDeps) => {
        const server = await createServer({
          root: ctx.project, configFile: false, logLevel: 'error', clearScreen: false, optimizeDeps,
          server: { host: '127.0.0.1', port: 0, hmr: false },
        });
        await server.listen();
        try {
          return await runPage((await ctx.browser()).context, server.resolvedUrls.local[0], { timeout: 30_000 });
        } finally {
          await server.close();
        }
      };
      // Unconfigured, Vite's pre-bundling moves the code away from the .wasm (a Vite limitation);
      // the error says what to configure.
      const unconfigured = await serve({});
      assert.equal(unconfigured.outcome.ok, false, 'the dev server found the .wasm after pre-bundling');
      assert.match(unconfigured.outcome.error, /optimizeDeps: \{ exclude: \['handoff-graph'\] \}/);
      const run = await serve({ exclude: ['handoff-graph'] });
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      return { out: run.outcome.value, firstRouteMs: run.outcome.value.firstRouteMs };
    },
  },
  {
    name: 'webpack 5 (no configuration for it)',
    fixture: 'webpack',
    async run(ctx) {
      const buildMs = await timed(() => runTool('node', ['build.mjs'], { cwd: ctx.project }));
      const result = await runInChromium(ctx, ctx.project);
      assert.ok(result.loaded.some((f) => f.startsWith(path.join(ctx.project, 'dist')) && f.endsWith('.wasm')), 'the emitted .wasm asset was loaded');
      return { ...result, buildMs };
    },
  },
  {
    name: 'esbuild browser bundle (--loader:.wasm=file)',
    fixture: 'esbuild-browser',
    async run(ctx) {
      const buildMs = await timed(() => runTool('esbuild', ['main.mjs', '--bundle', '--format=esm', '--outdir=dist', '--loader:.wasm=file', '--log-level=warning'], { cwd: ctx.project }));
      const result = await runInChromium(ctx, ctx.project);
      assert.ok(result.loaded.some((f) => /dist[\\/]handoff-graph-\w+\.wasm$/.test(f)), 'the emitted .wasm asset was loaded');
      return { ...result, buildMs };
    },
  },
  {
    name: 'esbuild browser bundle (no loader, .wasm copied beside it)',
    fixture: 'esbuild-browser',
    async run(ctx) {
      const buildMs = await timed(() => runTool('esbuild', ['page-app.mjs', '--bundle', '--format=esm', '--outdir=dist-plain', '--log-level=warning'], { cwd: ctx.project }));
      // Before the copy: the page learns where the .wasm was looked for and what to do.
      const server = await start({ root: ctx.project, csp: STRICT });
      try {
        const missing = await runPage((await ctx.browser()).context, `${server.url}plain.html`);
        assert.equal(missing.outcome.ok, false);
        assert.ok(missing.outcome.error.includes(`${server.url}dist-plain/handoff-graph.wasm (HTTP 404)`), missing.outcome.error);
        assert.match(missing.outcome.error, /beside the bundle.*init\(\{ wasm \}\)/);
      } finally {
        await server.close();
      }
      await copyFile(path.join(ctx.project, 'node_modules/handoff-graph/dist/handoff-graph.wasm'), path.join(ctx.project, 'dist-plain/handoff-graph.wasm'));
      return { ...(await runInChromium(ctx, ctx.project, 'plain.html')), buildMs };
    },
  },
  {
    name: 'Rollup (node-resolve + import-meta-assets)',
    fixture: 'rollup',
    async run(ctx) {
      const buildMs = await timed(() => runTool('rollup', ['-c', 'rollup.config.mjs', '--silent'], { cwd: ctx.project }));
      const result = await runInChromium(ctx, ctx.project);
      assert.ok(result.loaded.some((f) => f.startsWith(path.join(ctx.project, 'dist')) && f.endsWith('.wasm')), 'the emitted .wasm asset was loaded');
      return { ...result, buildMs };
    },
  },
  {
    name: 'Parcel (no configuration)',
    fixture: 'parcel',
    async run(ctx) {
      const result = await parcel(ctx);
      assert.ok(result.loaded.some((f) => f.endsWith('.wasm')), 'the emitted .wasm asset was loaded');
      return result;
    },
  },
  {
    name: 'Parcel, packageExports on: handoff-graph/inline',
    fixture: 'parcel-inline',
    async run(ctx) {
      const result = await parcel(ctx);
      assert.ok(!result.loaded.some((f) => f.endsWith('.wasm')), 'no .wasm fetched');
      return result;
    },
  },
  {
    name: 'module Web Worker (unbundled)',
    fixture: 'web-worker',
    async run(ctx) {
      const result = await runInChromium(ctx, ctx.project);
      assert.ok(result.loaded.some((f) => f.endsWith('node_modules/handoff-graph/dist/handoff-graph.wasm')), 'the worker fetched the .wasm beside the package');
      return result;
    },
  },
  {
    name: 'import-map page (unbundled)',
    fixture: 'import-map',
    async run(ctx) {
      // An inline import map is an inline script to CSP: allowed here by its hash, the only way
      // under a policy without 'unsafe-inline'. Nothing else is added to the policy.
      const html = await readFile(path.join(ctx.project, 'index.html'), 'utf8');
      const result = await runInChromium(ctx, ctx.project, 'index.html', { csp: `${STRICT}${hashesOfInlineScripts(html)}` });
      assert.ok(result.loaded.some((f) => f.endsWith('node_modules/handoff-graph/js/browser.js')), 'the import map mapped the package');
      return result;
    },
  },
  {
    name: 'handoff-graph/inline in a page (CDN style)',
    fixture: 'inline-page',
    async run(ctx) {
      const result = await runInChromium(ctx, ctx.project);
      const fromPackage = relative(ctx.project, result.loaded).filter((f) => f.startsWith('node_modules/'));
      assert.deepEqual(fromPackage, ['node_modules/handoff-graph/dist/inline.js'], 'one file from the package, no .wasm fetched');
      return result;
    },
  },
  // handoff-graph/router in each consumer that can hold it: the routing module, never the full one.
  {
    name: "Vite dev server, handoff-graph/router (optimizeDeps.exclude: ['handoff-graph'])",
    fixture: 'vite-router',
    async run(ctx) {
      const { createServer } = await import(path.join(repo, 'node_modules/vite/dist/node/index.js'));
      const server = await createServer({
        root: ctx.project, configFile: false, logLevel: 'error', clearScreen: false, optimizeDeps: { exclude: ['handoff-graph'] },
        server: { host: '127.0.0.1', port: 0, hmr: false },
      });
      await server.listen();
      let run;
      try {
        run = await runPage((await ctx.browser()).context, server.resolvedUrls.local[0], { timeout: 30_000 });
      } finally {
        await server.close();
      }
      assert.deepEqual(problems(run), []);
      assert.equal(run.outcome.ok, true, run.outcome.error);
      const wasm = run.responses.filter((r) => new URL(r.url).pathname.endsWith('.wasm')).map((r) => new URL(r.url).pathname);
      assert.deepEqual(wasm.map((p) => p.split('/').at(-1)), ['handoff-graph-router.wasm'], 'the routing module, not the full one');
      return { out: run.outcome.value, firstRouteMs: run.outcome.value.firstRouteMs };
    },
  },
  {
    name: 'Node CJS, handoff-graph/router (require, then import)',
    fixture: 'node-cjs',
    async run({ project }) {
      const out = await runNode(project, ['router.cjs']);
      assert.equal(out.resolved, path.join(project, 'node_modules/handoff-graph/js/router-require.cjs'));
      assert.deepEqual(out.routesThroughImport, EXPECTED, 'import() routes without an init() of its own');
      assert.equal(out.sameInit, true, 'require and import share init');
      assert.equal(out.errorsInstanceofAcross, true, 'an import() error is instanceof the required class');
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  {
    name: 'Node worker_threads, handoff-graph/router',
    fixture: 'worker-threads',
    async run({ project }) {
      const out = await runNode(project, ['router-main.mjs']);
      assert.deepEqual(out.worker.routes, EXPECTED, 'the worker routes');
      return { out, firstRouteMs: out.firstRouteMs };
    },
  },
  ...['esm', 'cjs'].map((format) => ({
    name: `esbuild Node bundle (${format === 'esm' ? 'ESM' : 'CommonJS'}) of handoff-graph/router, .wasm beside it`,
    fixture: 'esbuild-node',
    async run({ project }) {
      const bundle = `deploy-router/router.${format === 'esm' ? 'mjs' : 'cjs'}`;
      const buildMs = await timed(() =>
        runTool('esbuild', ['router.mjs', '--bundle', '--platform=node', `--format=${format}`, `--outfile=${bundle}`, '--log-level=error'], { cwd: project }));
      const missing = await runNode(project, [bundle]);
      assert.match(missing.initError ?? '', /deploy-router[\\/]handoff-graph-router\.wasm \(ENOENT\)/);
      assert.match(missing.initError, /copy node_modules\/handoff-graph\/dist\/handoff-graph-router\.wasm there/, 'the routing module\'s file');
      assert.doesNotMatch(missing.initError, /inline/, 'handoff-graph/inline is the full module');
      await copyFile(path.join(project, 'node_modules/handoff-graph/dist/handoff-graph-router.wasm'), path.join(project, 'deploy-router/handoff-graph-router.wasm'));
      const out = await runNode(project, [bundle]);
      return { out, firstRouteMs: out.firstRouteMs, buildMs, size: await sizes(await filesUnder(path.join(project, 'deploy-router'), /\.(mjs|cjs|wasm)$/)) };
    },
  })),
  {
    name: 'webpack 5, handoff-graph/router (no configuration for it)',
    fixture: 'webpack',
    async run(ctx) {
      const buildMs = await timed(() => runTool('node', ['build.mjs', './webpack.router.config.mjs'], { cwd: ctx.project }));
      return { ...await routerOnly(ctx, await runInChromium(ctx, ctx.project, 'router.html')), buildMs };
    },
  },
  {
    name: 'esbuild browser bundle (--loader:.wasm=file), handoff-graph/router',
    fixture: 'esbuild-browser',
    async run(ctx) {
      const buildMs = await timed(() => runTool('esbuild', ['router-main.mjs', '--bundle', '--format=esm', '--outdir=dist-router', '--loader:.wasm=file', '--log-level=warning'], { cwd: ctx.project }));
      return { ...await routerOnly(ctx, await runInChromium(ctx, ctx.project, 'router.html')), buildMs };
    },
  },
  {
    name: 'Rollup (node-resolve + import-meta-assets), handoff-graph/router',
    fixture: 'rollup',
    async run(ctx) {
      const buildMs = await timed(() => runTool('rollup', ['-c', 'rollup.router.config.mjs', '--silent'], { cwd: ctx.project }));
      return { ...await routerOnly(ctx, await runInChromium(ctx, ctx.project, 'router.html')), buildMs };
    },
  },
  {
    name: 'Parcel (no configuration), handoff-graph/router',
    fixture: 'parcel',
    async run(ctx) {
      return routerOnly(ctx, await parcel(ctx, { page: 'router.html', distDir: 'dist-router' }));
    },
  },
  {
    name: 'module Web Worker (unbundled), handoff-graph/router',
    fixture: 'web-worker',
    async run(ctx) {
      const result = await routerOnly(ctx, await runInChromium(ctx, ctx.project, 'router.html'));
      assert.ok(result.loaded.some((f) => f.endsWith('node_modules/handoff-graph/dist/handoff-graph-router.wasm')), 'the worker fetched the routing module beside the package');
      return result;
    },
  },
  {
    name: 'import-map page (unbundled), handoff-graph/router',
    fixture: 'import-map',
    async run(ctx) {
      const html = await readFile(path.join(ctx.project, 'router.html'), 'utf8');
      const result = await routerOnly(ctx, await runInChromium(ctx, ctx.project, 'router.html', { csp: `${STRICT}${hashesOfInlineScripts(html)}` }));
      assert.ok(result.loaded.some((f) => f.endsWith('node_modules/handoff-graph/js/router.js')), 'the import map mapped the routing entry');
      return result;
    },
  },
  // The other runtimes (tests/consumers/runtimes.mjs), each running the triage example, a swarm
  // turn with a scripted model and handoff-graph/router, as the README tells their users to.
  ...['bun', 'deno'].map((runtime) => ({
    name: runtime === 'bun'
      ? 'Bun (handoff-graph and handoff-graph/router), nothing configured'
      : 'Deno, no permission flag (handoff-graph and handoff-graph/router)',
    fixture: 'bun-deno',
    async run({ project }) {
      const script = async (file) => {
        const { stdout, stderr } = await runScript(runtime, project, file);
        assert.equal(stderr, '', `stderr of ${runtime} ${file}`);
        return lastJsonLine(stdout);
      };
      const entry = runtime === 'deno' ? ['deno.js', 'router-deno.js'] : ['node.js', 'router-node.js'];
      const out = await script('main.mjs');
      assert.equal(out.resolved, new URL(`node_modules/handoff-graph/js/${entry[0]}`, `file://${project}/`).href);
      assert.deepEqual(out.swarm, SWARM_EXPECTED, 'a swarm turn with a scripted model');
      const router = await script('router.mjs');
      assert.deepEqual(router.routes, EXPECTED, 'handoff-graph/router');
      assert.equal(router.resolved, new URL(`node_modules/handoff-graph/js/${entry[1]}`, `file://${project}/`).href);
      return { out, firstRouteMs: out.firstRouteMs, note: await versionOf(runtime) };
    },
  })),
  {
    name: 'Cloudflare workerd (miniflare, bundled as wrangler does): top-level await init({ wasm })',
    fixture: 'workerd',
    async run({ project }) {
      const started = performance.now();
      const bundles = {};
      for (const name of ['worker', 'router-worker', 'errors-worker']) bundles[name] = await bundleWorker(project, `${name}.mjs`, 'deploy');
      const buildMs = performance.now() - started;
      const { answers, firstAnswerMs } = await runInWorkerd(bundles);
      const { worker, 'router-worker': router, 'errors-worker': errors } = answers;
      assert.deepEqual(worker.swarm, SWARM_EXPECTED, 'a swarm turn with a scripted model');
      assert.deepEqual(router.routes, EXPECTED, 'handoff-graph/router');
      // What a Worker is told when it does what a Worker cannot, and that the advice works there.
      assert.match(errors.withoutWasm, /import wasm from 'handoff-graph\/handoff-graph\.wasm'.*init\(\{ wasm \}\)/);
      assert.match(errors.routerWithoutWasm, /import wasm from 'handoff-graph\/handoff-graph-router\.wasm'/);
      assert.match(errors.inline, /^handoff-graph: could not compile the embedded module .*import wasm from 'handoff-graph\/handoff-graph\.wasm'/);
      for (const message of [errors.withoutWasm, errors.routerWithoutWasm, errors.inline]) {
        assert.doesNotMatch(message, /handoff-graph\/inline|copy node_modules/, 'advice that cannot work in a Worker');
      }
      assert.match(errors.graphAtTopLevel, /refused .*create it inside a request handler/);
      assert.equal(errors.routeInHandler, 'b', 'the same Worker builds graphs inside its handler');
      const workerd = `${await versionOf('workerd')}, miniflare ${JSON.parse(await readFile(path.join(runtimes, 'miniflare/package.json'), 'utf8')).version}`;
      const size = await sizes(await filesUnder(path.join(project, 'deploy'), /^(worker\.mjs|handoff-graph\.wasm)$/));
      return { out: worker, firstRouteMs: firstAnswerMs, buildMs, size, note: `${workerd}, first route = first answer after workerd started` };
    },
  },
  {
    name: "Vercel's edge-runtime ('?module' imports: a WebAssembly.Module from the host's realm)",
    fixture: 'edge-runtime',
    async run({ project }) {
      const started = performance.now();
      const [main, router] = [await bundleEdgeFunction(project, 'edge.mjs'), await bundleEdgeFunction(project, 'router-edge.mjs')];
      const buildMs = performance.now() - started;
      const { answer: out, firstAnswerMs } = await runInEdgeRuntime(main);
      assert.equal(out.foreignModule, true, "the module came from the host's realm");
      assert.deepEqual(out.swarm, SWARM_EXPECTED, 'a swarm turn with a scripted model');
      assert.deepEqual((await runInEdgeRuntime(router)).answer.routes, EXPECTED, 'handoff-graph/router');
      const { version } = JSON.parse(await readFile(path.join(runtimes, 'edge-runtime/package.json'), 'utf8'));
      return { out, firstRouteMs: firstAnswerMs, buildMs, note: `edge-runtime ${version}, first route = first answer after the runtime was created` };
    },
  },
];

/**
 * A page run that loaded one .wasm, the routing module (its bytes: bundlers may rename it), and
 * so not the full one (asserted); returns the run.
 */
async function routerOnly(ctx, result) {
  const wasm = result.loaded.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `one .wasm loaded: ${wasm.join(', ')}`);
  const shipped = await readFile(path.join(ctx.project, 'node_modules/handoff-graph/dist/handoff-graph-router.wasm'));
  assert.ok((await readFile(wasm[0])).equals(shipped), `${wasm[0]} is the routing module`);
  return result;
}

/** " 'sha256-…'" for each inline <script> of an HTML page (what a CSP must list to allow them). */
function hashesOfInlineScripts(html) {
  return [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc\s*=/.test(m[0].slice(0, m[0].indexOf('>'))) && m[1].length > 0)
    .map((m) => ` 'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`)
    .join('');
}

test('consumer matrix: the packed tarball in fresh projects', { timeout: 600_000 }, async (t) => {
  for (const f of ['handoff-graph.mjs', 'handoff-graph.wasm', 'index.cjs', 'inline.js', 'index.d.cts']) {
    assert.ok(existsSync(path.join(repo, 'dist', f)), `dist/${f} is missing: run bash scripts/build.sh`);
  }
  assert.deepEqual(missingTools(), [], 'tools missing: run bash scripts/setup.sh');
  const started = performance.now();
  const results = [];
  await using(async (use) => {
    const folder = await runFolder();
    use({ close: () => rm(folder, { recursive: true, force: true, maxRetries: 3 }) });
    const tarball = await pack(folder);
    let browser = null;
    use({ close: () => browser?.then((b) => b.close()) });
    const ctxBase = { browser: () => (browser ??= launchBrowser()) };

    for (const [index, consumer] of CONSUMERS.entries()) {
      await t.test(consumer.name, async () => {
        const { project, installMs } = await prepare(consumer.fixture, path.join(folder, String(index)), tarball);
        const result = await consumer.run({ ...ctxBase, project });
        assert.deepEqual(result.out.routes, EXPECTED, "the README's triage example");
        const line = { consumer: consumer.name, installMs, buildMs: result.buildMs, firstRouteMs: result.firstRouteMs, size: result.size, note: result.note };
        results.push(line);
        t.diagnostic(describeResult(line));
      });
    }
  });
  const totalMs = performance.now() - started;
  t.diagnostic(`consumer matrix: ${results.length} consumers in ${(totalMs / 1000).toFixed(1)} s`);
  const report = results.map(({ size, ...rest }) => ({ ...rest, jsGzip: size?.jsGzip, wasmGzip: size?.wasmGzip }));
  await writeFile(path.join(repo, 'build', 'consumers', 'results.json'), `${JSON.stringify({ node: process.version, totalMs, results: report }, null, 2)}\n`);
});
