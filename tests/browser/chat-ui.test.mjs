// examples/chat-ui in Chromium (issue 35): the page is built by Vite into a temporary folder and
// served by `vite preview` with the example's own config, which passes /chat on to a swarm served
// by handoff-graph/server (createHandler + serve, a MemoryStore, a scripted model); the page's
// client is the AI SDK's (DefaultChatTransport, readUIMessageStream of the npm package `ai`,
// bundled by Vite). Through the page's form and buttons: a turn with a handoff and an answer
// streamed in pieces, then a refund that waits for an approval, approved with the button; what the
// server stored is checked after each. The page must log no error and no request may fail.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { init, Swarm } from 'handoff-graph';
import { createHandler, serve } from 'handoff-graph/server';
import { MemoryStore } from 'handoff-graph/stores/memory';

import { launchBrowser, problems, using } from './harness.mjs';

const EXAMPLE = fileURLToPath(new URL('../../examples/chat-ui/', import.meta.url));

await init();

const DEFINITION = {
  name: 'shop',
  agents: [
    { id: 'triage', name: 'Triage', entry: true },
    { id: 'billing', name: 'Billing', tools: [{ name: 'refund', description: 'Refund an order', approval: true, parameters: { type: 'object', properties: { order: { type: 'string' } } } }] },
  ],
  edges: [{ from: 'triage', to: 'billing', description: 'Invoices and refunds' }],
};

async function* streamed(pieces) {
  for (const delta of pieces) yield { type: 'text-delta', delta };
}
function model({ agent, messages }) {
  const input = messages.findLast((m) => m.role === 'user').content;
  const last = messages.at(-1);
  if (agent.id === 'triage') return { toolCalls: [{ id: `c${messages.length}`, name: 'transfer_to_billing', arguments: {} }] };
  if (last.role === 'tool' && last.name === 'refund') return { text: `Done: ${last.content}.` };
  if (input.includes('refund')) return { toolCalls: [{ id: `r${messages.length}`, name: 'refund', arguments: { order: 'A-7' } }] };
  return streamed(['Billing here: ', 'you were charged once ', 'and refunded once.']);
}

test('examples/chat-ui: a handoff, a streamed answer and an approval through the page, with the AI SDK client', { timeout: 180_000 }, async (t) => {
  await using(async (use) => {
    const store = new MemoryStore();
    const swarm = new Swarm(DEFINITION, { handlers: { refund: ({ order }) => `refunded ${order}` } });
    use({ close: async () => swarm.dispose() });
    const api = use(await serve(createHandler({ swarm, store, model }), { port: 0 }));

    const { build, preview } = await import('vite');
    const outDir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-chat-ui-'));
    use({ close: () => rm(outDir, { recursive: true, force: true }) });
    process.env.HANDOFF_GRAPH_URL = api.url.replace(/\/$/, '');
    t.after(() => delete process.env.HANDOFF_GRAPH_URL);
    const configFile = path.join(EXAMPLE, 'vite.config.js');
    await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    const site = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { port: 0, strictPort: false } });
    use({ close: () => site.close() });
    const url = site.resolvedUrls.local[0];

    const browser = use(await launchBrowser());
    const page = await browser.context.newPage();
    const log = { console: [], pageErrors: [], responses: [], failedRequests: [] };
    page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
    page.on('pageerror', (e) => log.pageErrors.push(String(e?.stack ?? e)));
    page.on('response', (r) => log.responses.push({ url: r.url(), status: r.status() }));
    page.on('requestfailed', (r) => log.failedRequests.push({ url: r.url(), error: r.failure()?.errorText }));
    const chatBodies = [];
    page.on('request', (r) => new URL(r.url()).pathname === '/chat' && chatBodies.push(JSON.parse(r.postData())));
    await page.goto(url, { waitUntil: 'load' });

    // A turn: triage hands over to billing, which answers in three pieces.
    await page.getByTestId('input').fill('I was charged twice');
    await page.getByTestId('send').click();
    const answer = page.getByTestId('assistant').first();
    await answer.getByTestId('text').filter({ hasText: 'and refunded once.' }).waitFor();
    assert.equal(await answer.getByTestId('text').textContent(), 'Billing here: you were charged once and refunded once.');
    assert.equal(await answer.getByTestId('agent').textContent(), 'Billing is answering');
    assert.equal(await answer.getByTestId('handoff').textContent(), 'handed over from triage to billing');
    assert.equal(await answer.getByTestId('tool').textContent(), 'transfer_to_billing({}) → Transferred to Billing.');

    // The session the page's chat made, in the server's store.
    const chatRequests = log.responses.filter((r) => new URL(r.url).pathname === '/chat');
    assert.deepEqual(chatRequests.map((r) => r.status), [200]);
    const sessionId = chatBodies[0].id;
    assert.match(sessionId, /^[0-9a-f]{32}$/);
    assert.deepEqual(chatBodies[0].messages.map((m) => m.role), ['user']);
    assert.deepEqual([(await store.get(sessionId)).active, (await store.get(sessionId)).version], ['billing', 1]);

    // A refund waits for a person: the page shows Approve / Reject; Approve resumes the turn.
    await page.getByTestId('input').fill('Please refund A-7');
    await page.getByTestId('send').click();
    const second = page.getByTestId('assistant').nth(1);
    await second.getByTestId('approve').waitFor();
    assert.match(await second.getByTestId('approval').textContent(), /^refund\({"order":"A-7"}\) needs your approval: /);
    assert.equal((await store.get(sessionId)).version, 2);
    await second.getByTestId('approve').click();
    await second.getByTestId('text').filter({ hasText: 'Done: refunded A-7.' }).waitFor();
    assert.deepEqual(await second.getByTestId('tool').allTextContents(), ['refund({"order":"A-7"}) → refunded A-7']);
    assert.equal(await page.getByTestId('assistant').count(), 2, 'the decision resumed the same assistant message');
    assert.deepEqual(chatBodies.map((b) => [b.id, b.messages.at(-1).role]), [[sessionId, 'user'], [sessionId, 'user'], [sessionId, 'assistant']]);
    const stored = await store.get(sessionId);
    assert.equal(stored.version, 3);
    assert.deepEqual(Object.values(stored.approvals).map((a) => a.status), ['approved']);
    assert.equal(await page.getByTestId('error').textContent(), '');
    assert.deepEqual(problems(log), []);
    await page.close();
  });
});
