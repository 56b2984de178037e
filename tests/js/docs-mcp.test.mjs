// docs/mcp.md runs: its snippets are one script (a real MCP server spawned over stdio, the
// package's command, Streamable HTTP on 127.0.0.1), and every output it shows is what that script
// prints (tests/js/docs-run.js).
import { test } from 'node:test';

import { checkDocument } from './docs-run.js';

test('docs/mcp.md: every snippet runs and prints exactly the output shown', { timeout: 60_000 }, async (t) => {
  await checkDocument(t, 'docs/mcp.md', { minOutputs: 4 });
});
