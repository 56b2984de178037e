// What the adapters stand on, without a provider: runTurn with streaming model functions (a chunk
// per delta, also after a handoff in the same turn; tool_use as soon as a call arrives; a response
// event with the raw response; bad stream parts refused; an abort that restores the session even
// when the stream ignores the signal), applyToolCall with each SDK's tool-call shape, tool results
// in each provider's shape, createModel from the environment, and defineTool with zod 4 schemas.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { z } from 'zod';

import { init, Swarm } from 'handoff-graph';
import { createModel, defineTool, toolResultMessage } from 'handoff-graph/adapters';

import { collect, DEFINITION } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';

await init();
const run = promisify(execFile);

describe('runTurn with a streaming model', () => {
  test('a chunk per delta, tool_use as soon as the call arrives, chunks again after the handoff', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-1' } });
    const order = [];
    const model = async function* (request) {
      order.push(`model:${request.agent.id}`);
      if (request.agent.id === 'triage') {
        yield { type: 'text-delta', delta: 'One ' };
        yield { type: 'text-delta', delta: 'moment.' };
        yield { type: 'tool-call', toolCallId: 'c1', toolName: 'transfer_to_billing', input: '{"reason":null}' };
        order.push('after tool-call');
        yield { type: 'finish', finishReason: 'tool_calls', raw: { id: 'r1' } };
      } else {
        for (const delta of ['Bill', 'ing ', 'here.']) yield { type: 'text-delta', delta };
        yield { type: 'finish', finishReason: 'stop' };
      }
    };
    const events = [];
    for await (const event of swarm.runTurn(session, 'a charge', { model })) {
      events.push(event);
      if (event.type === 'tool_use') order.push('tool_use event');
    }
    assert.deepEqual(events.map((e) => e.type), ['open', 'chunk', 'chunk', 'tool_use', 'response', 'handoff', 'tool_result', 'chunk', 'chunk', 'chunk', 'done']);
    assert.deepEqual(order, ['model:triage', 'tool_use event', 'after tool-call', 'model:billing'], 'tool_use before the stream goes on');
    assert.deepEqual(events.filter((e) => e.type === 'chunk').map((e) => `${e.agent}:${e.text}`), ['triage:One ', 'triage:moment.', 'billing:Bill', 'billing:ing ', 'billing:here.']);
    assert.deepEqual(events.find((e) => e.type === 'response'), { type: 'response', agent: 'triage', text: 'One moment.', toolCalls: [{ id: 'c1', name: 'transfer_to_billing', arguments: '{"reason":null}' }], finishReason: 'tool_calls', usage: null, raw: { id: 'r1' } });
    assert.equal(events.at(-1).text, 'Billing here.');
    assert.deepEqual(session.histories.billing.at(-1), { role: 'assistant', content: 'Billing here.' });
  });

  test('the request holds plain values: the variables, the agent config, the tool format', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-1' } });
    let seen;
    const model = (request) => {
      seen = request;
      request.variables.accountId = 'changed';
      request.history.push({ role: 'user', content: 'injected' });
      return { text: 'ok' };
    };
    model.toolFormat = 'anthropic';
    await collect(swarm.runTurn(session, 'hi', { model, agentConfig: { triage: { temperature: 0 } } }));
    assert.equal(seen.toolFormat, 'anthropic');
    assert.equal(seen.tools[0].input_schema.type, 'object', "the model's own format");
    assert.deepEqual(seen.config, { temperature: 0 });
    assert.equal(seen.instructions, 'You triage support requests.');
    assert.equal(session.variables.accountId, 'AC-1', 'what the model changes never reaches the session');
    assert.deepEqual(session.histories.triage.map((m) => m.content), ['hi', 'ok']);
  });

  test('a stream part of an unknown type is a TypeError naming it', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const model = async function* () {
      yield { type: 'text_delta', delta: 'x' };
    };
    await assert.rejects(collect(swarm.runTurn(session, 'hi', { model })), /stream part is 'text-delta', 'tool-call' or 'finish', got 'text_delta'/);
  });

  test('an abort restores the session, even when the stream ignores the signal', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession({ variables: { accountId: 'AC-1' } });
    await collect(swarm.runTurn(session, 'first', { model: () => ({ text: 'ok' }) }));
    const before = structuredClone(session);
    const controller = new AbortController();
    let stopped = false;
    const model = async function* () {
      try {
        yield { type: 'tool-call', toolCallId: 'c1', toolName: 'transfer_to_billing', input: {} };
        yield { type: 'finish' };
      } finally {
        stopped = true;
      }
    };
    const never = async function* () {
      yield { type: 'text-delta', delta: 'waiting' };
      await new Promise(() => {});
    };
    let calls = 0;
    const turn = swarm.runTurn(session, 'second', { model: (r) => (++calls === 1 ? model(r) : never(r)), signal: controller.signal });
    await assert.rejects(async () => {
      for await (const event of turn) if (event.type === 'chunk') controller.abort(new Error('user left'));
    }, /user left/);
    assert.equal(stopped, true);
    assert.equal(calls, 2, 'the handoff happened, billing was streaming');
    assert.deepEqual(session, before);
  });
});

