// docs/limits.md runs: its snippets are one script that tests each limit at its value and one past
// it, and every output it shows is what that script prints (tests/js/docs-run.js). The script runs
// a million-step machine and evaluations at the state-cell and compare-work budgets: a few seconds.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/limits.md: every snippet runs and prints exactly the output shown', { timeout: 180_000 }, async (t) => {
  await checkDocument(t, 'docs/limits.md', { minOutputs: 13, timeoutMs: 150_000 });
});
