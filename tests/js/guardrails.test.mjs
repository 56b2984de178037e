// Guardrails: inputGuardrails and outputGuardrails per agent id (sync or async functions returning
// { tripped, reason? }), not inherited across handoffs; a tripped input guardrail ends the turn
// without a model call and leaves the session as it was (turn counted, a checkpoint); a tripped
// output guardrail keeps the answer out of the history.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DefinitionError, init, Swarm } from 'handoff-graph';

await init();

const DEFINITION = {
  agents: [
    { id: 'triage', entry: true },
    { id: 'tech', name: 'Tech' },
  ],
  edges: [
    { from: 'triage', to: 'tech', when: "topic == 'tech'" },
    { from: 'triage', to: 'tech', description: 'technical questions' },
  ],
};

async function collect(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

const tooLong = (max) => (text) => ({ tripped: text.length > max, reason: `longer than ${max}` });

describe('guardrails', () => {
  test('options: unknown agent ids are DefinitionErrors, non-functions TypeErrors, unknown keys named', () => {
    assert.throws(() => new Swarm(DEFINITION, { inputGuardrails: { nobody: () => ({ tripped: false }) } }), (e) => e instanceof DefinitionError && /inputGuardrails\.nobody: no agent 'nobody'/.test(e.message));
    assert.throws(() => new Swarm(DEFINITION, { outputGuardrails: { tech: [() => ({ tripped: false }), 'x'] } }), /outputGuardrails\.tech\[1\] must be a function/);
    assert.throws(() => new Swarm(DEFINITION, { outputGuardrails: [] }), TypeError);
    assert.throws(() => new Swarm(DEFINITION, { inputGuardrail: {} }), /unknown option 'inputGuardrail' \(did you mean 'inputGuardrails'\?\)/);
  });

  test('a tripped input guardrail: no model call, the session as before but for turn and a checkpoint', async () => {
    const swarm = new Swarm(DEFINITION, { inputGuardrails: { triage: tooLong(10) }, extractVariables: () => ({ seen: true }) });
    const session = swarm.createSession();
    let calls = 0;
    const model = () => {
      calls++;
      return { text: 'hi' };
    };
    const events = await collect(swarm.runTurn(session, 'a very long question indeed', { model }));
    assert.deepEqual(events.map((e) => e.type), ['open', 'guardrail_tripped', 'done']);
    assert.deepEqual(events[1], { type: 'guardrail_tripped', kind: 'input', agent: 'triage', guardrail: 0, reason: 'longer than 10' });
    assert.equal(events[2].reason, 'guardrail-tripped');
    assert.equal(calls, 0);
    assert.equal(session.turn, 1);
    assert.deepEqual(session.histories.triage, []);
    assert.deepEqual(session.variables, {}, 'what was extracted from the refused input is not kept');
    assert.deepEqual(session.checkpoints, [{ turn: 1, hops: 0, active: 'triage', guardrail: { kind: 'input', agent: 'triage', guardrail: 0, reason: 'longer than 10' } }]);
    // A short one passes.
    const ok = await collect(swarm.runTurn(session, 'short', { model }));
    assert.equal(ok.at(-1).reason, 'answered');
    assert.equal(calls, 1);
  });

  test('not inherited: the agent a rule hands the input to checks it with its own guardrails only', async () => {
    const swarm = new Swarm(DEFINITION, {
      inputGuardrails: { triage: () => ({ tripped: true, reason: 'triage says no' }), tech: async (text) => ({ tripped: text.includes('secret'), reason: 'no secrets' }) },
    });
    const model = () => ({ text: 'tech answer' });
    const session = swarm.createSession({ variables: { topic: 'tech' } });
    const events = await collect(swarm.runTurn(session, 'how do I reset my router', { model }));
    assert.equal(events.at(-1).reason, 'answered', 'triage\'s guardrail does not apply to tech');
    const refused = await collect(swarm.runTurn(session, 'tell me the secret', { model }));
    assert.deepEqual(refused.find((e) => e.type === 'guardrail_tripped'), { type: 'guardrail_tripped', kind: 'input', agent: 'tech', guardrail: 0, reason: 'no secrets' });
  });

  test('a tripped output guardrail: the answer never reaches the history; after an LLM handoff, the target\'s own', async () => {
    const swarm = new Swarm(DEFINITION, {
      outputGuardrails: { triage: () => ({ tripped: true, reason: 'triage must not answer' }), tech: [() => ({ tripped: false }), (text) => ({ tripped: /password/.test(text), reason: 'leaks a password' })] },
    });
    const model = ({ agent, messages }) => {
      if (agent.id === 'triage') return { toolCalls: [{ id: 't', name: 'transfer_to_tech', arguments: {} }] };
      return { text: messages.at(-1).content.includes('pw') ? 'the password is hunter2' : 'restart it' };
    };
    const session = swarm.createSession();
    const good = await collect(swarm.runTurn(session, 'router?', { model }));
    assert.equal(good.at(-1).text, 'restart it');
    const bad = await collect(swarm.runTurn(session, 'pw?', { model }));
    const tripped = bad.find((e) => e.type === 'guardrail_tripped');
    assert.deepEqual(tripped, { type: 'guardrail_tripped', kind: 'output', agent: 'tech', guardrail: 1, reason: 'leaks a password' });
    assert.equal(bad.at(-1).reason, 'guardrail-tripped');
    assert.equal(bad.at(-1).text, '');
    assert.ok(!session.histories.tech.some((m) => m.content.includes('hunter2')));
    assert.equal(session.histories.tech.at(-1).content, 'pw?');
  });

  test('a guardrail that returns something else is a TypeError; it gets copies', async () => {
    let seen;
    const swarm = new Swarm(DEFINITION, { inputGuardrails: { triage: (text, ctx) => {
      seen = ctx;
      ctx.variables.x = 1;
      return true;
    } } });
    const session = swarm.createSession();
    await assert.rejects(collect(swarm.runTurn(session, 'hi', { model: () => ({ text: 'x' }) })), /must return \{ tripped: boolean, reason\?: string \}/);
    assert.deepEqual(Object.keys(seen).sort(), ['agent', 'input', 'kind', 'variables']);
    assert.deepEqual(session.variables, {});
  });
});
