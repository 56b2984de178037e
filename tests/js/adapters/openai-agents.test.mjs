// toOpenAIAgents with the real @openai/agents runner and its OpenAI provider pointed at
// tests/providers/server.mjs (Responses, streamed). The triage Agent calls transfer_to_billing, the
// SDK hands off to the billing Agent, which streams its answer in several deltas; billing's request
// carries its own handoff tool and only what the 'last-user' policy allows. A blocked handoff goes
// back to the model as the call's result (the swarm's rejectionReason), the SDK stays with triage
// and the model asks the user. A transfer is offered only while the swarm offers it (limits), rules
// are followed before the run starts and after a handoff, and an aborted run leaves the session
// as it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';

import { init, Swarm } from 'handoff-graph';
import { toOpenAIAgents } from 'handoff-graph/adapters/openai-agents';

import { ASK_ACCOUNT, BILLING_ANSWER, DEFINITION, QUESTION, readRequest, supportReply } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';

await init();
setTracingDisabled(true);

let server;
let runner;
before(async () => {
  server = await startProviderServer(supportReply);
  runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'test-key', baseURL: server.openaiURL, useResponses: true }), tracingDisabled: true });
});
after(() => server.close());

/** Runs streamed; returns the text deltas, the result and the requests the server received. */
async function streamed(agent, input, options = {}) {
  const first = server.requests.length;
  const result = await runner.run(agent, input, { stream: true, ...options });
  const deltas = [];
  for await (const event of result) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') deltas.push(event.data.delta);
  }
  await result.completed;
  return { deltas, result, requests: server.requests.slice(first).map(readRequest) };
}

describe('toOpenAIAgents', () => {
  test('transfer_to_billing: the SDK hands off; billing streams; its request has its tools and the last-user history', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    const { agent, agents } = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini' });
    assert.equal(agent, agents.triage);
    const { deltas, result, requests } = await streamed(agent, QUESTION);
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[0].tools, ['transfer_to_billing']);
    assert.match(requests[0].system, /You triage support requests/);
    assert.deepEqual(requests[1].tools, ['transfer_to_triage'], "billing's handoff, offered by the swarm");
    assert.match(requests[1].system, /You handle billing questions/);
    assert.deepEqual(requests[1].turns, [`user:${QUESTION}`], "'last-user': the question only");
    assert.deepEqual(deltas, BILLING_ANSWER);
    assert.equal(result.finalOutput, BILLING_ANSWER.join(''));
    assert.equal(result.lastAgent, agents.billing);
    assert.equal(session.active, 'billing');
    assert.equal(session.hops, 1);
    assert.deepEqual(session.selections, { triage: 1 });
    assert.deepEqual(session.histories.billing, [{ role: 'user', content: QUESTION }]);
    assert.equal(session.checkpoints.at(-1).outcome.type, 'handoff');
  });

  test('a blocked handoff is the tool result the model gets; the SDK stays with triage, which asks the user', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const { agent, agents } = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini' });
    const { deltas, result, requests } = await streamed(agent, QUESTION);
    assert.equal(requests.length, 2);
    assert.equal(requests[1].lastIsToolResult, true);
    assert.match(requests[1].lastToolResult, /^Cannot transfer to Billing yet: .*accountId/);
    assert.match(requests[1].system, /You triage/);
    assert.deepEqual(deltas, ASK_ACCOUNT);
    assert.equal(result.lastAgent, agents.triage);
    assert.equal(session.active, 'triage');
    assert.equal(session.hops, 0);
    assert.equal(session.checkpoints.at(-1).outcome.type, 'handoff_blocked');
  });

  test('limits: a transfer is offered only while the swarm offers it; rules are followed before the run', async () => {
    const swarm = new Swarm({
      ...DEFINITION,
      agents: DEFINITION.agents.map((a) => (a.id === 'triage' ? { ...a, handoffs: 0 } : a)),
      edges: [...DEFINITION.edges, { from: 'triage', to: 'billing', when: "category == 'billing'" }],
    });
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    const { agent, agents } = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini' });
    const first = server.requests.length;
    server.reply = () => ({ text: 'Hello.' });
    try {
      await runner.run(agent, 'hi');
      assert.deepEqual(readRequest(server.requests[first]).tools, [], 'triage has used its handoffs: nothing is offered');
      swarm.updateState(session, { category: 'billing' });
      const again = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini' });
      assert.equal(again.agent.name, 'Billing', 'the rule moved the session');
      assert.equal(agents.triage.name, 'Triage');
    } finally {
      server.reply = supportReply;
    }
  });

  test('an aborted run leaves the session as it was; options are checked', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    const { agent } = toOpenAIAgents(swarm, session, { model: 'gpt-4.1-mini' });
    const before = structuredClone(session);
    const first = server.requests.length;
    server.reply = () => ({ text: ['Let me look '], hang: true });
    const controller = new AbortController();
    try {
      const result = await runner.run(agent, QUESTION, { stream: true, signal: controller.signal });
      await assert.rejects(async () => {
        for await (const event of result) {
          if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') controller.abort();
        }
        await result.completed;
        if (result.cancelled || controller.signal.aborted) throw new Error('aborted');
      });
    } finally {
      server.reply = supportReply;
    }
    assert.deepEqual(session, before);
    for (let i = 0; i < 100 && !server.requests[first].closedEarly; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(server.requests[first].closedEarly, true);
    assert.throws(() => toOpenAIAgents(swarm, session, { modle: 'x' }), /unknown option 'modle' \(did you mean 'model'\?\)/);
    assert.throws(() => toOpenAIAgents(swarm, session, { tools: { nobody: [] } }), /no agent 'nobody'/);
  });
});
