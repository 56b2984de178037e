// The AI SDK adapter with a real provider package: @ai-sdk/openai's Chat and Responses language
// models pointed at tests/providers/server.mjs. aiSdkModel in runTurn (streamed and not: the
// handoff, billing's answer in chunks, the second request's tools and 'last-user' history, a
// blocked handoff fed back with its call id, an abort that cancels the request and restores the
// session); aiSdkTools with generateText, the app's own loop: the transfer executes through
// applyToolCall and its result goes back to the model with the call id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';

import { init, Swarm } from 'handoff-graph';
import { aiSdkModel, aiSdkTools } from 'handoff-graph/adapters/ai-sdk';

import { ASK_ACCOUNT, BILLING_ANSWER, collect, DEFINITION, QUESTION, readRequest, supportReply } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';

await init();

let server;
let provider;
before(async () => {
  server = await startProviderServer(supportReply);
  provider = createOpenAI({ apiKey: 'test-key', baseURL: server.openaiURL });
});
after(() => server.close());

const MODELS = { chat: () => provider.chat('gpt-4.1-mini'), responses: () => provider.responses('gpt-4.1-mini') };

for (const [api, languageModel] of Object.entries(MODELS)) {
  for (const stream of [true, false]) {
    describe(`aiSdkModel on @ai-sdk/openai ${api}, ${stream ? 'streaming' : 'not streaming'}`, () => {
      test('transfer_to_billing hands off; billing answers; the second request has its tools and the last-user history', async () => {
        const swarm = new Swarm(DEFINITION);
        const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
        const first = server.requests.length;
        const events = await collect(swarm.runTurn(session, QUESTION, { model: aiSdkModel(languageModel(), { stream, maxRetries: 0 }) }));
        const requests = server.requests.slice(first);
        assert.equal(requests.length, 2);
        const chunks = events.filter((e) => e.type === 'chunk');
        assert.deepEqual(chunks.map((c) => c.text), stream ? BILLING_ANSWER : [BILLING_ANSWER.join('')]);
        const handoff = events.find((e) => e.type === 'handoff');
        assert.deepEqual([handoff.from, handoff.to, handoff.reason], ['triage', 'billing', 'a billing question']);
        const use = events.find((e) => e.type === 'tool_use');
        assert.equal(use.call.id, `call_${first}`);
        assert.equal(use.call.name, 'transfer_to_billing');
        assert.ok(events.filter((e) => e.type === 'response').every((e) => e.raw !== undefined));
        const [toTriage, toBilling] = requests.map(readRequest);
        assert.deepEqual(toTriage.tools, ['transfer_to_billing']);
        assert.deepEqual(toBilling.tools, ['transfer_to_triage']);
        assert.match(toBilling.system, /^You handle billing questions\.$/);
        assert.deepEqual(toBilling.turns, [`user:${QUESTION}`]);
        assert.equal(events.at(-1).text, BILLING_ANSWER.join(''));
        assert.equal(session.active, 'billing');
      });

      test('a blocked handoff goes back as a tool result with its call id; the model asks the user', async () => {
        const swarm = new Swarm(DEFINITION);
        const session = swarm.createSession();
        const first = server.requests.length;
        const events = await collect(swarm.runTurn(session, QUESTION, { model: aiSdkModel(languageModel(), { stream, maxRetries: 0 }) }));
        const requests = server.requests.slice(first).map(readRequest);
        const blocked = events.find((e) => e.type === 'handoff_blocked');
        assert.deepEqual(blocked.missing, ['accountId']);
        assert.equal(requests[1].lastToolResult, blocked.rejectionReason);
        assert.equal(requests[1].turns.at(-1), `tool:call_${first}`);
        assert.equal(events.at(-1).text, ASK_ACCOUNT.join(''));
        assert.equal(session.active, 'triage');
      });
    });
  }

  test(`aiSdkModel on ${api}: an aborted turn cancels the request and leaves the session as it was`, async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    await collect(swarm.runTurn(session, QUESTION, { model: aiSdkModel(languageModel(), { maxRetries: 0 }) }));
    const before = structuredClone(session);
    const first = server.requests.length;
    server.reply = () => ({ text: ['Let me look '], hang: true });
    const controller = new AbortController();
    const seen = [];
    try {
      await assert.rejects(async () => {
        for await (const event of swarm.runTurn(session, 'And the refund?', { model: aiSdkModel(languageModel(), { maxRetries: 0 }), signal: controller.signal })) {
          seen.push(event.type);
          if (event.type === 'chunk') controller.abort();
        }
      });
    } finally {
      server.reply = supportReply;
    }
    assert.deepEqual(seen, ['open', 'chunk']);
    assert.deepEqual(session, before);
    for (let i = 0; i < 100 && !server.requests[first].closedEarly; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(server.requests[first].closedEarly, true);
  });
}

describe('aiSdkTools', () => {
  test('generateText with the tools: the transfer executes through applyToolCall; its result goes back with the call id', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    const tools = aiSdkTools(swarm, session, { tool, jsonSchema });
    assert.deepEqual(Object.keys(tools), ['transfer_to_billing']);
    const first = server.requests.length;
    // The server's script: triage transfers; then (the tool result last) it answers.
    server.reply = (record) => (readRequest(record).lastIsToolResult ? { text: 'You are with billing now.' } : supportReply(record));
    try {
      const result = await generateText({ model: provider.chat('gpt-4.1-mini'), system: swarm.instructions(session), prompt: QUESTION, tools, stopWhen: stepCountIs(2), maxRetries: 0 });
      assert.equal(result.text, 'You are with billing now.');
    } finally {
      server.reply = supportReply;
    }
    assert.equal(session.active, 'billing');
    const second = readRequest(server.requests[first + 1]);
    assert.equal(second.lastToolResult, 'Transferred to Billing.');
    assert.equal(second.turns.at(-1), `tool:call_${first}`);
  });

  test('a blocked transfer returns the rejectionReason; options are checked', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const tools = aiSdkTools(swarm, session, { tool, jsonSchema });
    const text = await tools.transfer_to_billing.execute({ reason: null }, { toolCallId: 'c1', messages: [] });
    assert.match(text, /^Cannot transfer to Billing yet: .*accountId/);
    assert.equal(session.active, 'triage');
    assert.throws(() => aiSdkTools(swarm, session, { tool }), /needs \{ tool, jsonSchema \}/);
    assert.throws(() => aiSdkTools(swarm, session, { tool, jsonSchema, jsonschema: 1 }), /unknown option 'jsonschema'/);
    assert.throws(() => aiSdkModel({}), /AI SDK LanguageModel/);
  });
});
