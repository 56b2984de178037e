// POST /chat and createChatHandler (issue 35): a swarm served to the AI SDK's chat clients, tested
// with the real `ai` package on the client side over real HTTP: `Chat` of @ai-sdk/react (the class
// `useChat` is built on, used here without React) with the `ai` package's DefaultChatTransport,
// and `readUIMessageStream` reading the transport's chunks. A two-agent turn with a handoff and
// streamed text; a blocked transfer; an approval approved and one rejected, through
// addToolApprovalResponse; an aborted request leaving the session as it was; the chat id as the
// session id (made by the first turn that saves, in the server's store, here a real PostgreSQL
// too); and the client's mistakes, each a 4xx with { error: { code, message } }.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Chat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, readUIMessageStream } from 'ai';
import { init, Swarm } from 'handoff-graph';
import { createChatHandler, createHandler, serve } from 'handoff-graph/server';
import { MemoryStore } from 'handoff-graph/stores/memory';
import { PostgresStore } from 'handoff-graph/stores/postgres';
import pg from 'pg';

import { startPostgres } from '../postgres-server.js';
import { request, sleep } from './harness.js';

await init();

const DEFINITION = {
  name: 'shop',
  agents: [
    { id: 'triage', name: 'Triage', entry: true, instructions: 'Route the customer.' },
    {
      id: 'billing',
      name: 'Billing',
      instructions: 'Handle invoices and refunds.',
      tools: [{ name: 'refund', description: 'Refund an order', approval: true, parameters: { type: 'object', properties: { order: { type: 'string' } } } }],
    },
    { id: 'human', name: 'Human operator' },
  ],
  edges: [
    { from: 'triage', to: 'billing', description: 'Invoices, payments and refunds' },
    { from: 'triage', to: 'human', description: 'A person', requires: [{ name: 'ticketId', from: 'model', type: 'string', description: 'the ticket number' }] },
    { from: 'billing', to: 'triage', description: 'Not about billing' },
    { from: 'human', to: 'triage', description: 'Back to the assistant' },
  ],
};
const handlers = { refund: ({ order }) => `refunded ${order}` };

// The scripted model: the user's input steers it.
//   '… person …'  triage transfers to human without the ticket id (blocked), then with it
//   '… refund …'  triage transfers to billing, billing calls refund (which waits for an approval)
//   'hang …'      triage transfers to billing, billing never answers (until the turn is aborted)
//   anything else triage transfers to billing, billing answers in three streamed pieces
async function* streamed(pieces) {
  for (const delta of pieces) yield { type: 'text-delta', delta };
  yield { type: 'finish', finishReason: 'stop' };
}
function model({ agent, messages, signal }) {
  const input = messages.findLast((m) => m.role === 'user').content;
  const last = messages.at(-1);
  if (agent.id === 'triage') {
    if (last.role === 'tool' && last.name === 'transfer_to_human') return { toolCalls: [{ id: `c${messages.length}`, name: 'transfer_to_human', arguments: { ticketId: 'T-7' } }] };
    if (input.includes('person')) return { text: 'Let me find someone.', toolCalls: [{ id: `c${messages.length}`, name: 'transfer_to_human', arguments: {} }] };
    return { toolCalls: [{ id: `c${messages.length}`, name: 'transfer_to_billing', arguments: {} }] };
  }
  if (agent.id === 'human') return streamed(['Sam here, ', 'ticket T-7.']);
  if (last.role === 'tool' && last.name === 'refund') return { text: `Done: ${last.content}.` };
  if (input.startsWith('hang')) return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  if (input.includes('refund')) return { toolCalls: [{ id: `r${messages.length}`, name: 'refund', arguments: '{"order":"A-7"}' }] };
  return streamed(['Billing here: ', 'I have refunded ', 'the second charge.']);
}

async function server(t, { store = new MemoryStore(), authorize } = {}) {
  const swarm = new Swarm(DEFINITION, { handlers });
  const errors = [];
  const running = await serve(createHandler({ swarm, store, model, authorize, onError: (e) => errors.push(e) }), { port: 0 });
  t.after(async () => {
    running.server.closeAllConnections();
    await running.close();
    swarm.dispose();
  });
  return { url: running.url, api: new URL('chat', running.url).href, store, errors };
}

