// The AgentEnsemble docs run (house rule "docs run"): every snippet of
// docs/coming-from-agentensemble.md, and the snippets of the sections docs/state-machine.md gained
// with it (from "Every visit's output" up to "Resources", after a prelude that imports what the
// page's first snippet imports), are executed and what they print is compared with the output
// blocks shown (tests/js/doc-snippets.js). UPDATE_DOCS=1 rewrites the output blocks instead.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { differences, extractSnippets, rewriteOutputs, runSnippets } from './doc-snippets.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UPDATE = process.env.UPDATE_DOCS === '1';

async function check(file, select = (snippets) => snippets) {
  const path = `${ROOT}${file}`;
  const markdown = readFileSync(path, 'utf8');
  const snippets = select(extractSnippets(markdown), markdown);
  const results = (await runSnippets(snippets, { cwd: ROOT })).filter((r) => r.snippet.line > 0);
  if (UPDATE) {
    writeFileSync(path, rewriteOutputs(markdown, results));
    return;
  }
  const problems = differences(results);
  assert.deepEqual(problems.map((p) => `${file}:${p.line}: ${p.message}`), []);
  return results.length;
}

test('docs/coming-from-agentensemble.md: every snippet runs and prints what the page shows', { timeout: 60_000 }, async (t) => {
  const ran = await check('docs/coming-from-agentensemble.md');
  if (!UPDATE) {
    assert.ok(ran >= 9, `only ${ran} snippets ran`);
    t.diagnostic(`${ran} snippets`);
  }
});

test("docs/state-machine.md: the snippets of the AgentEnsemble rows' sections run and print what they show", { timeout: 60_000 }, async () => {
  await check('docs/state-machine.md', (snippets, markdown) => {
    const lines = markdown.split('\n');
    const from = lines.indexOf("## Every visit's output") + 1;
    const to = lines.indexOf('## Resources') + 1;
    assert.ok(from > 0 && to > from, 'the sections are where this test looks');
    const mine = snippets.filter((s) => s.line > from && s.line < to);
    assert.ok(mine.filter((s) => !s.skip).length >= 5);
    const prelude = { code: "import { init, StateMachine, END } from 'handoff-graph';\nawait init();", line: 0, skip: false };
    return [prelude, ...mine];
  });
});
