// docs/state-machine.md runs: its snippets are one script and every output it shows is what that
// script prints (tests/js/docs-run.js). The two tables of validation messages are checked against
// that output: every message they quote is one the script printed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { checkDocument, tableRows } from './docs-run.js';

test('docs/state-machine.md: every snippet runs and prints exactly the output shown; the validation tables quote real messages', { timeout: 120_000 }, async (t) => {
  const printed = await checkDocument(t, 'docs/state-machine.md', { minOutputs: 20 });
  if (process.env.UPDATE_DOCS === '1') return;
  const markdown = readFileSync(new URL('../../docs/state-machine.md', import.meta.url), 'utf8');
  const rows = [...tableRows(markdown, '| code | refused by | message |'), ...tableRows(markdown, '| code | problem | message |')];
  let quoted = 0;
  for (const [code, , message] of rows) {
    // `edge 2 (…) has a blank 'from'` / `... has a blank 'to'`: each quoted part; `...` stands for the start of the first.
    for (const [, part] of message.matchAll(/`([^`]+)`/g)) {
      const fragment = part.replace(/^\.\.\. /, '');
      assert.ok(printed.includes(fragment), `the message ${part} of ${code} is not one the document's script printed`);
      quoted++;
    }
  }
  assert.ok(rows.length >= 12 && quoted >= 13, `${rows.length} rows, ${quoted} messages checked`);
});
