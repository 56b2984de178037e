// docs/coming-from-agentensemble.md runs: its snippets are one script and every output it shows is
// what that script prints (tests/js/docs-run.js). The sections docs/state-machine.md gained with it
// run in tests/js/docs-state-machine.test.mjs, with the rest of that page.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/coming-from-agentensemble.md: every snippet runs and prints exactly the output shown', { timeout: 120_000 }, async (t) => {
  await checkDocument(t, 'docs/coming-from-agentensemble.md', { minOutputs: 9 });
});
