// docs/adapters.md runs: its snippets (a model function that streams, defineTool) are one script,
// and every output it shows is what that script prints (tests/js/docs-run.js). The snippets that
// call the real SDKs are in the README and run by tests/js/adapters/readme.test.mjs.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/adapters.md: every snippet runs and prints exactly the output shown', async (t) => {
  await checkDocument(t, 'docs/adapters.md', { minOutputs: 2 });
});