describe('applyToolCall takes tool calls as the SDKs give them', () => {
  const shapes = {
    'OpenAI Chat tool_calls[i]': { id: 'c1', type: 'function', function: { name: 'transfer_to_billing', arguments: '{"reason":"r"}' } },
    'Responses function_call': { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'transfer_to_billing', arguments: '{"reason":"r"}', status: 'completed' },
    'Anthropic tool_use': { type: 'tool_use', id: 'c1', name: 'transfer_to_billing', input: { reason: 'r' } },
    'AI SDK tool call': { type: 'tool-call', toolCallId: 'c1', toolName: 'transfer_to_billing', input: { reason: 'r' } },
    'AI SDK 4 tool call': { toolCallId: 'c1', toolName: 'transfer_to_billing', args: { reason: 'r' } },
  };
  for (const [name, call] of Object.entries(shapes)) {
    test(name, async () => {
      const swarm = new Swarm(DEFINITION);
      const session = swarm.createSession({ variables: { accountId: 'AC-1' } });
      const outcome = swarm.applyToolCall(session, call);
      assert.equal(outcome.type, 'handoff');
      assert.equal(outcome.reason, 'r');
      // And as a model's non-streamed answer: the history keeps { id, name, arguments }.
      const other = swarm.createSession({ variables: { accountId: 'AC-1' } });
      const script = [{ toolCalls: [call] }, { text: 'billing' }];
      const events = await collect(swarm.runTurn(other, 'x', { model: () => script.shift() }));
      assert.equal(events.find((e) => e.type === 'tool_use').call.id, 'c1');
      assert.equal(other.histories.triage.find((m) => m.role === 'tool').toolCallId, 'c1');
    });
  }
  test('a prototype is not a tool call; a call without a name is a TypeError naming the shapes', () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    assert.throws(() => swarm.applyToolCall(session, Object.create({ name: 'transfer_to_billing' })), /a tool call is .*Anthropic block/);
    assert.throws(() => swarm.applyToolCall(session, { type: 'function', function: { arguments: '{}' } }), /without a string name/);
    assert.throws(() => swarm.applyToolCall(session, { name: 'x', id: 5 }), /id must be a string/);
    assert.throws(() => swarm.toolResult({ type: 'tool' }), /handoff, handoff_blocked or rejected/);
  });
  test('tool results in each provider shape, with the call id', () => {
    const call = { id: 'c1', name: 'transfer_to_billing' };
    assert.deepEqual(toolResultMessage('openai-chat', call, 'done'), { role: 'tool', tool_call_id: 'c1', content: 'done' });
    assert.deepEqual(toolResultMessage('openai-responses', { type: 'function_call', call_id: 'c1', name: 'x' }, 'done'), { type: 'function_call_output', call_id: 'c1', output: 'done' });
    assert.deepEqual(toolResultMessage('anthropic', call, 'done'), { type: 'tool_result', tool_use_id: 'c1', content: 'done' });
    assert.deepEqual(toolResultMessage('ai-sdk', { toolCallId: 'c1', toolName: 'x' }, 'done'), { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'x', output: { type: 'text', value: 'done' } }] });
  });
});

