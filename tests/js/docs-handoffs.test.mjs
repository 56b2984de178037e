// docs/handoffs.md runs: its snippets are one script, and every output it shows is what that
// script prints (tests/js/doc-snippets.js). The Redis snippet gets a real redis-server on
// 127.0.0.1, the PostgreSQL one a real PostgreSQL server (tests/js/postgres-server.js). UPDATE_DOCS=1 rewrites the document's output blocks from the run: review the diff.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { differences, extractSnippets, rewriteOutputs, runSnippets } from './doc-snippets.js';
import { startPostgres } from './postgres-server.js';
import { startRedis } from './redis-server.js';

const DOC = new URL('../../docs/handoffs.md', import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('docs/handoffs.md: every snippet runs and prints exactly the output shown', { timeout: 120_000 }, async (t) => {
  const markdown = readFileSync(DOC, 'utf8');
  const snippets = extractSnippets(markdown);
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  t.after(() => Promise.all([redis.stop(), postgres.stop()]));
  const results = await runSnippets(snippets, { cwd: ROOT, env: { REDIS_URL: redis.url, DATABASE_URL: postgres.url } });
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(DOC, rewriteOutputs(markdown, results));
    t.diagnostic('UPDATE_DOCS=1: docs/handoffs.md rewritten');
    return;
  }
  const problems = differences(results);
  assert.deepEqual(problems.map((p) => `line ${p.line}: ${p.message}`), []);
  const shown = snippets.filter((s) => s.output !== undefined).length;
  t.diagnostic(`${results.length} snippets run (${snippets.length - results.length} marked skip), ${shown} outputs compared`);
  assert.ok(shown >= 20, `only ${shown} outputs compared`);
});

test('the extractor: markers, and a forgotten marker is an error', () => {
  const doc = ['```js', 'console.log(1)', '```', '', '```text output', '1', '```', '```', 'a diagram', '```', '```js skip', 'fetch()', '```'].join('\n');
  const snippets = extractSnippets(doc);
  assert.deepEqual(snippets.map((s) => [s.line, s.code, s.skip, s.output?.text]), [[1, 'console.log(1)', false, '1'], [11, 'fetch()', true, undefined]]);
  assert.throws(() => extractSnippets('```text output\nx\n```'), /does not follow a snippet/);
  assert.throws(() => extractSnippets('```js skip\nx()\n```\n```text output\nx\n```'), /marked skip/);
  assert.throws(() => extractSnippets('```js\nx()'), /never closed/);
  const printed = [{ snippet: snippets[0], printed: '2\n' }];
  assert.match(differences(printed)[0].message, /differs[\s\S]*shown: {3}"1"[\s\S]*printed: "2"/);
  assert.equal(rewriteOutputs(doc, printed).split('\n')[5], '2');
  assert.match(differences([{ snippet: { line: 3, code: '' }, printed: 'x\n' }])[0].message, /does not show/);
});