const transport = (api) => new DefaultChatTransport({ api });
const chatOf = (api, options = {}) => new Chat({ transport: transport(api), ...options });
// A UI message's parts in short: text parts' text, tool parts' state, data parts' data.
function parts(message) {
  return message.parts.flatMap((part) => {
    if (part.type === 'text') return [['text', part.text]];
    if (part.type.startsWith('tool-')) return [[part.type, part.state, part.output ?? part.approval?.approved ?? null]];
    if (part.type.startsWith('data-')) return [[part.type, part.type === 'data-agent' ? part.data.agent : `${part.data.from}→${part.data.to}`]];
    return [];
  });
}

describe('POST /chat with the AI SDK client (Chat of useChat, DefaultChatTransport, readUIMessageStream)', () => {
  test('a two-agent turn: the handoff as a tool part and a data part, the answer streamed as text; the chat id is the session id', async (t) => {
    const { api, url, store } = await server(t);
    const chat = chatOf(api);
    await chat.sendMessage({ text: 'I was charged twice' });
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.equal(chat.messages.length, 2);
    const [user, answer] = chat.messages;
    assert.equal(user.role, 'user');
    assert.equal(answer.role, 'assistant');
    assert.deepEqual(parts(answer), [
      ['data-agent', 'billing'],
      ['tool-transfer_to_billing', 'output-available', 'Transferred to Billing.'],
      ['data-handoff', 'triage→billing'],
      ['text', 'Billing here: I have refunded the second charge.'],
    ]);
    // The answering agent is one part, updated in place (id 'agent'); the finish metadata says where the session stands.
    assert.deepEqual(answer.parts.find((p) => p.type === 'data-agent').data, { agent: 'billing', name: 'Billing', reason: 'answered' });
    assert.deepEqual(answer.metadata, { agent: 'billing', reason: 'answered', session: { id: chat.id, version: 1, active: 'billing', turn: 1, hops: 1 } });
    // The session, under the chat's id, in the server's store: made by this first turn.
    const session = (await request(url, 'GET', `sessions/${chat.id}`)).body;
    assert.deepEqual([session.id, session.version, session.active, session.turn], [chat.id, 1, 'billing', 1]);
    assert.deepEqual((await store.listCheckpoints(chat.id)).map((c) => [c.turn, c.outcome.type, c.outcome.to]), [[1, 'handoff', 'billing']]);
    // A second message goes on in the same session: the server keeps the conversation.
    await chat.sendMessage({ text: 'Thanks!' });
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.deepEqual(parts(chat.messages[3]), [['data-agent', 'billing'], ['text', 'Billing here: I have refunded the second charge.']]);
    const again = await store.get(chat.id);
    assert.deepEqual([again.version, again.turn], [2, 2]);
    assert.deepEqual(again.histories.billing.filter((m) => m.role === 'user').map((m) => m.content), ['I was charged twice', 'Thanks!']);
  });

  test("useChat's resume (GET /chat/:id/stream) is answered 204, no stream to resume: a turn ends with its request", async (t) => {
    const seen = [];
    const { api, url } = await server(t, { authorize: (_request, id) => (seen.push(id), id !== 'forbidden-chat') });
    const chat = chatOf(api);
    await chat.sendMessage({ text: 'I was charged twice' });
    // A page reloaded with `resume: true` asks for the chat's running stream: there is none.
    const reloaded = chatOf(api, { id: chat.id, messages: chat.messages });
    await reloaded.resumeStream();
    assert.equal(reloaded.status, 'ready', String(reloaded.error));
    assert.equal(reloaded.messages.length, 2);
    assert.ok(seen.includes(chat.id), 'authorize gets the chat id');
    const forbidden = await fetch(new URL('chat/forbidden-chat/stream', url));
    assert.equal(forbidden.status, 403);
    assert.equal((await fetch(new URL('chat/no%20such/stream', url))).status, 404);
    assert.equal((await fetch(new URL('chat/a/stream', url), { method: 'POST' })).status, 405);
  });

  test('a blocked transfer: its tool part answers with the reason, a data-handoff-blocked part says what was missing', async (t) => {
    const { api } = await server(t);
    const chat = chatOf(api);
    await chat.sendMessage({ text: 'Can I talk to a person?' });
    assert.equal(chat.status, 'ready', String(chat.error));
    const answer = chat.messages[1];
    const blocked = answer.parts.find((p) => p.type === 'data-handoff-blocked');
    assert.deepEqual([blocked.data.from, blocked.data.to, blocked.data.missing], ['triage', 'human', ['ticketId']]);
    const calls = answer.parts.filter((p) => p.type === 'tool-transfer_to_human');
    assert.equal(calls.length, 2);
    assert.match(calls[0].output, /^Cannot transfer to Human operator yet: missing ticketId/);
    assert.deepEqual(calls[1].input, { ticketId: 'T-7' });
    assert.equal(calls[1].output, 'Transferred to Human operator.');
    assert.deepEqual(answer.parts.filter((p) => p.type === 'text').map((p) => p.text), ['Let me find someone.', 'Sam here, ticket T-7.']);
    assert.equal(answer.metadata.agent, 'human');
  });

  test('an approval round trip: the tool part waits in approval-requested; addToolApprovalResponse resumes the turn (approved, then rejected)', async (t) => {
    const { api, store } = await server(t);
    const chat = chatOf(api, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await chat.sendMessage({ text: 'Please refund A-7' });
    assert.equal(chat.status, 'ready', String(chat.error));
    let answer = chat.messages[1];
    const waiting = answer.parts.find((p) => p.type === 'tool-refund');
    assert.equal(waiting.state, 'approval-requested');
    assert.deepEqual(waiting.input, { order: 'A-7' });
    assert.deepEqual(answer.metadata.reason, 'approval-required');
    const session = await store.get(chat.id);
    assert.equal(session.approvals[waiting.approval.id].status, 'pending', 'the approval id is the session\'s');
    // A new message while the approval waits: 409, and the chat shows the error.
    const early = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: chat.id, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'hello?' }] }] }) });
    assert.equal(early.status, 409);
    assert.equal((await early.json()).error.code, 'approval_pending');
    // Approved: the client sends the messages again by itself; the same assistant message goes on.
    await chat.addToolApprovalResponse({ id: waiting.approval.id, approved: true });
    for (let i = 0; i < 500 && (chat.status !== 'ready' || chat.messages[1].parts.find((p) => p.type === 'tool-refund').state !== 'output-available'); i++) await sleep(10);
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.equal(chat.messages.length, 2, 'one assistant message for the whole turn');
    answer = chat.messages[1];
    assert.deepEqual(parts(answer).filter(([type]) => type !== 'data-agent'), [
      ['tool-transfer_to_billing', 'output-available', 'Transferred to Billing.'],
      ['data-handoff', 'triage→billing'],
      ['tool-refund', 'output-available', 'refunded A-7'],
      ['text', 'Done: refunded A-7.'],
    ]);
    assert.equal(answer.metadata.session.version, 2);
    assert.equal((await store.get(chat.id)).approvals[waiting.approval.id].status, 'approved');

    // Rejected, with a reason: the call is denied and the model hears why.
    await chat.sendMessage({ text: 'And refund A-7 again' });
    const second = chat.messages[3].parts.find((p) => p.type === 'tool-refund');
    assert.equal(second.state, 'approval-requested');
    await chat.addToolApprovalResponse({ id: second.approval.id, approved: false, reason: 'already refunded' });
    for (let i = 0; i < 500 && (chat.status !== 'ready' || chat.messages[3].parts.find((p) => p.type === 'tool-refund').state !== 'output-denied'); i++) await sleep(10);
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.equal(chat.messages[3].parts.find((p) => p.type === 'tool-refund').state, 'output-denied');
    const stored = await store.get(chat.id);
    assert.deepEqual([stored.approvals[second.approval.id].status, stored.approvals[second.approval.id].reason], ['rejected', 'already refunded']);
    assert.equal(stored.histories.billing.findLast((m) => m.role === 'tool').content, 'Not approved: already refunded');
    // The same decision sent again: 409 approval_resolved.
    const messages = structuredClone(chat.messages.slice(0, 4));
    const part = messages[3].parts.find((p) => p.type === 'tool-refund');
    Object.assign(part, { state: 'approval-responded', approval: { id: second.approval.id, approved: true } });
    const replay = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: chat.id, messages, trigger: 'submit-message', messageId: messages[3].id }) });
    assert.deepEqual([replay.status, (await replay.json()).error.code], [409, 'approval_resolved']);
  });

  test('an aborted request (chat.stop()) leaves the session as it was; the next message runs', async (t) => {
    const { api, store, url } = await server(t);
    const chat = chatOf(api);
    await chat.sendMessage({ text: 'I was charged twice' });
    const before = await store.get(chat.id);
    const logBefore = await store.listCheckpoints(chat.id);
    const sending = chat.sendMessage({ text: 'hang on' });
    // The hanging turn started (billing is active, and its model never answers): stop there.
    while (!chat.messages[3]?.parts.some((p) => p.type === 'data-agent')) await sleep(5);
    await chat.stop();
    await sending;
    assert.notEqual(chat.status, 'error', String(chat.error));
    // The server saw the client leave: nothing saved, the lease given back.
    let free = false;
    for (let i = 0; i < 500 && !free; i++) {
      free = await store.acquireLease(chat.id, 'probe', 1000);
      if (!free) await sleep(10);
    }
    assert.ok(free, 'the aborted turn gave its lease back');
    await store.releaseLease(chat.id, 'probe');
    assert.deepEqual(await store.get(chat.id), before);
    assert.deepEqual(await store.listCheckpoints(chat.id), logBefore);
    await chat.sendMessage({ text: 'Thanks!' });
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.equal((await request(url, 'GET', `sessions/${chat.id}`)).body.version, before.version + 1);
  });

  test('readUIMessageStream over the transport\'s chunks: the message as it grows, and a new chat aborted at once leaves no session', async (t) => {
    const { api, store } = await server(t);
    const messages = [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'I was charged twice' }] }];
    const stream = await transport(api).sendMessages({ chatId: 'fresh-chat', messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
    const snapshots = [];
    for await (const message of readUIMessageStream({ stream })) snapshots.push(parts(message));
    assert.ok(snapshots.length > 4, `${snapshots.length} snapshots`);
    assert.deepEqual(snapshots.at(-1), [
      ['data-agent', 'billing'],
      ['tool-transfer_to_billing', 'output-available', 'Transferred to Billing.'],
      ['data-handoff', 'triage→billing'],
      ['text', 'Billing here: I have refunded the second charge.'],
    ]);
    // The text grew piece by piece.
    const texts = snapshots.map((s) => s.find(([type]) => type === 'text')?.[1]).filter(Boolean);
    assert.deepEqual([...new Set(texts)], ['Billing here: ', 'Billing here: I have refunded ', 'Billing here: I have refunded the second charge.']);
    // A new chat whose first request is aborted: no session is made.
    const leaving = new AbortController();
    const hanging = await transport(api).sendMessages({ chatId: 'left-chat', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hang on' }] }], trigger: 'submit-message', messageId: undefined, abortSignal: leaving.signal });
    const reader = readUIMessageStream({ stream: hanging })[Symbol.asyncIterator]();
    for (;;) {
      const { value } = await reader.next();
      if (value.parts.some((p) => p.type === 'data-handoff')) break;
    }
    leaving.abort();
    await reader.return?.();
    let free = false;
    for (let i = 0; i < 500 && !free; i++) {
      free = await store.acquireLease('left-chat', 'probe', 1000);
      if (!free) await sleep(10);
    }
    assert.ok(free);
    assert.equal(await store.get('left-chat'), undefined);
  });

  test("the client's mistakes: 4xx with { error: { code, message } }, which the Chat shows as its error", async (t) => {
    const seen = [];
    const { api } = await server(t, { authorize: (req, id) => (seen.push(id), id !== 'forbidden-chat') });
    const post = async (body, headers = { 'content-type': 'application/json' }) => {
      const response = await fetch(api, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    };
    const user = (text) => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });
    const cases = [
      [{ id: 'a', messages: [user('hi')], extra: 1 }, 400, /POST \/chat body: unknown field 'extra'; allowed: id, messages, trigger, messageId/],
      [{ messages: [user('hi')] }, 400, /id \(the chat id, which is the session id\) is required/],
      [{ id: 'has space', messages: [user('hi')] }, 400, /id \(the chat id\) must be 1 to 128 of/],
      [{ id: 'a', messages: [] }, 400, /messages must be a non-empty array/],
      [{ id: 'a', messages: 'hi' }, 400, /messages must be a non-empty array/],
      [{ id: 'a', messages: [null] }, 400, /the last message must be a UI message/],
      [{ id: 'a', messages: [{ role: 'user', parts: [{ type: 'file', url: 'x' }] }] }, 400, /has no text/],
      [{ id: 'a', messages: [{ role: 'user', parts: [{ type: 'text', text: 7 }] }] }, 400, /text must be a string/],
      [{ id: 'a', messages: [{ role: 'system', parts: [] }] }, 400, /role must be 'user'/],
      [{ id: 'a', messages: [{ role: 'assistant', parts: [{ type: 'text', text: 'x' }] }] }, 400, /answers no tool approval/],
      [{ id: 'a', messages: [{ role: 'assistant', parts: [{ type: 'tool-refund', state: 'approval-responded', approval: { id: 'x' } }] }] }, 400, /approval: \{ id, approved, reason\? \}/],
      [{ id: 'a', messages: [user('hi')], trigger: 'regenerate-message' }, 400, /'regenerate-message' is not served/],
      [{ id: 'a', messages: [user('hi')], trigger: 7 }, 400, /trigger must be 'submit-message'/],
      [{ id: 'nobody', messages: [{ role: 'assistant', parts: [{ type: 'tool-refund', state: 'approval-responded', approval: { id: 'x', approved: true } }] }] }, 404, /no session with this id/],
      [{ id: 'forbidden-chat', messages: [user('hi')] }, 403, /not allowed/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await post(body);
      assert.equal(answer.status, status, JSON.stringify(body));
      assert.match(answer.body.error.message, message, JSON.stringify(body));
    }
    assert.equal((await post('{"id":')).body.error.code, 'invalid_json');
    assert.equal((await post({ id: 'a', messages: [user('hi')] }, { 'content-type': 'text/plain' })).status, 415);
    assert.equal((await fetch(api)).status, 405);
    assert.ok(seen.includes('forbidden-chat') && !seen.includes(null), 'authorize gets the chat id');
    // A good request: the AI SDK's headers, chunks as `data:` events, ended by [DONE].
    const good = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'plain', messages: [user('hi')] }) });
    assert.deepEqual(['content-type', 'cache-control', 'x-vercel-ai-ui-message-stream'].map((h) => good.headers.get(h)), ['text/event-stream; charset=utf-8', 'no-cache', 'v1']);
    const events = (await good.text()).split('\n\n').filter(Boolean);
    assert.ok(events.every((e) => e.startsWith('data: ')));
    assert.deepEqual([JSON.parse(events[0].slice(6)).type, JSON.parse(events.at(-2).slice(6)).type, events.at(-1)], ['start', 'finish', 'data: [DONE]']);
    // The Chat client shows the server's answer as its error.
    const chat = new Chat({ id: 'forbidden-chat', transport: transport(api) });
    await chat.sendMessage({ text: 'hi' });
    assert.equal(chat.status, 'error');
    assert.match(chat.error.message, /"code":"forbidden"/);
  });
});

