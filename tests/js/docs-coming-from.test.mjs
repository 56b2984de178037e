// The "coming from …" pages of the seed systems run (issue 17): each page's snippets are one script
// and every output it shows is what that script prints (tests/js/docs-run.js). AgentEnsemble's
// page runs in tests/js/docs-coming-from-agentensemble.test.mjs.
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

const PAGES = [
  ['docs/coming-from-swarmstate.md', 6],
  ['docs/coming-from-mcp-agent-graph.md', 6],
  ['docs/coming-from-swarmforge.md', 7],
  ['docs/coming-from-llm4s.md', 4],
];

for (const [page, minOutputs] of PAGES) {
  test(`${page}: every snippet runs and prints exactly the output shown`, { timeout: 120_000 }, async (t) => {
    await checkDocument(t, page, { minOutputs });
  });
}
