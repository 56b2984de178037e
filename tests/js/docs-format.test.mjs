// docs/format.md runs: its snippets are one script and every output it shows is what that script
// prints (tests/js/docs-run.js). Its definitions and exports are golden files, which
// tests/js/export.test.mjs compares with the page.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/format.md: every snippet runs and prints exactly the output shown', { timeout: 120_000 }, async (t) => {
  await checkDocument(t, 'docs/format.md', { minOutputs: 7 });
});
