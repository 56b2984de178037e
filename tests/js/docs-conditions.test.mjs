// docs/conditions.md runs: its snippets are one script and every output it shows is what that
// script prints (tests/js/docs-run.js). The table of parse errors is checked too: each example
// fails with the problem and at the index the table gives.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { init, compileCondition, ConditionSyntaxError } from 'handoff-graph';
import { checkDocument, tableRows } from './docs-run.js';

test('docs/conditions.md: every snippet runs and prints exactly the output shown', { timeout: 120_000 }, async (t) => {
  await checkDocument(t, 'docs/conditions.md', { minOutputs: 5 });
});

// The rows of "Every problem the parser reports": `| `problem` | examples | indexes | points at |`.
// Examples that are descriptions rather than conditions are built here, by the problem's name.
const BUILT = {
  'empty condition': ['', '   '],
  'condition too long': ['x'.repeat(1_048_577)],
  'nested too deeply': [`${'('.repeat(129)}x`],
  'path too long': [`a${'.a'.repeat(256)}`],
  'list too long': [`x in [${'0,'.repeat(65_537)}]`],
};
// Where the table leaves the index blank, it names the place in words; these are those places.
const BLANK_INDEX = { 'path too long': [511], 'list too long': [131_078] };

test('docs/conditions.md: every row of the parse error table is what compileCondition reports', async () => {
  await init();
  const markdown = readFileSync(new URL('../../docs/conditions.md', import.meta.url), 'utf8');
  const rows = tableRows(markdown, '| problem (start of the message) |');
  let checked = 0;
  for (const [problem, examples, indexes] of rows) {
    const row = `| ${problem} | ${examples} | ${indexes} |`;
    // `expected a value, found 'T'` / `found end of condition`: each quoted part, with T any token.
    // A later part that only gives another ending (`found end of condition`) ends the first one.
    const starts = [...problem.matchAll(/`([^`]+)`/g)].map(([, p]) => p);
    for (let k = 1; k < starts.length; k++) {
      const at = starts[0].indexOf(` ${starts[k].split(' ')[0]} `);
      if (at !== -1) starts[k] = `${starts[0].slice(0, at + 1)}${starts[k]}`;
    }
    const sources = BUILT[starts[0]] ?? [...examples.matchAll(/`([^`]+)`/g)].map(([, e]) => e);
    // One index for several examples is the index of each.
    const given = indexes === '' ? BLANK_INDEX[starts[0]] : indexes.split(',').map(Number);
    const wanted = given.length === 1 ? sources.map(() => given[0]) : given;
    assert.equal(sources.length, wanted.length, `${row}: as many indexes as examples`);
    const pattern = new RegExp(`^(${starts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'[TX]'/g, "'.+'").replace(/…/g, '.*')).join('|')})`);
    sources.forEach((source, k) => {
      assert.throws(() => compileCondition(source), (e) => {
        assert.ok(e instanceof ConditionSyntaxError, `${source.slice(0, 40)}: ${e}`);
        assert.match(e.reason, pattern, `${row}: ${source.slice(0, 40)}`);
        assert.equal(e.index, wanted[k], `${row}: the index of ${source.slice(0, 40)}`);
        assert.ok(e.reason.endsWith(` at column ${e.index + 1}`), e.reason);
        return true;
      });
      checked++;
    });
  }
  assert.ok(rows.length >= 20 && checked >= 30, `${rows.length} rows, ${checked} examples checked`);
});
