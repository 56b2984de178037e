// POST /sessions/:id/approvals/:approvalId over real HTTP: a turn that pauses on an `approval: true`
// tool ends its stream with `done` (reason approval-required) and is saved with the pending
// approval; the route resumes it as a stream under the turn's lease and save; unknown approval
// 404, decided 409, a new turn while one waits 409, and a FileStore served by a new handler (a
// restart) resolves what the first one paused.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { init, Swarm } from 'handoff-graph';
import { createHandler, serve } from 'handoff-graph/server';
import { FileStore } from 'handoff-graph/stores/file';
import { MemoryStore } from 'handoff-graph/stores/memory';

import { DEFINITION } from '../approval-swarm.js';
import { parseEvents, request, turn } from './harness.js';

await init();

const handlers = { refund: ({ order, amount }) => `refunded ${amount} on ${order}` };

function model({ agent, messages }) {
  if (agent.id === 'manager') return { text: 'Manager here.' };
  const last = messages.at(-1);
  if (last.role === 'user') return { toolCalls: [{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }] };
  return { text: `done: ${last.content}` };
}

async function start(t, store) {
  const swarm = new Swarm(DEFINITION, { handlers });
  const errors = [];
  const server = await serve(createHandler({ swarm, store, model, onError: (e) => errors.push(e) }), { port: 0 });
  const stop = async () => {
    server.server.closeAllConnections();
    await server.close();
    swarm.dispose();
  };
  t.after(stop);
  return { url: server.url, errors, stop };
}

async function resolve(url, id, approvalId, body) {
  const response = await fetch(new URL(`sessions/${id}/approvals/${approvalId}`, url), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { status: response.status, events: [], body: JSON.parse(text) };
  return { status: response.status, events: parseEvents(text) };
}

describe('approvals over HTTP', () => {
  test('pause, 409 for a new turn, resume as a stream, 409 when decided, 404 when unknown', async (t) => {
    const store = new MemoryStore();
    const { url, errors } = await start(t, store);
    const id = (await request(url, 'POST', 'sessions')).body.id;
    const paused = await turn(url, id, 'refund A1');
    assert.equal(paused.status, 200);
    assert.deepEqual(paused.events.map((e) => e.event), ['open', 'tool_use', 'approval_required', 'done']);
    const { approvalId } = paused.events[2].data;
    assert.equal(paused.events[3].data.reason, 'approval-required');
    assert.equal(paused.events[3].data.approvalId, approvalId);
    const stored = (await request(url, 'GET', `sessions/${id}`)).body;
    assert.equal(stored.approvals[approvalId].status, 'pending');

    const next = await turn(url, id, 'anyone?');
    assert.equal(next.status, 409);
    assert.equal(next.body.error.code, 'approval_pending');

    assert.equal((await resolve(url, id, 'unknown_1', { approve: true })).status, 404);
    const resumed = await resolve(url, id, approvalId, { approve: true });
    assert.equal(resumed.status, 200);
    assert.deepEqual(resumed.events.map((e) => e.event), ['open', 'approval_resolved', 'tool_result', 'chunk', 'done']);
    assert.equal(resumed.events[2].data.result, 'refunded 5 on A1');
    assert.equal(resumed.events.at(-1).data.reason, 'answered');
    assert.equal(resumed.events.at(-1).data.session.version, stored.version + 1);

    const again = await resolve(url, id, approvalId, { approve: false });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'approval_resolved');
    const saved = (await request(url, 'GET', `sessions/${id}`)).body;
    assert.equal(saved.approvals[approvalId].status, 'approved');
    const checkpoints = (await request(url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
    assert.deepEqual(checkpoints.map((c) => c.outcome?.type ?? (c.approval ? 'approval' : c.tool)), ['approval_required', 'approval', 'refund']);
    // The session takes turns again.
    assert.equal((await turn(url, id, 'thanks')).status, 200);
    assert.deepEqual(errors, []);
  });

  test('a rejection with a reason, after a restart: a new handler on the same FileStore resolves it', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hg-server-approvals-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const first = await start(t, new FileStore(dir));
    const id = (await request(first.url, 'POST', 'sessions')).body.id;
    const { approvalId } = (await turn(first.url, id, 'refund A1')).events.find((e) => e.event === 'approval_required').data;
    await first.stop();

    const second = await start(t, new FileStore(dir));
    const resumed = await resolve(second.url, id, approvalId, { approve: false, reason: 'over the limit' });
    assert.equal(resumed.status, 200);
    const result = resumed.events.find((e) => e.event === 'tool_result').data;
    assert.equal(result.result, 'Not approved: over the limit');
    assert.equal(resumed.events.at(-1).data.text, 'done: Not approved: over the limit');
    const saved = (await request(second.url, 'GET', `sessions/${id}`)).body;
    assert.equal(saved.approvals[approvalId].status, 'rejected');
    assert.deepEqual(second.errors, []);
  });
});