describe('POST /chat: hostile input', () => {
  test('never a 500 and never a crash: each hostile body is a 4xx naming the problem, or a turn that runs', async (t) => {
    const { api, errors, store } = await server(t);
    const post = async (body) => {
      const response = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, text };
    };
    const user = (parts) => ({ id: 'u', role: 'user', parts });
    const approval = (id, extra = {}) => ({ id: 'a', role: 'assistant', parts: [{ type: 'tool-refund', toolCallId: 'r', state: 'approval-responded', approval: { id, approved: true, ...extra } }] });
    let nested = '"x"';
    for (let i = 0; i < 600; i++) nested = `[${nested}]`;
    const refused = [
      'null', '[]', '"chat"', '7', `{"id":"a","messages":${nested}}`,
      { id: '', messages: [user([{ type: 'text', text: 'hi' }])] },
      { id: 'x'.repeat(129), messages: [user([{ type: 'text', text: 'hi' }])] },
      { id: 5, messages: [user([{ type: 'text', text: 'hi' }])] },
      { id: '../etc', messages: [user([{ type: 'text', text: 'hi' }])] },
      { id: 'a', messages: [{}] },
      { id: 'a', messages: [{ role: 'user', parts: null }] },
      { id: 'a', messages: [user([])] },
      { id: 'a', messages: [user([null, 5, 'text', { type: 'text' }])] },
      { id: 'a', messages: [{ role: '__proto__', parts: [] }] },
      { id: 'a', messages: [{ role: 'assistant', parts: [{ type: 'tool-refund', state: 'approval-responded', approval: null }] }] },
      { id: 'a', messages: [approval('x', { reason: 7 })] },
      { id: '__proto__', messages: [approval('x')] },
      { id: 'a', messages: [user([{ type: 'text', text: 'hi' }])], constructor: 1 },
    ];
    for (const body of refused) {
      const { status, text } = await post(body);
      assert.ok(status >= 400 && status < 500, `${status} for ${JSON.stringify(body).slice(0, 80)}`);
      assert.ok(JSON.parse(text).error.message.length > 0);
    }
    // A session to aim approvals at: ids that are Object.prototype's keys are unknown approvals.
    assert.equal((await post({ id: 'adv', messages: [user([{ type: 'text', text: 'I was charged twice' }])] })).status, 200);
    for (const id of ['__proto__', 'constructor', 'toString', 'x'.repeat(10_000), '']) {
      const { status, text } = await post({ id: 'adv', messages: [approval(id)] });
      assert.deepEqual([status, JSON.parse(text).error.code], [404, 'approval_not_found'], id.slice(0, 20));
    }
    // Odd but valid: a lone surrogate, parts of other kinds around the text, a long text.
    for (const parts of [[{ type: 'text', text: 'lone \ud800 surrogate' }], [null, 5, { type: 'file', url: 'x' }, { type: 'text', text: 'hi' }], [{ type: 'text', text: 'y'.repeat(200_000) }]]) {
      const { status, text } = await post({ id: 'adv', messages: [user(parts)] });
      assert.equal(status, 200);
      assert.match(text, /"type":"finish"[\s\S]*data: \[DONE\]\n\n$/);
    }
    assert.equal((await store.get('adv')).turn, 4);
    assert.deepEqual(errors, [], 'no failure of the server itself');
  });
});

