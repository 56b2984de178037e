// Approvals: an LLM edge or an agent tool marked `approval: true` pauses the turn; the pending
// approval lives in the session JSON; swarm.resolveApproval resumes it (approve runs the call,
// reject feeds the reason to the model), also in another process after a FileStore round trip.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { DefinitionError, init, MemoryStore, Swarm } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';

import { DEFINITION } from './approval-swarm.js';

await init();

const handlers = {
  lookup: ({ order }) => ({ order, total: 40 }),
  refund: ({ order, amount }) => `refunded ${amount} on ${order}`,
};

// A scripted model: the support agent's first answer is `calls`; after tool results it answers
// with the last tool result's text; the manager answers plainly.
function scripted(calls) {
  const requests = [];
  const model = ({ agent, messages }) => {
    requests.push({ agent: agent.id, messages });
    if (agent.id === 'manager') return { text: 'Manager here.' };
    const last = messages.at(-1);
    if (last.role === 'user') return { toolCalls: calls };
    return { text: `done: ${last.content}` };
  };
  return { model, requests };
}

async function collect(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('the definition', () => {
  test('approval: true is read on agent tools and LLM edges, written back, and refused on rule edges', () => {
    const swarm = new Swarm(DEFINITION);
    const json = swarm.toJSON();
    assert.equal(json.agents[0].tools[1].approval, true);
    assert.equal(json.agents[0].tools[0].approval, undefined);
    assert.equal(json.edges[0].approval, true);
    assert.deepEqual(new Swarm(json).toJSON(), json);
    assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: 'x == 1', approval: true }] }), (error) => {
      assert.ok(error instanceof DefinitionError);
      assert.equal(error.problems[0].pointer, '/edges/0/approval');
      return true;
    });
    assert.throws(() => new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', approval: 'yes' }] }), DefinitionError);
    // A hybrid edge (a tool offered while its condition holds) can require approval.
    new Swarm({ agents: [{ id: 'a', entry: true }, { id: 'b' }], edges: [{ from: 'a', to: 'b', when: 'x == 1', offer: true, approval: true }] }).dispose();
  });

  test('applyToolCall reports approval_required and changes nothing', () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const before = JSON.stringify(session);
    assert.deepEqual(swarm.applyToolCall(session, { name: 'transfer_to_manager', arguments: { reason: 'angry' } }), {
      type: 'approval_required', kind: 'handoff', agent: 'support', tool: 'transfer_to_manager', from: 'support', to: 'manager', edge: 0, arguments: { reason: 'angry' },
    });
    assert.deepEqual(swarm.applyToolCall(session, { name: 'refund', arguments: { order: 'A1', amount: 5 } }), {
      type: 'approval_required', kind: 'tool', agent: 'support', tool: 'refund', arguments: { order: 'A1', amount: 5 },
    });
    assert.equal(JSON.stringify(session).replace(/"checkpoints":\[.*\]/, ''), before.replace(/"checkpoints":\[.*\]/, ''));
    // A host that answers calls itself, without a human to ask (an adapter), tells the model it was not run.
    assert.equal(swarm.toolResult({ type: 'approval_required', kind: 'tool', agent: 'support', tool: 'refund', arguments: {} }), "Not run: 'refund' needs a human's approval, and none can be asked here.");
  });
});

