// README.md's adapter snippets, run as users write them: each SDK snippet after the shared setup,
// in a file of its own inside the package (so 'handoff-graph' resolves to it), with the SDKs'
// usual environment variables (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL) pointing at the local wire-format server. What each prints must be the output
// the README shows (for the snippets that say "same output", the one before). Also: each SDK's
// snippet is at most 15 lines.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { supportReply } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const readme = await readFile(path.join(repo, 'README.md'), 'utf8');

// <!-- adapters: NAME --> then a ```js skip block (skipped by the generic document runner,
// tests/js/docs-readme.test.mjs: it needs this file's local server), then optionally a plain ```
// block (its output).
const snippets = [...readme.matchAll(/<!-- adapters: ([\w-]+) -->\n```js skip\n([\s\S]*?)```\n(?:```\n([\s\S]*?)```\n)?/g)].map(([, name, code, output]) => ({ name, code, output }));

let server;
let dir;
before(async () => {
  server = await startProviderServer(supportReply);
  dir = await mkdtemp(path.join(repo, 'tests', 'js', 'adapters', 'readme-'));
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('the README has the setup and one snippet per SDK, each at most 15 lines', () => {
  assert.deepEqual(snippets.map((s) => s.name), ['setup', 'openai', 'anthropic', 'ai-sdk', 'openai-agents', 'create-model']);
  for (const s of snippets.slice(1)) assert.ok(s.code.trimEnd().split('\n').length <= 15, `${s.name}: ${s.code.split('\n').length} lines`);
});

const setup = snippets.find((s) => s.name === 'setup');
let shown;
for (const snippet of snippets.filter((s) => s.name !== 'setup')) {
  test(`README: ${snippet.name}`, { timeout: 60_000 }, async () => {
    shown = snippet.output ?? shown;
    const file = path.join(dir, `${snippet.name}.mjs`);
    await writeFile(file, `${setup.code}\n${snippet.code}`);
    const env = {
      PATH: process.env.PATH,
      OPENAI_API_KEY: 'test-openai-key',
      OPENAI_BASE_URL: server.openaiURL,
      ANTHROPIC_API_KEY: 'test-anthropic-key',
      ANTHROPIC_BASE_URL: server.url,
      // No network here: the Agents SDK would otherwise export traces to OpenAI.
      OPENAI_AGENTS_DISABLE_TRACING: '1',
    };
    const first = server.requests.length;
    const { stdout, stderr } = await run(process.execPath, [file], { env, cwd: dir, timeout: 50_000 });
    assert.equal(stderr, '');
    assert.equal(stdout.trimEnd(), shown.trimEnd());
    const requests = server.requests.slice(first);
    assert.equal(requests.length, 2, 'triage, then billing');
    const keys = requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization?.replace(/^Bearer /, ''));
    assert.ok(keys.every((k) => k === 'test-openai-key' || k === 'test-anthropic-key'), `the keys from the environment: ${keys}`);
  });
}
