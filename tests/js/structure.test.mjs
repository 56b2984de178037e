// One job per file (docs/architecture.md "A turn, file by file", "A machine run, file by file"):
// no file of the package's JavaScript grows past 600 lines; one that would is split by what it does.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const js = new URL('../../js/', import.meta.url);
const MAX_LINES = 600;

test(`every file of js/ has at most ${MAX_LINES} lines`, () => {
  const long = readdirSync(js, { recursive: true })
    .filter((file) => /\.(js|cjs|mjs)$/.test(file))
    .map((file) => [file.split('\\').join('/'), readFileSync(new URL(file, js), 'utf8').split('\n').length - 1])
    .filter(([, lines]) => lines > MAX_LINES);
  assert.deepEqual(long, [], 'split these by responsibility');
});
