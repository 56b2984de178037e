// The provider examples (examples/openai-swarm.mjs, examples/anthropic-swarm.mjs) run as users run
// them, with the real `openai` and `@anthropic-ai/sdk` clients, whose usual environment variables
// point at the local wire-format server (tests/providers/server.mjs): a rule hands the refund to
// billing without a model call, billing streams its answer, then, asked for a person, calls the
// transfer to the human operator that the core offers it while the amount is over 100.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { readRequest } from '../providers/scenario.mjs';
import { startProviderServer } from '../providers/server.mjs';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));

// Billing answers the refund, then (asked for a person) transfers; the operator answers.
function reply(record) {
  const request = readRequest(record);
  if (request.system.includes('Play Sam')) return { text: ['Sam here, ', 'I can approve that.'] };
  if (request.turns.at(-1).includes('a person')) {
    return { toolCalls: [{ id: `call_${record.index}`, name: 'transfer_to_human', arguments: {} }] };
  }
  return { text: ['Refunds over 100 ', 'need a person.'] };
}

let server;
before(async () => {
  server = await startProviderServer(reply);
});
after(() => server.close());

const expected = [
  'you> I want a refund of 250 for invoice 7',
  '  [triage → billing: rule]',
  'Billing> Refunds over 100 need a person.',
  'you> Put me through to a person please',
  '  [billing → human: tool]',
  'Human operator> Sam here, I can approve that.',
  'session: active human, 2 hops, variables {"category":"billing","amount":250}',
];

for (const [example, api, path] of [
  ['openai-swarm.mjs', 'chat', '/v1/chat/completions'],
  ['openai-swarm.mjs', 'responses', '/v1/responses'],
  ['anthropic-swarm.mjs', undefined, '/v1/messages'],
]) {
  test(`examples/${example}${api ? ` (OPENAI_API=${api})` : ''} chats through the real SDK`, { timeout: 60_000 }, async () => {
    const first = server.requests.length;
    const env = {
      PATH: process.env.PATH,
      OPENAI_API_KEY: 'test-openai-key',
      OPENAI_BASE_URL: server.openaiURL,
      OPENAI_API: api ?? '',
      ANTHROPIC_API_KEY: 'test-anthropic-key',
      ANTHROPIC_BASE_URL: server.url,
    };
    const inputs = ['I want a refund of 250 for invoice 7', 'Put me through to a person please'];
    const { stdout, stderr } = await run(process.execPath, [`examples/${example}`, ...inputs], { env, cwd: repo, timeout: 50_000 });
    assert.equal(stderr, '');
    assert.deepEqual(stdout.trimEnd().split('\n'), expected);
    const requests = server.requests.slice(first);
    assert.deepEqual(requests.map((r) => r.path), [path, path, path]);
    assert.ok(requests.every((r) => r.body.stream === true), 'every answer streamed');
    // The human edge is offered while amount > 100 holds; the core decided that, not the example.
    assert.deepEqual(readRequest(requests[0]).tools.sort(), ['transfer_to_human', 'transfer_to_triage']);
  });
}
