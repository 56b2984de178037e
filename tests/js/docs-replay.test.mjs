// docs/replay.md runs: its snippets are one script, and every output it shows is what that script
// prints (tests/js/docs-run.js).
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/replay.md: every snippet runs and prints exactly the output shown', { timeout: 60_000 }, async (t) => {
  await checkDocument(t, 'docs/replay.md', { minOutputs: 6 });
});