describe('a turn pauses for approval', () => {
  test('a tool call: approval_required, done with reason approval-required, the approval in the session; approve runs the tool', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model } = scripted([{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }]);
    const events = await collect(swarm.runTurn(session, 'refund A1', { model }));
    assert.deepEqual(events.map((e) => e.type), ['open', 'tool_use', 'approval_required', 'done']);
    const asked = events[2];
    assert.match(asked.approvalId, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual({ ...asked, approvalId: 'X' }, { type: 'approval_required', approvalId: 'X', agent: 'support', kind: 'tool', tool: 'refund', arguments: { order: 'A1', amount: 5 }, call: { id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } } });
    assert.equal(events[3].reason, 'approval-required');
    assert.equal(events[3].approvalId, asked.approvalId);
    assert.equal(session.approvals[asked.approvalId].status, 'pending');
    // The call has no answer yet: the history ends with the model's call.
    assert.equal(session.histories.support.at(-1).role, 'assistant');
    // A new turn must wait for the decision.
    await assert.rejects(collect(swarm.runTurn(session, 'hello?', { model })), { code: 'ERR_APPROVAL_PENDING' });

    const resumed = await collect(swarm.resolveApproval(session, asked.approvalId, { approve: true, model }));
    assert.deepEqual(resumed.map((e) => e.type), ['open', 'approval_resolved', 'tool_result', 'chunk', 'done']);
    assert.deepEqual(resumed[1], { type: 'approval_resolved', approvalId: asked.approvalId, approved: true, reason: null });
    assert.equal(resumed[2].result, 'refunded 5 on A1');
    assert.equal(resumed.at(-1).reason, 'answered');
    assert.equal(resumed.at(-1).text, 'done: refunded 5 on A1');
    assert.equal(session.approvals[asked.approvalId].status, 'approved');
    assert.equal(session.approvals[asked.approvalId].calls, undefined, 'a decided approval keeps no resume data');
    assert.equal(session.turn, 1, 'the resumed turn is the same turn');
    await assert.rejects(collect(swarm.resolveApproval(session, asked.approvalId, { approve: true, model })), { code: 'ERR_APPROVAL_RESOLVED' });
    await assert.rejects(collect(swarm.resolveApproval(session, 'nope', { approve: true, model })), { code: 'ERR_APPROVAL_NOT_FOUND' });
  });

  test('reject gives the model the reason as the call result', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model, requests } = scripted([{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 500 } }]);
    const events = await collect(swarm.runTurn(session, 'refund A1', { model }));
    const { approvalId } = events.find((e) => e.type === 'approval_required');
    const resumed = await collect(swarm.resolveApproval(session, approvalId, { approve: false, reason: 'over the limit', model }));
    const result = resumed.find((e) => e.type === 'tool_result');
    assert.equal(result.result, 'Not approved: over the limit');
    assert.deepEqual(result.outcome, { type: 'not_approved', reason: 'over the limit' });
    assert.deepEqual(requests.at(-1).messages.at(-1), { role: 'tool', toolCallId: 'c1', name: 'refund', content: 'Not approved: over the limit' });
    assert.equal(session.approvals[approvalId].status, 'rejected');
    assert.equal(session.approvals[approvalId].reason, 'over the limit');
    assert.ok(!resumed.some((e) => e.type === 'tool_mock_required'));
  });

  test('a handoff: approved, the session moves; rejected, it stays', async () => {
    for (const approve of [true, false]) {
      const swarm = new Swarm(DEFINITION, { handlers });
      const session = swarm.createSession();
      const { model } = scripted([{ id: 't1', name: 'transfer_to_manager', arguments: { reason: 'angry customer' } }]);
      const events = await collect(swarm.runTurn(session, 'I want a manager', { model }));
      const asked = events.find((e) => e.type === 'approval_required');
      assert.equal(asked.kind, 'handoff');
      assert.equal(asked.to, 'manager');
      assert.equal(session.active, 'support');
      assert.equal(session.hops, 0);
      const resumed = await collect(swarm.resolveApproval(session, asked.approvalId, { approve, model }));
      if (approve) {
        assert.deepEqual(resumed.map((e) => e.type), ['open', 'approval_resolved', 'handoff', 'tool_result', 'chunk', 'done']);
        assert.equal(session.active, 'manager');
        assert.equal(resumed.at(-1).text, 'Manager here.');
      } else {
        assert.equal(session.active, 'support');
        assert.equal(resumed.find((e) => e.type === 'tool_result').result, 'Not approved.');
      }
    }
  });

  test('the calls before the paused one run; the calls after it wait and run after the decision, in order', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const calls = [
      { id: 'a', name: 'lookup', arguments: { order: 'A1' } },
      { id: 'b', name: 'refund', arguments: { order: 'A1', amount: 5 } },
      { id: 'c', name: 'lookup', arguments: { order: 'A2' } },
      { id: 'd', name: 'refund', arguments: { order: 'A2', amount: 7 } },
    ];
    const { model } = scripted(calls);
    const events = await collect(swarm.runTurn(session, 'refund both', { model }));
    assert.deepEqual(events.map((e) => e.type), ['open', 'tool_use', 'tool_result', 'tool_use', 'approval_required', 'done']);
    const first = events.find((e) => e.type === 'approval_required');
    assert.equal(first.call.id, 'b');
    const second = await collect(swarm.resolveApproval(session, first.approvalId, { approve: true, model }));
    // b runs, c runs (its tool_use now), d pauses again.
    assert.deepEqual(second.map((e) => e.type), ['open', 'approval_resolved', 'tool_result', 'tool_use', 'tool_result', 'tool_use', 'approval_required', 'done']);
    assert.deepEqual(second.filter((e) => e.type === 'tool_result').map((e) => e.call.id), ['b', 'c']);
    const again = second.find((e) => e.type === 'approval_required');
    assert.equal(again.call.id, 'd');
    assert.notEqual(again.approvalId, first.approvalId);
    const third = await collect(swarm.resolveApproval(session, again.approvalId, { approve: false, model }));
    assert.deepEqual(third.map((e) => e.type), ['open', 'approval_resolved', 'tool_result', 'chunk', 'done']);
    // Every call of the response has exactly one answer, in the order of the calls.
    assert.deepEqual(session.histories.support.filter((m) => m.role === 'tool').map((m) => m.toolCallId), ['a', 'b', 'c', 'd']);
  });

  test('an approved handoff answers the calls after it "not run"', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model } = scripted([
      { id: 't1', name: 'transfer_to_manager', arguments: {} },
      { id: 'l1', name: 'lookup', arguments: { order: 'A1' } },
    ]);
    const { approvalId } = (await collect(swarm.runTurn(session, 'manager please', { model }))).find((e) => e.type === 'approval_required');
    const resumed = await collect(swarm.resolveApproval(session, approvalId, { approve: true, model }));
    const results = resumed.filter((e) => e.type === 'tool_result');
    assert.deepEqual(results.map((e) => e.outcome.type), ['handoff', 'not_run']);
    assert.deepEqual(session.histories.manager.filter((m) => m.role === 'tool').map((m) => m.toolCallId), ['t1', 'l1']);
  });

  test('the options are checked: unknown keys, approve, reason, model', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model } = scripted([{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }]);
    const { approvalId } = (await collect(swarm.runTurn(session, 'refund', { model }))).find((e) => e.type === 'approval_required');
    await assert.rejects(collect(swarm.resolveApproval(session, approvalId, { approve: true, model, aprove: true })), /unknown option 'aprove'/);
    await assert.rejects(collect(swarm.resolveApproval(session, approvalId, { approve: 'yes', model })), TypeError);
    await assert.rejects(collect(swarm.resolveApproval(session, approvalId, { approve: false, reason: 3, model })), TypeError);
    await assert.rejects(collect(swarm.resolveApproval(session, approvalId, { approve: true })), /needs \{ model \}/);
    await assert.rejects(collect(swarm.resolveApproval(session, 42, { approve: true, model })), TypeError);
    await assert.rejects(collect(swarm.resolveApproval(session, '__proto__', { approve: true, model })), { code: 'ERR_APPROVAL_NOT_FOUND' });
    assert.equal(session.approvals[approvalId].status, 'pending', 'a refused request decides nothing');
  });

  test('an aborted resumption leaves the session as it was, still pending', async () => {
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model } = scripted([{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }]);
    const { approvalId } = (await collect(swarm.runTurn(session, 'refund', { model }))).find((e) => e.type === 'approval_required');
    const before = structuredClone(session);
    const abort = new AbortController();
    const hanging = () => {
      abort.abort(new Error('stop'));
      throw abort.signal.reason;
    };
    await assert.rejects(collect(swarm.resolveApproval(session, approvalId, { approve: true, model: hanging, signal: abort.signal })), /stop/);
    assert.deepEqual(session, before);
  });
});