describe('createChatHandler(swarm, options): an application\'s own server', () => {
  let postgres;
  let pool;
  before(async () => {
    postgres = await startPostgres();
    pool = new pg.Pool({ connectionString: postgres.url });
    pool.on('error', () => {});
  });
  after(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  test('answers POST on any path, sessions in a PostgresStore; its options are checked', async (t) => {
    const swarm = new Swarm(DEFINITION, { handlers });
    t.after(() => swarm.dispose());
    const store = new PostgresStore({ pool, tablePrefix: 'chat_' });
    const chatHandler = createChatHandler(swarm, { store, model });
    // An application's route, e.g. app/api/chat/route.js: `export const POST = chatHandler`.
    const running = await serve((req) => (new URL(req.url).pathname === '/api/chat' ? chatHandler(req) : new Response('not here', { status: 404 })), { port: 0 });
    t.after(async () => {
      running.server.closeAllConnections();
      await running.close();
    });
    const chat = chatOf(new URL('api/chat', running.url).href);
    await chat.sendMessage({ text: 'I was charged twice' });
    assert.equal(chat.status, 'ready', String(chat.error));
    assert.equal(chat.messages[1].metadata.agent, 'billing');
    const { rows } = await pool.query(`SELECT version, session->>'active' AS active FROM chat_sessions WHERE id = $1`, [chat.id]);
    assert.deepEqual(rows, [{ version: '1', active: 'billing' }]);
    const get = await chatHandler(new Request('http://app/api/chat'));
    assert.deepEqual([get.status, get.headers.get('allow'), (await get.json()).error.code], [405, 'POST', 'method_not_allowed']);
    assert.throws(() => createChatHandler(swarm, { swarm, store, model }), /createChatHandler options: unknown option 'swarm'/);
    assert.throws(() => createChatHandler(swarm, { store, modle: model }), /unknown option 'modle' \(did you mean 'model'\?\)/);
    assert.throws(() => createChatHandler(swarm), /needs the options \{ store, model \}/);
    assert.throws(() => createChatHandler({}, { store, model }), /createChatHandler: swarm must be a Swarm/);
  });
});
