// scripts/wasm-reorder.mjs (issue 21): the post-link pass that reorders both modules' functions for
// gzip. A reordered module must behave as the original: every call, ref.func, export, element
// segment and the start function renumbered, and em++'s symbol map rewritten to the new indices.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { leb as readLeb, parseModule } from '../../scripts/wasm-parts.mjs';
import { renumberSymbols, reorderFunctions } from '../../scripts/wasm-reorder.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The binary of a module in the text format, by binaryen's wasm-as (installed with Emscripten). */
function assemble(wat) {
  const dir = mkdtempSync(path.join(tmpdir(), 'wasm-reorder-'));
  try {
    writeFileSync(path.join(dir, 'm.wat'), wat);
    execFileSync('wasm-as', [path.join(dir, 'm.wat'), '-o', path.join(dir, 'm.wasm')]);
    return readFileSync(path.join(dir, 'm.wasm'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Functions that look alike in pairs, written apart, so that the pass has something to move; they
// call one another directly and through the table (at offset 11, whose LEB byte is the `end`
// opcode's), and one runs at start.
const WAT = `(module
  (import "env" "log" (func $log (param i32)))
  (type $binary (func (param i32 i32) (result i32)))
  (table 16 funcref)
  (elem (i32.const 11) $add $mul $pick)
  (global $started (mut i32) (i32.const 0))
  (memory 1)
  (start $init)
  (func $init (global.set $started (i32.const 7)))
  (func $add (type $binary) (i32.add (local.get 0) (local.get 1)))
  (func $square (param i32) (result i32) (call $mul (local.get 0) (local.get 0)))
  (func $mul (type $binary) (i32.mul (local.get 0) (local.get 1)))
  (func $pick (type $binary) (if (result i32) (i32.gt_s (local.get 0) (local.get 1)) (then (local.get 0)) (else (local.get 1))))
  (func $twice (param i32) (result i32) (call $add (local.get 0) (local.get 0)))
  (func $apply (export "apply") (param i32 i32 i32) (result i32)
    (call $log (local.get 0))
    (call_indirect (type $binary) (local.get 1) (local.get 2) (i32.add (local.get 0) (i32.const 10))))
  (func (export "compute") (param i32) (result i32)
    (i32.add (call $square (local.get 0)) (i32.add (call $twice (local.get 0)) (global.get $started))))
  (func (export "store") (param i32 i64 f32 f64)
    (i64.store offset=8 (local.get 0) (local.get 1))
    (f32.store offset=16 (local.get 0) (local.get 2))
    (f64.store offset=24 (local.get 0) (local.get 3))
    (br_table 0 0 (local.get 0)))
)`;

function run(bytes) {
  const logged = [];
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { log: (x) => logged.push(x) } });
  exports.store(0, 5n, 1.5, 2.5);
  return { compute: [0, 3, 10].map((x) => exports.compute(x)), apply: [1, 2, 3].map((f) => exports.apply(f, 6, 4)), logged };
}

test('a reordered module computes what the original does: calls, the table, exports and start renumbered', () => {
  const original = assemble(WAT);
  const { bytes, oldToNew } = reorderFunctions(original);
  assert.deepEqual(run(bytes), run(original));
  assert.deepEqual(run(original), { compute: [7, 22, 127], apply: [10, 24, 6], logged: [1, 2, 3] });
  assert.equal(oldToNew[0], 0, 'imports keep their indices');
  assert.notDeepEqual([...oldToNew], [...oldToNew].sort((a, b) => a - b), 'the pass moved something');
  assert.deepEqual(reorderFunctions(original).bytes, bytes, 'the same module in gives the same module out');
});

test('unknown options are errors', () => {
  assert.throws(() => reorderFunctions(assemble(WAT), { start: 3 }), /unknown option start/);
});

test('the command refuses a flag it does not know, and leaves the module as it was', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wasm-reorder-'));
  try {
    const file = path.join(dir, 'm.wasm');
    writeFileSync(file, assemble(WAT));
    const before = readFileSync(file);
    const script = path.join(repo, 'scripts/wasm-reorder.mjs');
    assert.throws(() => execFileSync(process.execPath, [script, file, '--dryrun'], { stdio: 'pipe' }), /Unknown option '--dryrun'/);
    assert.deepEqual(readFileSync(file), before);
    execFileSync(process.execPath, [script, file], { stdio: 'pipe' });
    assert.notDeepEqual(readFileSync(file), before, 'the same command without the typo rewrites it');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the symbol map is rewritten to the new indices, in index order', () => {
  const oldToNew = Uint32Array.from([0, 3, 1, 2]);
  assert.equal(renumberSymbols('0:log\n1:a\n2:b\n3:c\n', oldToNew), '0:log\n1:b\n2:c\n3:a\n');
});

test('an instruction the pass cannot decode stops it instead of leaving a call unrenumbered', () => {
  const original = assemble('(module (func (export "f") (result i32) (i32.const 1)) (func (result i32) (i32.const 2)))');
  const code = original.lastIndexOf(Buffer.from([0x41, 0x02, 0x0b]));
  const broken = Buffer.from(original);
  broken[code] = 0xfd; // the SIMD prefix, which clang never emits here
  assert.throws(() => reorderFunctions(broken), /opcode 0xfd/);
});

test("the shipped modules' symbol maps name every exported function after the reordering", () => {
  for (const file of ['build/wasm/handoff-graph.wasm', 'build/wasm/handoff-graph-router.wasm']) {
    const symbols = new Map(readFileSync(path.join(repo, `${file}.symbols`), 'utf8').split('\n').filter(Boolean)
      .map((line) => [Number(line.slice(0, line.indexOf(':'))), line.slice(line.indexOf(':') + 1)]));
    const module = new WebAssembly.Module(readFileSync(path.join(repo, file)));
    const functions = WebAssembly.Module.exports(module).filter((e) => e.kind === 'function' && e.name.startsWith('hg_'));
    assert.ok(functions.length > 5, file);
    // The export section's indices, read the way scripts/wasm-reorder.mjs reads them.
    const indices = exportIndices(readFileSync(path.join(repo, file)));
    for (const { name } of functions) assert.equal(symbols.get(indices.get(name)), name, `${file}: ${name}`);
  }
});

/** name → function index, from a module's export section. */
function exportIndices(bytes) {
  const out = new Map();
  const payload = parseModule(bytes).sections.find((s) => s.id === 7)?.payload;
  if (payload === undefined) return out;
  let [count, p] = readLeb(payload, 0);
  for (; count > 0; count--) {
    const [length, nameAt] = readLeb(payload, p);
    const name = Buffer.from(payload.subarray(nameAt, nameAt + length)).toString();
    const kind = payload[nameAt + length];
    const [index, next] = readLeb(payload, nameAt + length + 1);
    if (kind === 0) out.set(name, index);
    p = next;
  }
  return out;
}
