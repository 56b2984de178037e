// The runtimes of the consumer matrix beside Node (matrix.test.mjs): Bun, Deno, Cloudflare's workerd
// and Vercel's edge-runtime, each from tests/consumers/tools/runtimes (its own package.json and
// lock: `npm ci` there, by scripts/setup.sh). Nothing here downloads anything: Deno runs with
// --cached-only, Bun with --no-install, and both keep their caches in the project folder.
//
// workerd runs through miniflare, on a Worker bundled as wrangler bundles one (esbuild with the
// `workerd`, `worker` and `browser` conditions; a .wasm import stays a module of its own, which
// workerd compiles: wrangler's CompiledWasm rule). edge-runtime runs an Edge Function bundled as
// Vercel's build does (the `edge-light` condition; a '?module' .wasm import becomes a
// WebAssembly.Module that the host compiles, in its own realm, and hands the function as a global).
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { repo, runTool } from './harness.mjs';

export const runtimes = fileURLToPath(new URL('tools/runtimes/node_modules/', import.meta.url));

const esbuild = () => import(path.join(repo, 'node_modules/esbuild/lib/main.js'));

/** Runs a program of `project` with Bun or Deno (`name`); returns its stdout and stderr. */
export function runScript(name, project, file) {
  const args = name === 'deno'
    // No permission flag: the .wasm comes from Deno's module graph (js/deno.js).
    ? ['run', '--cached-only', '--no-prompt', '--no-lock', file]
    : ['--no-install', file];
  const extraEnv = name === 'deno'
    ? { DENO_DIR: path.join(project, '.deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }
    : { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0', DO_NOT_TRACK: '1', NO_COLOR: '1' };
  return runTool(name, args, { cwd: project, timeout: 30_000, extraEnv });
}

/**
 * Bundles `entry` of `project` as wrangler bundles a Worker: into `outDir`, each imported .wasm
 * copied beside the bundle and imported from there. Returns the bundle's path.
 */
export async function bundleWorker(project, entry, outDir) {
  const wasmFiles = new Set();
  const wasmModules = {
    name: 'wasm-modules',
    setup(build) {
      build.onResolve({ filter: /\.wasm(\?module)?$/ }, async (args) => {
        if (args.pluginData === 'wasm-modules') return undefined;
        const resolved = await build.resolve(args.path.replace(/\?module$/, ''), {
          kind: args.kind, resolveDir: args.resolveDir, pluginData: 'wasm-modules',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        wasmFiles.add(resolved.path);
        return { path: `./${path.basename(resolved.path)}`, external: true };
      });
    },
  };
  const outfile = path.join(project, outDir, entry);
  await (await esbuild()).build({
    entryPoints: [path.join(project, entry)], outfile, bundle: true, format: 'esm', platform: 'neutral', target: 'es2024',
    conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], plugins: [wasmModules], logLevel: 'warning',
  });
  for (const file of wasmFiles) await copyFile(file, path.join(project, outDir, path.basename(file)));
  return outfile;
}

/**
 * Starts workerd (miniflare) with one Worker per bundle (`{ name: file }`, module syntax, .wasm
 * as CompiledWasm modules); fetches each once. Returns each answer's JSON and the time from the
 * start of workerd to the first answer.
 */
export async function runInWorkerd(bundles) {
  const { Miniflare } = await import(path.join(runtimes, 'miniflare/dist/src/index.js'));
  const started = performance.now();
  const mf = new Miniflare({
    workers: Object.entries(bundles).map(([name, scriptPath]) => ({
      name, modules: true, scriptPath, compatibilityDate: '2026-07-30',
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    })),
  });
  try {
    const answers = {};
    let firstAnswerMs;
    for (const name of Object.keys(bundles)) {
      const response = await (await mf.getWorker(name)).fetch('http://localhost/');
      const text = await response.text();
      if (response.status !== 200) throw new Error(`workerd: the Worker ${name} answered ${response.status}: ${text}`);
      firstAnswerMs ??= performance.now() - started;
      answers[name] = JSON.parse(text);
    }
    return { answers, firstAnswerMs };
  } finally {
    await mf.dispose();
  }
}

/**
 * Bundles the Edge Function `entry` of `project` as Vercel's build does, for edge-runtime: one
 * script whose fetch events the function's default export answers. Returns the script and the
 * .wasm files it imports, by the name of the global each is bound to.
 */
export async function bundleEdgeFunction(project, entry) {
  const bindings = {};
  const wasmModules = {
    name: 'wasm-modules',
    setup(build) {
      build.onResolve({ filter: /\.wasm\?module$/ }, async (args) => {
        const resolved = await build.resolve(args.path.replace(/\?module$/, ''), { kind: args.kind, resolveDir: args.resolveDir });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        const name = `wasm_${path.basename(resolved.path, '.wasm').replace(/\W/g, '_')}`;
        bindings[name] = resolved.path;
        return { path: name, namespace: 'wasm-binding' };
      });
      build.onLoad({ filter: /.*/, namespace: 'wasm-binding' }, (args) => ({ contents: `export default globalThis[${JSON.stringify(args.path)}];` }));
    },
  };
  const result = await (await esbuild()).build({
    stdin: {
      contents: `import handler from './${entry}';\naddEventListener('fetch', (event) => event.respondWith(handler(event.request)));\n`,
      resolveDir: project, loader: 'js',
    },
    bundle: true, format: 'iife', platform: 'browser', target: 'es2022', conditions: ['edge-light', 'worker', 'browser'],
    write: false, plugins: [wasmModules], logLevel: 'warning',
  });
  return { script: result.outputFiles[0].text, bindings };
}

/**
 * Runs an Edge Function bundle in edge-runtime: the host compiles each bound .wasm (in Node's
 * realm, not the function's) and the function answers one request. Returns the answer's JSON and
 * the time from the runtime's creation to the answer.
 */
export async function runInEdgeRuntime({ script, bindings }) {
  const { EdgeRuntime } = await import(path.join(runtimes, 'edge-runtime/dist/index.js'));
  const modules = {};
  for (const [name, file] of Object.entries(bindings)) modules[name] = await WebAssembly.compile(await readFile(file));
  const started = performance.now();
  const runtime = new EdgeRuntime({ initialCode: script, extend: (context) => Object.assign(context, modules) });
  const response = await runtime.dispatchFetch('http://localhost/');
  const text = await response.text();
  if (response.status !== 200) throw new Error(`edge-runtime: the function answered ${response.status}: ${text}`);
  return { answer: JSON.parse(text), firstAnswerMs: performance.now() - started };
}

/** A runtime's name and version, as its binary reports them ("deno 2.9.6", for the report). */
export async function versionOf(name) {
  const { stdout } = await runTool(name, ['--version'], { cwd: repo });
  const version = stdout.match(/\d[\w.-]*/)?.[0] ?? stdout.trim();
  return `${name} ${version}`;
}
