// The package's type declarations, written into dist/ as a mirror of js/ (scripts/build.sh runs
// this; docs/architecture.md#typings says why):
//   1. tsc emits the declarations of the typed JavaScript (js/tsconfig.emit.json): one .d.ts per
//      file, from its JSDoc. A file tsc emits must be typed (`// @ts-check`, checked strictly by
//      js/tsconfig.strict.json): an untyped one would publish `any`s, and fails the build.
//   2. What the package keeps to itself leaves the emitted declarations: a class member whose JSDoc
//      says `@internal` (tsc's stripInternal ignores JavaScript, microsoft/TypeScript#38444), and
//      the copy of [Symbol.dispose] that tsc writes into a JavaScript class from the declaration
//      merging in js/types.d.ts, which declares it only where Symbol.dispose exists. Done on tsc's
//      own syntax tree of each emitted file: the members it finds are cut out of the text.
//   3. The hand-written declarations in js/ (js/types.d.ts, and those standing for Deno's .wasm) are
//      copied beside them; a file may not have both.
//   4. Every .d.ts gets its CommonJS twin (.d.cts) with relative imports renamed .js → .cjs, so that
//      no CommonJS declaration imports an ES module's (TS1479): tsc emits .d.cts only from .cjs.
//      (and augments one: js/types.d.ts's `declare module`s are renamed too).
// Old declarations are removed first, so that a file deleted from js/ leaves none behind.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../', import.meta.url));
const js = path.join(root, 'js');
const dist = path.join(root, 'dist');

const declarations = (dir) =>
  readdirSync(dir, { recursive: true })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.d\.c?ts$/.test(f));

mkdirSync(dist, { recursive: true });
for (const f of declarations(dist)) rmSync(path.join(dist, f));

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let listed;
try {
  listed = execFileSync(process.execPath, [tsc, '-p', path.join(js, 'tsconfig.emit.json'), '--listEmittedFiles'], {
    cwd: root,
    encoding: 'utf8',
  });
} catch (error) {
  console.error(`scripts/typings.mjs: tsc -p js/tsconfig.emit.json failed:\n${error.stdout}`);
  process.exit(1);
}
const emitted = listed
  .split('\n')
  .filter((l) => l.startsWith('TSFILE: '))
  .map((l) => path.relative(dist, l.slice('TSFILE: '.length)).split(path.sep).join('/'));

const untyped = emitted
  .map((d) => d.replace(/\.d\.ts$/, '.js'))
  .filter((source) => !readFileSync(path.join(js, source), 'utf8').startsWith('// @ts-check\n'));
if (untyped.length > 0) {
  console.error(`scripts/typings.mjs: declarations emitted from untyped files (add // @ts-check and type them): ${untyped.map((f) => `js/${f}`).join(', ')}`);
  process.exit(1);
}

// A member left out of the published declarations: `@internal` in its JSDoc, or [Symbol.dispose].
const leftOut = (member) =>
  ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal') ||
  (member.name !== undefined && ts.isComputedPropertyName(member.name) && member.name.expression.getText() === 'Symbol.dispose');
for (const f of emitted) {
  const file = path.join(dist, f);
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const cuts = [];
  const visit = (node) => {
    if (ts.isClassDeclaration(node)) for (const member of node.members) if (leftOut(member)) cuts.push([member.getFullStart(), member.getEnd()]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (cuts.length > 0) writeFileSync(file, cuts.reduceRight((kept, [from, to]) => kept.slice(0, from) + kept.slice(to), text));
}

const handWritten = declarations(js).filter((f) => f.endsWith('.d.ts'));
const both = handWritten.filter((f) => emitted.includes(f));
if (both.length > 0) {
  console.error(`scripts/typings.mjs: both emitted and hand-written: ${both.map((f) => `js/${f}`).join(', ')} (delete the hand-written one)`);
  process.exit(1);
}
for (const f of handWritten) {
  mkdirSync(path.dirname(path.join(dist, f)), { recursive: true });
  copyFileSync(path.join(js, f), path.join(dist, f));
}

for (const f of [...emitted, ...handWritten]) {
  const text = readFileSync(path.join(dist, f), 'utf8');
  const cjs = text.replace(/((?:from|import\(|declare module) *(['"])\.{1,2}\/[^'"]*)\.js\2/g, '$1.cjs$2');
  writeFileSync(path.join(dist, f.replace(/\.d\.ts$/, '.d.cts')), cjs);
}
