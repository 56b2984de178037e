// One test body for the documents that run (issue 13: "docs that run"): runs a document's
// snippets as one script with tests/js/doc-snippets.js, compares every output block with what its
// snippet printed, and fails when fewer outputs were compared than the document is known to show,
// so that a lost marker cannot make the test pass without checking anything. UPDATE_DOCS=1
// rewrites the document's output blocks from the run instead (review the diff).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { differences, extractSnippets, rewriteOutputs, runSnippets } from './doc-snippets.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs the document at `name` (a path from the repository's root) in the node:test context `t`; `minOutputs` is the least number of outputs it
 * must compare. Resolves to everything the script printed (empty under UPDATE_DOCS=1), for tests
 * that also check the document's tables against it.
 */
export async function checkDocument(t, name, { minOutputs, env = {}, timeoutMs = 60_000 }) {
  const doc = new URL(`../../${name}`, import.meta.url);
  const markdown = readFileSync(doc, 'utf8');
  const snippets = extractSnippets(markdown);
  const results = await runSnippets(snippets, { cwd: ROOT, env, timeoutMs });
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(doc, rewriteOutputs(markdown, results));
    t.diagnostic(`UPDATE_DOCS=1: ${name} rewritten`);
    return '';
  }
  const problems = differences(results);
  assert.deepEqual(problems.map((p) => `${name} line ${p.line}: ${p.message}`), []);
  const shown = snippets.filter((s) => s.output !== undefined).length;
  t.diagnostic(`${results.length} snippets run (${snippets.length - results.length} marked skip), ${shown} outputs compared`);
  assert.ok(shown >= minOutputs, `only ${shown} outputs compared in ${name}`);
  return results.map((r) => r.printed).join('');
}

/** The rows of the Markdown table whose header line starts with `header`, as arrays of cells. */
export function tableRows(markdown, header) {
  const from = markdown.indexOf(header);
  assert.ok(from !== -1, `a table headed ${header}`);
  const lines = markdown.slice(from).split('\n').slice(2);
  const end = lines.findIndex((l) => !l.startsWith('|'));
  return lines.slice(0, end === -1 ? lines.length : end).map((row) => row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
}
