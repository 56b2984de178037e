// docs/architecture.md names functions by the file that holds them (`js/swarm/turn.js` `runTurn`,
// bold or not): each file has that name, so that the newcomer's trace of a turn ("A turn, file by
// file") cannot send a reader to a function that moved. That the files exist is
// tests/js/references.test.mjs's check, for every doc.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const text = readFileSync(`${repo}docs/architecture.md`, 'utf8');

test('every function docs/architecture.md names right after a js/ file is in that file', () => {
  const named = [...text.matchAll(/`(js\/[\w./-]+\.js)`\**\s+`([A-Za-z_$#][\w$#.]*)`/g)];
  assert.ok(named.length > 20, `docs/architecture.md names ${named.length} functions by file`);
  const absent = named.filter(([, path, name]) => {
    // `Swarm.runTurn`: the method's name.
    const last = name.split('.').at(-1).replace(/[$#]/g, '\\$&');
    return !new RegExp(`(?<![\\w$])${last}(?![\\w$])`).test(readFileSync(`${repo}${path}`, 'utf8'));
  }).map(([, path, name]) => `${path} ${name}`);
  assert.deepEqual(absent, []);
});
