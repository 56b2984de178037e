// The typings come from one source (docs/architecture.md#typings): the package's JavaScript, typed
// in JSDoc and checked strictly (a file is typed when it starts with `// @ts-check`; npm test runs
// tsc -p js/tsconfig.strict.json). What is typed stays typed: every file of js/ carries the marker
// but those still to type, listed here (the list only shrinks). And every entry whose declarations
// are emitted (js/tsconfig.emit.json) has no hand-written .d.ts left beside it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const js = new URL('../../js/', import.meta.url);

// Still to type: Deno's source-phase imports, which tsc cannot read (js/tsconfig.json excludes
// them).
const UNTYPED_FILES = new Set(['deno-wasm.js', 'deno-router-wasm.js']);
const UNTYPED_FOLDERS = [];

const files = readdirSync(js, { recursive: true })
  .map((f) => f.split('\\').join('/'))
  .filter((f) => f.endsWith('.js'));
const typed = (file) => /^(#![^\n]*\n)?\/\/ @ts-check\n/.test(readFileSync(new URL(file, js), 'utf8'));

test('every file of js/ is typed (// @ts-check) but those listed as still to type', () => {
  const untypedFolder = (f) => UNTYPED_FOLDERS.some((folder) => f.startsWith(folder));
  assert.deepEqual(files.filter((f) => !UNTYPED_FILES.has(f) && !untypedFolder(f) && !typed(f)), [], 'files without // @ts-check: type them (docs/architecture.md#typings), or list them as still to type');
  assert.deepEqual(files.filter((f) => UNTYPED_FILES.has(f) && typed(f)), [], 'typed now: take them off UNTYPED_FILES');
});

test('an entry whose declarations are emitted has no hand-written .d.ts beside it', () => {
  // tsconfig.emit.json is JSON with comments.
  const config = readFileSync(new URL('tsconfig.emit.json', js), 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const { include } = JSON.parse(config);
  assert.ok(include.length > 0);
  const declarations = new Set(readdirSync(js, { recursive: true }).map((f) => f.split('\\').join('/')).filter((f) => f.endsWith('.d.ts')));
  for (const entry of include) {
    const file = entry.replace(/^\.\//, '');
    assert.ok(typed(file), `${file} is emitted, so it must be typed`);
    assert.ok(!declarations.has(file.replace(/\.js$/, '.d.ts')), `${file} has a hand-written .d.ts beside its emitted one`);
  }
});

test('the published declarations hold nothing marked @internal (scripts/typings.mjs cuts it out)', () => {
  const dist = new URL('../../dist/', import.meta.url);
  const published = readdirSync(dist, { recursive: true }).map((f) => f.split('\\').join('/')).filter((f) => /\.d\.c?ts$/.test(f));
  assert.ok(published.includes('index.d.ts') && published.includes('router.d.ts'), 'run node scripts/typings.mjs first');
  assert.deepEqual(published.filter((f) => readFileSync(new URL(f, dist), 'utf8').includes('@internal')), []);
});
