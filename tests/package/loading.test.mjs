// How the package loads its WebAssembly module, from the built files (bash scripts/build.sh):
// the errors a user sees when it cannot, the CommonJS fallback for Nodes that cannot require an
// ES module, handoff-graph/inline, and what the build outputs may and may not contain. Each
// case runs in a fresh Node process (a process loads the module once). The consumer matrix
// (tests/consumers) covers the same from the packed tarball, in bundlers and browsers.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const dist = path.join(repo, 'dist');

/** Runs an ES module script in a fresh Node in the repository ('handoff-graph' is the package itself). */
async function esm(script, flags = []) {
  const { stdout } = await run(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: repo, timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

const TRIAGE = `const g = new HandoffGraph().addEdge('triage', 'billing', "category == 'billing'").addEdge('triage', 'human');
  const routes = [g.route('triage', { category: 'billing' }), g.route('triage', {})]; g.dispose();`;

test('init() rejects unknown options, naming the key and the allowed ones', async () => {
  const out = await esm(`import { init } from 'handoff-graph';
    const messages = [];
    for (const options of [{ wasmm: 'x' }, 'x', null, [1]]) {
      try { await init(options); messages.push(null); } catch (e) { messages.push(e.constructor.name + ': ' + e.message); }
    }
    await init();
    try { await init({ wams: 1 }); messages.push(null); } catch (e) { messages.push(e.constructor.name + ': ' + e.message); }
    console.log(JSON.stringify(messages));`);
  assert.equal(out[0], "TypeError: init options: unknown option 'wasmm' (did you mean 'wasm'?); allowed: wasm");
  assert.match(out[1], /^TypeError: init options must be an object, got string x/);
  assert.match(out[2], /^TypeError: init options must be an object, got null/);
  assert.match(out[3], /^TypeError: init options must be an object, got an array/);
  assert.match(out[4], /^TypeError: init options: unknown option 'wams'/, 'checked after loading too');
});

test('a .wasm that cannot be read: the error says where it looked and how to pass it', async () => {
  const missing = path.join(repo, 'build', 'no-such-dir', 'handoff-graph.wasm');
  const out = await esm(`import { init } from 'handoff-graph';
    try { await init({ wasm: ${JSON.stringify(missing)} }); } catch (e) { console.log(JSON.stringify({ name: e.constructor.name, message: e.message, cause: e.cause?.code })); }`);
  assert.equal(out.name, 'Error');
  assert.equal(out.cause, 'ENOENT');
  assert.ok(out.message.includes(`from ${missing} (ENOENT)`), out.message);
  assert.match(out.message, /init\(\{ wasm \}\)/);
  assert.match(out.message, /'handoff-graph\/inline'/);
  assert.doesNotMatch(out.message, /beside the bundle/, 'a location the user gave is not the default place');
});

test("the routing module's load errors name its own file, and not handoff-graph/inline (the full module)", async () => {
  const out = await esm(`import { init } from 'handoff-graph/router';
    try { await init({ wasm: ${JSON.stringify(path.join(repo, 'build', 'no-such-dir', 'handoff-graph-router.wasm'))} }); } catch (e) { console.log(JSON.stringify({ message: e.message })); }`);
  assert.match(out.message, /handoff-graph-router\.wasm \(ENOENT\): pass the module yourself with init\(\{ wasm \}\)/);
  assert.doesNotMatch(out.message, /inline/);
});

test('bytes that are not WebAssembly (a fallback page): a CompileError that shows them', async () => {
  const out = await esm(`import { init } from 'handoff-graph';
    try { await init({ wasm: new TextEncoder().encode('<!doctype html><html>') }); } catch (e) { console.log(JSON.stringify({ name: e.constructor.name, message: e.message })); }`);
  assert.equal(out.name, 'CompileError');
  assert.match(out.message, /not a WebAssembly module \(21 bytes starting "<!doctype html><"; a page served in its place\?\)/);
});

test('require() and import share one runtime; where Node cannot require an ES module, dist/index.cjs is a second one', async () => {
  const script = `import { createRequire } from 'node:module';
    import { init, HandoffGraph } from 'handoff-graph';
    const required = createRequire(${JSON.stringify(path.join(repo, 'x.js'))})('handoff-graph');
    const out = { requireModule: process.features.require_module ?? false, same: required.init === init,
      file: createRequire(${JSON.stringify(path.join(repo, 'x.js'))}).resolve('handoff-graph') };
    await required.init();
    { const HandoffGraph = required.HandoffGraph; ${TRIAGE} out.routes = routes; }
    try { new HandoffGraph(); out.importedNeedsInit = false; } catch (e) { out.importedNeedsInit = /await init\\(\\)/.test(e.message); }
    console.log(JSON.stringify(out));`;
  const shipped = await esm(script);
  assert.equal(shipped.requireModule, true, 'this Node can require an ES module');
  assert.equal(shipped.file, path.join(repo, 'js', 'require.cjs'));
  assert.equal(shipped.same, true);
  assert.deepEqual(shipped.routes, ['billing', 'human']);
  assert.equal(shipped.importedNeedsInit, false, "require's init() served import too");

  const fallback = await esm(script, ['--no-experimental-require-module']);
  assert.equal(fallback.requireModule, false);
  assert.equal(fallback.same, false, 'the CommonJS build is a second copy');
  assert.deepEqual(fallback.routes, ['billing', 'human'], 'dist/index.cjs finds its .wasm beside it');
  assert.equal(fallback.importedNeedsInit, true, 'a second runtime, with its own init()');
});

test('the glue names the .wasm once, beside itself, in the form bundlers rewrite', async () => {
  const glue = await readFile(path.join(dist, 'handoff-graph.mjs'), 'utf8');
  const code = glue.replace(/^\s*(\/\/|\/\*\*).*$/gm, '');  // wasm/wasm-location.js's comments
  assert.deepEqual(code.match(/import\.meta\.url/g), ['import.meta.url', 'import.meta.url'], 'only wasmLocation reads import.meta.url');
  const router = await readFile(path.join(dist, 'handoff-graph-router.mjs'), 'utf8');
  assert.doesNotMatch(router, /import\.meta/, "the routing module's loader: js/router.js names its .wasm");
  assert.equal(code.match(/new URL\('\.\/handoff-graph\.wasm', import\.meta\.url\)/g)?.length, 1);
  assert.doesNotMatch(code, /new URL\("handoff-graph\.wasm"/, "Emscripten's own lookup is off (-sUSE_ES6_IMPORT_META=0)");
});

test('handoff-graph/inline: one module, the .wasm inside, nothing fetched, no Node built-in', async (t) => {
  const inline = await readFile(path.join(dist, 'inline.js'), 'utf8');
  assert.doesNotMatch(inline, /\bimport\.meta\b/, 'nothing located relative to the file');
  assert.doesNotMatch(inline, /from\s*["']node:|require\(["']node:|^import\s/m, 'no imports at all (edge runtimes, CDNs)');
  const out = await esm(`globalThis.fetch = () => { throw new Error('fetched'); };
    const started = performance.now();
    const { init, HandoffGraph } = await import(${JSON.stringify(path.join(dist, 'inline.js'))});
    const imported = performance.now();
    await init();
    const initialized = performance.now();
    ${TRIAGE}
    console.log(JSON.stringify({ routes, importMs: imported - started, initMs: initialized - imported }));`);
  assert.deepEqual(out.routes, ['billing', 'human']);
  const wasm = await readFile(path.join(dist, 'handoff-graph.wasm'));
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  t.diagnostic(`dist/inline.js ${kib(inline.length)}, gzipped ${kib(gzipSync(inline, { level: 9 }).length)} ` +
    `(the .wasm alone ${kib(wasm.length)}, gzipped ${kib(gzipSync(wasm, { level: 9 }).length)})`);
  t.diagnostic(`Node ${process.version}: import ${out.importMs.toFixed(1)} ms, init() ${out.initMs.toFixed(1)} ms (base64 decode + compile)`);
});

test('the CommonJS typings import only CommonJS typings (no TS1479)', async () => {
  const files = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.d.cts'));
  assert.ok(files.includes('index.d.cts'));
  for (const file of files) {
    const text = await readFile(path.join(dist, file), 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import\()\s*(['"])(\.{1,2}\/[^'"]*)\1/g)].map((m) => m[2]);
    assert.deepEqual(specifiers.filter((s) => !s.endsWith('.cjs')), [], `${file} imports ES module typings`);
  }
});
