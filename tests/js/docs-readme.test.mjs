// README.md runs: its snippets are one script, and every output it shows is what that script
// prints (tests/js/docs-run.js). The provider snippets are marked `js skip` here: they need a
// provider's server, and tests/js/adapters/readme.test.mjs runs them against a local one.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('README.md: every snippet runs and prints exactly the output shown', { timeout: 60_000 }, async (t) => {
  await checkDocument(t, 'README.md', { minOutputs: 4 });
});
