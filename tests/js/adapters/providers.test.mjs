// The OpenAI (Chat Completions, Responses) and Anthropic adapters, each driving the real SDK client
// against tests/providers/server.mjs, a local server speaking the provider's wire format (streaming
// with server-sent events, and not). For each adapter, streamed and not: the triage agent calls
// transfer_to_billing, the handoff happens, billing answers (in several chunks when streaming), and
// the second request carries billing's tools and only what the 'last-user' policy allows; a blocked
// handoff goes back as a tool result with the matching call id and the model asks the user; an
// aborted turn cancels the HTTP request and leaves the session deep-equal to what it was.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

import { init, Swarm } from 'handoff-graph';
import { anthropicMessages } from 'handoff-graph/adapters/anthropic';
import { openaiChat, openaiResponses } from 'handoff-graph/adapters/openai';

import { ASK_ACCOUNT, BILLING_ANSWER, collect, DEFINITION, QUESTION, readRequest, supportReply } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';

await init();

let server;
before(async () => {
  server = await startProviderServer(supportReply);
});
after(() => server.close());

const ADAPTERS = {
  openaiChat: (options) => openaiChat(new OpenAI({ apiKey: 'test-key', baseURL: server.openaiURL, maxRetries: 0 }), { model: 'gpt-4.1-mini', ...options }),
  openaiResponses: (options) => openaiResponses(new OpenAI({ apiKey: 'test-key', baseURL: server.openaiURL, maxRetries: 0 }), { model: 'gpt-4.1-mini', ...options }),
  anthropicMessages: (options) => anthropicMessages(new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }), { model: 'claude-sonnet-5-5', ...options }),
};
const PATHS = { openaiChat: '/v1/chat/completions', openaiResponses: '/v1/responses', anthropicMessages: '/v1/messages' };

for (const [name, make] of Object.entries(ADAPTERS)) {
  for (const stream of [true, false]) {
    describe(`${name}, ${stream ? 'streaming' : 'not streaming'}`, () => {
      test('transfer_to_billing hands off; billing answers; the second request has its tools and the last-user history', async () => {
        const swarm = new Swarm(DEFINITION);
        const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
        const first = server.requests.length;
        const events = await collect(swarm.runTurn(session, QUESTION, { model: make({ stream }) }));
        const requests = server.requests.slice(first);
        assert.equal(requests.length, 2);
        assert.ok(requests.every((r) => r.path === PATHS[name] && r.body.stream === (stream || undefined)), 'the provider route, streamed as asked');

        const types = events.map((e) => e.type);
        const chunks = events.filter((e) => e.type === 'chunk');
        if (stream) {
          assert.deepEqual(types, ['open', 'tool_use', 'response', 'handoff', 'tool_result', 'chunk', 'chunk', 'chunk', 'response', 'done']);
          assert.deepEqual(chunks.map((c) => c.text), BILLING_ANSWER, 'one chunk per streamed delta');
        } else {
          assert.deepEqual(types, ['open', 'response', 'tool_use', 'handoff', 'tool_result', 'chunk', 'response', 'done']);
          assert.deepEqual(chunks.map((c) => c.text), [BILLING_ANSWER.join('')]);
        }
        assert.ok(chunks.every((c) => c.agent === 'billing'));
        const use = events.find((e) => e.type === 'tool_use');
        assert.deepEqual(use.call, { id: `call_${first}`, name: 'transfer_to_billing', arguments: use.call.arguments });
        assert.deepEqual(typeof use.call.arguments === 'string' ? JSON.parse(use.call.arguments) : use.call.arguments, { reason: 'a billing question' });
        const handoff = events.find((e) => e.type === 'handoff');
        assert.deepEqual([handoff.via, handoff.from, handoff.to, handoff.reason], ['tool', 'triage', 'billing', 'a billing question']);
        const done = events.at(-1);
        assert.equal(done.text, BILLING_ANSWER.join(''));
        assert.equal(done.agent, 'billing');
        // The raw provider response is kept on the response event.
        const responses = events.filter((e) => e.type === 'response');
        assert.deepEqual(responses.map((r) => r.agent), ['triage', 'billing']);
        assert.ok(responses.every((r) => r.raw !== undefined && r.finishReason !== null));
        if (stream) assert.ok(Array.isArray(responses[1].raw) && responses[1].raw.length > 3, 'the stream events');
        else assert.equal(typeof responses[1].raw.id, 'string', 'the response object');

        const [toTriage, toBilling] = requests.map(readRequest);
        assert.deepEqual(toTriage.tools, ['transfer_to_billing']);
        assert.match(toTriage.system, /You triage support requests/);
        assert.deepEqual(toBilling.tools, ['transfer_to_triage'], "billing's tools, in the provider's shape");
        assert.match(toBilling.system, /^You handle billing questions\.$/);
        assert.deepEqual(toBilling.turns, [`user:${QUESTION}`], "'last-user': the question, and nothing of triage's tool traffic");
        assert.equal(session.active, 'billing');
        assert.deepEqual(session.histories.billing.map((m) => m.role), ['user', 'assistant']);
      });

      test('a blocked handoff goes back as a tool result with its call id; the model asks the user', async () => {
        const swarm = new Swarm(DEFINITION);
        const session = swarm.createSession();
        const first = server.requests.length;
        const events = await collect(swarm.runTurn(session, QUESTION, { model: make({ stream }) }));
        const requests = server.requests.slice(first).map(readRequest);
        assert.equal(requests.length, 2);
        const blocked = events.find((e) => e.type === 'handoff_blocked');
        assert.deepEqual(blocked.missing, ['accountId']);
        assert.equal(requests[1].lastIsToolResult, true);
        assert.equal(requests[1].lastToolResult, blocked.rejectionReason);
        assert.equal(requests[1].turns.at(-1), name === 'anthropicMessages' ? `user:tool:call_${first}` : `tool:call_${first}`, 'answers the call by its id');
        assert.equal(events.at(-1).text, ASK_ACCOUNT.join(''));
        assert.equal(session.active, 'triage');
        assert.equal(session.hops, 0);
      });
    });
  }

  test(`${name}: an aborted turn cancels the request and leaves the session as it was`, async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7' } });
    // A first turn, so that the session has history, a hop and a checkpoint to lose.
    await collect(swarm.runTurn(session, QUESTION, { model: make() }));
    const before = structuredClone(session);
    const first = server.requests.length;
    server.reply = () => ({ text: ['Let me look '], hang: true });
    const controller = new AbortController();
    const seen = [];
    try {
      await assert.rejects(async () => {
        for await (const event of swarm.runTurn(session, 'And the refund?', { model: make(), signal: controller.signal })) {
          seen.push(event.type);
          if (event.type === 'chunk') controller.abort();
        }
      }, (error) => error.name === 'AbortError' || error === controller.signal.reason || /abort/i.test(error.message));
    } finally {
      server.reply = supportReply;
    }
    assert.deepEqual(seen, ['open', 'chunk']);
    assert.deepEqual(session, before, 'the session is exactly as before the turn');
    // The HTTP request was cancelled: the server saw the client go away mid-stream.
    for (let i = 0; i < 100 && !server.requests[first].closedEarly; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(server.requests[first].closedEarly, true);
  });
}