describe('durability', () => {
  test('the pending approval survives a MemoryStore round trip through JSON', async () => {
    const store = new MemoryStore();
    const swarm = new Swarm(DEFINITION, { handlers });
    const session = swarm.createSession();
    const { model } = scripted([{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }]);
    const { approvalId } = (await collect(swarm.runTurn(session, 'refund', { model, store }))).find((e) => e.type === 'approval_required');
    const stored = await store.get(session.id);
    assert.equal(stored.approvals[approvalId].status, 'pending');
    const checkpoints = await store.listCheckpoints(session.id);
    assert.equal(checkpoints.at(-1).outcome.type, 'approval_required');
  });

  test('a FileStore session paused in one process is resolved in another', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hg-approvals-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    // Process 1: the turn pauses and is saved.
    const pause = `
      import { init, Swarm } from 'handoff-graph';
      import { FileStore } from 'handoff-graph/stores/file';
      import { DEFINITION } from ${JSON.stringify(new URL('./approval-swarm.js', import.meta.url).href)};
      await init();
      const swarm = new Swarm(DEFINITION);
      const store = new FileStore(process.argv[1]);
      const session = swarm.createSession({ id: 'durable' });
      const model = () => ({ toolCalls: [{ id: 'c1', name: 'refund', arguments: { order: 'A1', amount: 5 } }] });
      for await (const event of swarm.runTurn(session, 'refund', { model, store })) {
        if (event.type === 'approval_required') console.log(event.approvalId);
      }
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', pause, dir], { encoding: 'utf8', env: { ...process.env, NODE_TEST_CONTEXT: undefined } });
    assert.equal(child.status, 0, child.stderr);
    const approvalId = child.stdout.trim().split('\n').at(-1);
    // Process 2 (this one): a new Swarm from the same definition, with the handlers.
    const store = new FileStore(dir);
    const session = await store.get('durable');
    assert.equal(session.approvals[approvalId].status, 'pending');
    const swarm = new Swarm(DEFINITION, { handlers });
    const { model } = scripted([]);
    const events = await collect(swarm.resolveApproval(session, approvalId, { approve: true, model, store }));
    assert.equal(events.find((e) => e.type === 'tool_result').result, 'refunded 5 on A1');
    const saved = await store.get('durable');
    assert.equal(saved.approvals[approvalId].status, 'approved');
    assert.deepEqual(saved.histories.support.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
  });
});
