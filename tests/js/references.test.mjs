// Every file a doc, a comment or a message cites exists in the repository: a reader sent to a
// source file or to `[limits](limits.md)` must find it. A path counts from the repository's root
// or from the citing file's folder; placeholders such as tests/golden/NAME.json are skipped. Scans the tracked sources and docs
// for repository paths and relative Markdown links.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);

const SCANNED = /\.(md|js|mjs|cjs|ts|mts|cts|h|cpp|sh|json|html|css)$/;
// Written by the build (scripts/build.sh), not tracked.
const GENERATED = new Set(['dist/handoff-graph.mjs', 'dist/handoff-graph.wasm', 'dist/handoff-graph.d.mts', 'dist/handoff-graph-router.mjs', 'dist/handoff-graph-router.d.mts', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/stores/file.d.ts']);
const TOP = ['src', 'js', 'wasm', 'docs', 'tests', 'scripts', 'bench', 'web-demo', 'examples', 'schema', 'fuzz', 'dist'];
const PATH = new RegExp(`(?<![\\w./-])((?:${TOP.join('|')})/[\\w.@/-]*\\.(?:js|mjs|cjs|ts|mts|cts|h|cpp|md|json|sh|inc|html|css|wasm))(?![\\w/])`, 'g');
const LINK = /\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g;

// What a file says to readers: all of a Markdown file; the comments of code (a path in a code
// string is an address, such as a URL a test server intercepts, not a citation). Line numbers stay.
function citing(file, text) {
  if (file.endsWith('.md')) return text;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(\*|\/\*|#)/.test(line)) return line;
      const comment = line.indexOf('// ');
      return comment < 0 ? '' : line.slice(comment);
    })
    .join('\n');
}

function cited(file, text) {
  const found = [];
  for (const match of text.matchAll(PATH)) found.push({ target: match[1], line: text.slice(0, match.index).split('\n').length });
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(LINK)) {
      if (/^[a-z]+:/.test(match[1])) continue;  // a URL
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
      found.push({ target, line: text.slice(0, match.index).split('\n').length });
    }
  }
  return found;
}

test('no doc or comment cites a file that is not in the repository', () => {
  const known = new Set(tracked);
  const missing = [];
  for (const file of tracked) {
    if (!SCANNED.test(file) || file.endsWith('package-lock.json') || file.startsWith('tests/golden/') || file.startsWith('fuzz/corpus')) continue;
    const text = citing(file, readFileSync(path.join(root, file), 'utf8'));
    for (const { target, line } of cited(file, text)) {
      if (target.split('/').some((segment) => /^[A-Z]+(\.|$)/.test(segment))) continue;
      const local = path.posix.join(path.posix.dirname(file), target);
      const exists = [target, local].some((t) => known.has(t) || GENERATED.has(t) || existsSync(path.join(root, t)));
      if (!exists) missing.push(`${file}:${line} cites ${target}`);
    }
  }
  assert.deepEqual(missing, []);
});