describe('adapter options', () => {
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' });
  test('unknown keys are TypeErrors with a suggestion; keys the adapter sets are refused in request', () => {
    assert.throws(() => openaiChat(client, { model: 'm', temprature: 0 }), /unknown option 'temprature' \(did you mean 'temperature'\?\)/);
    assert.throws(() => openaiChat(client, { model: 'm', request: { messages: [] } }), /request\.messages is set by the adapter/);
    assert.throws(() => openaiChat(client, {}), /model is required/);
    assert.throws(() => openaiChat({}, { model: 'm' }), /OpenAI client/);
    assert.throws(() => anthropicMessages(client, { model: 'm' }), /Anthropic client/);
  });

  test('settings, request and agentConfig reach the body; variables become a system message', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-7', secret: 's' } });
    const first = server.requests.length;
    const model = ADAPTERS.openaiChat({ temperature: 0.2, request: { logprobs: false, seed: 1 }, variables: ['accountId'] });
    await collect(swarm.runTurn(session, QUESTION, { model, agentConfig: { billing: { temperature: 0.9, max_tokens: 50 } } }));
    const [toTriage, toBilling] = server.requests.slice(first).map((r) => r.body);
    assert.equal(toTriage.temperature, 0.2);
    assert.equal(toTriage.seed, 1);
    assert.equal(toTriage.parallel_tool_calls, false);
    assert.equal(toBilling.temperature, 0.9, "billing's config over the adapter's");
    assert.equal(toBilling.max_tokens, 50);
    assert.deepEqual(toTriage.messages[1], { role: 'system', content: 'Known variables of this conversation (JSON): {"accountId":"AC-7"}' });
    await assert.rejects(collect(swarm.runTurn(session, 'x', { model, agentConfig: { billing: { temperatur: 1 } } })), /agentConfig: unknown option 'temperatur'/);
  });

  test('a toolFormat that is not the adapter\'s is refused', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    await assert.rejects(collect(swarm.runTurn(session, 'x', { model: ADAPTERS.openaiChat(), toolFormat: 'anthropic' })), /sends tools in the 'openai-chat' shape/);
  });
});