describe('createModel', () => {
  const script = (provider, env) => `
    import { init, Swarm } from 'handoff-graph';
    import { createModel } from 'handoff-graph/adapters';
    await init();
    const swarm = new Swarm({ agents: [{ id: 'a', instructions: 'Be brief.' }] });
    const session = swarm.createSession();
    let text;
    for await (const e of swarm.runTurn(session, 'hi', { model: createModel({ provider: '${provider}', model: 'm' }) })) if (e.type === 'done') text = e.text;
    console.log(text);`;
  const node = (source, env) => run(process.execPath, ['--input-type=module', '-e', source], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });

  test('reads the key and base URL from the environment, for each provider', async () => {
    const server = await startProviderServer(() => ({ text: ['Hello', ' there.'] }));
    try {
      for (const [provider, env, path] of [
        ['openai', { OPENAI_API_KEY: 'k1', OPENAI_BASE_URL: server.openaiURL }, '/v1/chat/completions'],
        ['openai-responses', { OPENAI_API_KEY: 'k2', OPENAI_BASE_URL: server.openaiURL }, '/v1/responses'],
        ['anthropic', { ANTHROPIC_API_KEY: 'k3', ANTHROPIC_BASE_URL: server.url }, '/v1/messages'],
      ]) {
        const { stdout } = await node(script(provider), env);
        assert.equal(stdout.trim(), 'Hello there.', provider);
        const last = server.requests.at(-1);
        assert.equal(last.path, path);
        assert.ok(last.headers.authorization === `Bearer ${Object.values(env)[0]}` || last.headers['x-api-key'] === Object.values(env)[0], 'the key from the environment');
      }
    } finally {
      await server.close();
    }
  });

  test('a missing key is an error naming the variable; options are checked', () => {
    const saved = { ...process.env };
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      assert.throws(() => createModel({ provider: 'openai', model: 'm' }), /Set the OPENAI_API_KEY environment variable/);
      assert.throws(() => createModel({ provider: 'anthropic', model: 'm' }), /Set the ANTHROPIC_API_KEY environment variable/);
      assert.throws(() => createModel({ provider: 'gemini', model: 'm' }), /provider must be 'openai', 'openai-responses', 'anthropic'/);
      assert.throws(() => createModel({ provider: 'openai', model: 'm', apiKey: 'k', temprature: 1 }), /unknown option 'temprature' \(did you mean 'temperature'\?\)/);
      assert.throws(() => createModel({ provider: 'anthropic', apiKey: 'k' }), /model is required/);
      assert.equal(createModel({ provider: 'anthropic', model: 'm', apiKey: 'k' }).toolFormat, 'anthropic');
    } finally {
      Object.assign(process.env, saved);
    }
  });
});

describe('defineTool', () => {
  test('a zod 4 schema becomes the JSON Schema; the description comes from it when not given', () => {
    const lookup = defineTool({ name: 'lookup_invoice', parameters: z.object({ invoice: z.string().describe('the invoice number') }).describe('Looks an invoice up') });
    assert.deepEqual(lookup, {
      name: 'lookup_invoice',
      description: 'Looks an invoice up',
      parameters: { type: 'object', properties: { invoice: { type: 'string', description: 'the invoice number' } }, required: ['invoice'], additionalProperties: false },
    });
    const swarm = new Swarm({ agents: [{ id: 'billing', tools: [lookup] }] });
    assert.equal(swarm.tools(swarm.createSession(), 'anthropic')[0].input_schema.properties.invoice.type, 'string');
    const plain = defineTool({ name: 'ping', description: 'Pings', parameters: { type: 'object', properties: {} } });
    assert.equal(plain.description, 'Pings');
  });
  test('a tool with no description anywhere is a TypeError', () => {
    assert.throws(() => defineTool({ name: 'x', parameters: z.object({}) }), /needs a description/);
    assert.throws(() => defineTool({ name: 'x', parameters: 'string' }), /JSON Schema object or a zod 4 schema/);
    assert.throws(() => defineTool({ name: 'x', descripton: 'y' }), /did you mean 'description'/);
  });
});
