// What the consumer matrix (matrix.test.mjs) does to each fixture project: pack the package once,
// copy a fixture into a fresh project folder, install the tarball into it offline, run the
// fixture's build with the pinned tools, and measure what a user would ship and wait for.
//
// Fixture projects live under build/consumers/<run>/, inside the repository, so that their
// tools (vite, webpack, esbuild, rollup and its plugins, parcel, @types/node) resolve from the
// repository's node_modules, pinned by its package-lock.json, by Node's ordinary upward search;
// handoff-graph itself resolves from the fixture's own node_modules, installed from the tarball.
// TypeScript 7 comes from tests/consumers/tools/typescript-7 (it cannot share the root's
// node_modules with TypeScript 5.9: both packages are named typescript), and Bun, Deno, workerd
// (miniflare) and edge-runtime from tests/consumers/tools/runtimes.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const execFileAsync = promisify(execFile);

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
export const fixtures = path.join(here, 'fixtures');
const shared = path.join(here, 'shared');

/** The tools, by name: each an argv prefix. */
export const tools = {
  node: [process.execPath],
  npm: ['npm'],
  vite: [process.execPath, path.join(repo, 'node_modules/vite/bin/vite.js')],
  esbuild: [path.join(repo, 'node_modules/.bin/esbuild')],
  rollup: [process.execPath, path.join(repo, 'node_modules/rollup/dist/bin/rollup')],
  parcel: [process.execPath, path.join(repo, 'node_modules/parcel/lib/bin.js')],
  'tsc-5': [process.execPath, path.join(repo, 'node_modules/typescript/bin/tsc')],
  'tsc-7': [process.execPath, path.join(here, 'tools/typescript-7/node_modules/typescript/bin/tsc')],
  // The other runtimes (tests/consumers/runtimes.mjs), from tools/runtimes' own install.
  bun: [path.join(here, 'tools/runtimes/node_modules/bun/bin/bun.exe')],
  deno: [path.join(here, 'tools/runtimes/node_modules/deno/deno')],
  workerd: [path.join(here, 'tools/runtimes/node_modules/workerd/bin/workerd')],
};

/** The libraries that run the other runtimes (tests/consumers/runtimes.mjs imports them). */
const libraries = {
  miniflare: path.join(here, 'tools/runtimes/node_modules/miniflare/dist/src/index.js'),
  'edge-runtime': path.join(here, 'tools/runtimes/node_modules/edge-runtime/dist/index.js'),
};

/** The tools that are missing (setup installs them: bash scripts/setup.sh). */
export function missingTools() {
  const files = [...Object.entries(tools).map(([name, argv]) => [name, argv.at(-1)]), ...Object.entries(libraries)];
  return files
    .filter(([, file]) => path.isAbsolute(file) && !existsSync(file))
    .map(([name, file]) => `${name} (${path.relative(repo, file)})`);
}

// npm run sets npm_* variables (package name, lifecycle, local prefix...) that must not leak into
// the commands run here; keep only what says where the cache and registry are.
const KEEP = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || KEEP.has(k.toLowerCase())));

/** Runs a tool (a key of `tools`) in `cwd`; rejects with its output on failure. */
export async function runTool(name, args, { cwd, timeout = 120_000, extraEnv = {} } = {}) {
  const [file, ...prefix] = tools[name];
  try {
    return await execFileAsync(file, [...prefix, ...args], { cwd, env: { ...env, ...extraEnv }, timeout, maxBuffer: 32 << 20 });
  } catch (error) {
    error.message = `${name} ${args.join(' ')} (in ${cwd}) failed:\n${error.stdout ?? ''}${error.stderr ?? ''}\n${error.message}`;
    throw error;
  }
}

/** A fresh folder for one run of the matrix, under build/consumers/. */
export async function runFolder() {
  const parent = path.join(repo, 'build', 'consumers');
  await mkdir(parent, { recursive: true });
  return mkdtemp(path.join(parent, 'run-'));
}

/** `npm pack` of the repository into `folder`; returns the tarball's path. */
export async function pack(folder) {
  const { stdout } = await runTool('npm', ['pack', '--json', '--pack-destination', folder], { cwd: repo });
  return path.join(folder, JSON.parse(stdout)[0].filename);
}

/** triage.mjs as CommonJS, for the CommonJS fixture (the same text, exports rewritten). */
function triageAsCommonJS(source) {
  const names = [...source.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]);
  return `'use strict';\n${source.replace(/^export /gm, '')}\nmodule.exports = { ${names.join(', ')} };\n`;
}

/**
 * Copies fixtures/<name> and the shared files into `folder`/<name>, then installs the tarball
 * into it from the file, offline. Returns the project folder and how long the install took.
 */
export async function prepare(name, folder, tarball) {
  const project = path.join(folder, name);
  await cp(path.join(fixtures, name), project, { recursive: true });
  for (const file of await readdir(shared)) await cp(path.join(shared, file), path.join(project, file));
  await writeFile(path.join(project, 'triage.cjs'), triageAsCommonJS(await readFile(path.join(shared, 'triage.mjs'), 'utf8')));
  const started = performance.now();
  await runTool('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  return { project, installMs: performance.now() - started };
}

/** The last line of a program's stdout, as JSON. */
export function lastJsonLine(stdout) {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines.at(-1));
}

const gzipped = async (file) => gzipSync(await readFile(file), { level: 9 }).length;

/** Every file under `folder` (recursively) whose name matches `re`. */
export async function filesUnder(folder, re) {
  const names = await readdir(folder, { recursive: true });
  const files = [];
  for (const name of names) {
    const file = path.join(folder, name);
    if (re.test(name) && (await stat(file)).isFile()) files.push(file);
  }
  return files.sort();
}

/** Gzipped (level 9) bytes of JavaScript and of WebAssembly among `files`. */
export async function sizes(files) {
  const result = { jsGzip: 0, wasmGzip: 0, files: [] };
  for (const file of files) {
    const bytes = await gzipped(file);
    if (file.endsWith('.wasm')) result.wasmGzip += bytes;
    else result.jsGzip += bytes;
    result.files.push(file);
  }
  return result;
}

/** What a page loaded, as files under the server's root: the JS and .wasm responses. */
export function loadedFiles(run, serverUrl, root) {
  const files = new Set();
  for (const response of run.responses) {
    if (!response.url.startsWith(serverUrl) || response.status !== 200) continue;
    const pathname = decodeURIComponent(new URL(response.url).pathname);
    if (/\.(m?js|cjs|wasm)$/.test(pathname)) files.add(path.join(root, pathname));
  }
  return [...files];
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** One line of the report: a consumer's sizes and its time to the first route. */
export function describeResult({ consumer, size, firstRouteMs, buildMs, installMs, note }) {
  const parts = [consumer.padEnd(34)];
  parts.push(size ? `JS ${kib(size.jsGzip)} + wasm ${kib(size.wasmGzip)} gzipped` : 'unbundled (node_modules)'.padEnd(33));
  parts.push(`first route ${firstRouteMs.toFixed(0)} ms`);
  parts.push(`install ${(installMs / 1000).toFixed(1)} s`);
  if (buildMs !== undefined) parts.push(`build ${buildMs < 1000 ? `${buildMs.toFixed(0)} ms` : `${(buildMs / 1000).toFixed(1)} s`}`);
  if (note !== undefined) parts.push(note);
  return parts.join(' · ');
}
