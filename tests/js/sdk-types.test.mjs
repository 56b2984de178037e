// Tool shapes for each SDK (issue 6, point 2). swarm.tools(session, format) on a small swarm with
// required variables is held to golden files, tests/golden/tools/FORMAT.json, byte for byte; the
// goldens are type-checked against the SDKs' published tool types (tsc -p tests/types/sdk, which
// reads them through the generated tests/types/sdk/goldens.ts; the same project checks the stores'
// typings against the `redis` client and the shipped tools() typings in shipped.ts); and each SDK's real client takes
// them, with no network: OpenAI and Anthropic clients with a fetch that answers locally, the AI SDK
// with its mock model, each answering with a transfer call that swarm.applyToolCall() routes.
//   UPDATE_GOLDEN=1 node --test tests/js/sdk-types.test.mjs   rewrites the goldens and goldens.ts
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import Anthropic from '@anthropic-ai/sdk';
import { generateText, jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';

import { init, Swarm, TOOL_FORMATS } from 'handoff-graph';

await init();

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = path.join(repo, 'tests/golden/tools');
const TYPES = path.join(repo, 'tests/types/sdk');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

// Triage with three LLM edges (one with a toolName override and a sanitized target id) and a rule
// edge (never offered); required variables from the state (not in the schema) and from the model
// (required properties, each JSON type).
const DEFINITION = {
  name: 'sdk-shapes',
  agents: [
    { id: 'triage', name: 'Triage', instructions: 'You triage support requests.', entry: true, handoffs: 3 },
    { id: 'billing', name: 'Billing', description: 'Invoices, refunds and payments' },
    { id: 'human', name: 'Human operator', description: 'A person on the support team' },
    { id: 'Spanish Desk', name: 'Spanish desk' },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "category == 'billing'" },
    {
      from: 'triage',
      to: 'billing',
      description: 'Billing questions the rules did not catch',
      requires: ['customerId', { name: 'accountId', from: 'model', type: 'string', description: 'The account number, e.g. AC-1234' }],
    },
    {
      from: 'triage',
      to: 'human',
      description: 'The user needs a human',
      requires: [
        'ticketId',
        { name: 'urgency', from: 'model', type: 'integer', description: '1 (low) to 5 (urgent)' },
        { name: 'callback', from: 'model', type: 'boolean' },
        { name: 'budget', from: 'model', type: 'number' },
      ],
    },
    { from: 'triage', to: 'Spanish Desk', toolName: 'hand_to_spanish_desk' },
  ],
};

const NAMES = { 'openai-responses': 'openaiResponses', 'openai-chat': 'openaiChat', anthropic: 'anthropic', 'ai-sdk': 'aiSdk' };
const text = (value) => `${JSON.stringify(value, null, 2)}\n`;

function fixture() {
  const swarm = new Swarm(DEFINITION);
  const session = swarm.createSession({ id: 'golden', variables: { customerId: 'C-7', ticketId: 'T-42' } });
  return { swarm, session };
}

function renderGoldensTs(outputs) {
  let out =
    '// Generated from tests/golden/tools/*.json by tests/js/sdk-types.test.mjs; do not edit\n' +
    '// (UPDATE_GOLDEN=1 node --test tests/js/sdk-types.test.mjs rewrites it). `as const` keeps the\n' +
    "// literal types ('function', 'object') that the SDKs' tool types ask for.\n";
  for (const format of TOOL_FORMATS) out += `\n// ${format}\nexport const ${NAMES[format]} = ${JSON.stringify(outputs[format], null, 2)} as const;\n`;
  return out;
}

function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n  golden: ${JSON.stringify(a[i])}\n  actual: ${JSON.stringify(b[i])}`;
  }
  return 'identical';
}

const read = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
};

describe('tool shapes: goldens', () => {
  const { swarm, session } = fixture();
  const outputs = Object.fromEntries(TOOL_FORMATS.map((format) => [format, swarm.tools(session, format)]));

  for (const format of TOOL_FORMATS) {
    test(`swarm.tools(session, '${format}') matches tests/golden/tools/${format}.json`, () => {
      const file = path.join(GOLDEN, `${format}.json`);
      const actual = text(outputs[format]);
      if (UPDATE) writeFileSync(file, actual);
      const expected = read(file);
      assert.notEqual(expected, null, `${file} is missing: UPDATE_GOLDEN=1 node --test tests/js/sdk-types.test.mjs writes it`);
      assert.ok(expected === actual, `${format} differs from its golden at ${firstDifference(expected, actual)}\n(UPDATE_GOLDEN=1 rewrites the goldens: review the diff)`);
    });
  }

  test('the goldens: three transfer tools, strict schemas, model variables required, state variables absent', () => {
    const chat = outputs['openai-chat'];
    assert.deepEqual(chat.map((t) => t.function.name), ['transfer_to_billing', 'transfer_to_human', 'hand_to_spanish_desk']);
    for (const { function: f } of chat) {
      assert.equal(f.strict, true);
      assert.equal(f.parameters.additionalProperties, false);
      assert.deepEqual(f.parameters.required, Object.keys(f.parameters.properties), 'strict mode: every property required');
      assert.deepEqual(f.parameters.properties.reason.type, ['string', 'null'], 'reason is optional by being nullable');
    }
    assert.deepEqual(chat[1].function.parameters.required, ['reason', 'urgency', 'callback', 'budget']);
    assert.ok(!('ticketId' in chat[1].function.parameters.properties) && !('customerId' in chat[0].function.parameters.properties));
    // The same name, description and schema in every format.
    const schemas = {
      'openai-responses': outputs['openai-responses'].map((t) => [t.name, t.description, t.parameters]),
      'openai-chat': chat.map((t) => [t.function.name, t.function.description, t.function.parameters]),
      anthropic: outputs.anthropic.map((t) => [t.name, t.description, t.input_schema]),
      'ai-sdk': Object.entries(outputs['ai-sdk']).map(([name, t]) => [name, t.description, t.inputSchema]),
    };
    for (const format of TOOL_FORMATS) assert.deepEqual(schemas[format], schemas['openai-chat'], format);
  });

  test('tests/types/sdk/goldens.ts holds the goldens', () => {
    const file = path.join(TYPES, 'goldens.ts');
    const goldens = Object.fromEntries(TOOL_FORMATS.map((f) => [f, JSON.parse(read(path.join(GOLDEN, `${f}.json`)) ?? 'null')]));
    const actual = renderGoldensTs(goldens);
    if (UPDATE) writeFileSync(file, actual);
    const expected = read(file);
    assert.ok(expected === actual, `goldens.ts is out of date at ${firstDifference(expected ?? '', actual)}\n(UPDATE_GOLDEN=1 rewrites it)`);
  });
});

test('tsc -p tests/types/sdk: the goldens against openai, @anthropic-ai/sdk and ai; the stores\' typings against redis; the shipped tools() typings', { timeout: 120_000 }, async (t) => {
  const started = performance.now();
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', TYPES, '--pretty', 'false'], { cwd: repo, maxBuffer: 16 << 20 }).catch((error) => error);
  assert.equal(result.code ?? 0, 0, `tsc found errors:\n${result.stdout}${result.stderr}`);
  const version = (name) => JSON.parse(readFileSync(path.join(repo, 'node_modules', name, 'package.json'), 'utf8')).version;
  t.diagnostic(`tsc ${version('typescript')}: openai ${version('openai')}, @anthropic-ai/sdk ${version('@anthropic-ai/sdk')}, ai ${version('ai')} in ${(performance.now() - started).toFixed(0)} ms`);
});

// ------------------------------------------------------------------------------------------
// The real clients, no network: a fetch that records the request and answers with a transfer call.

function localFetch(answer) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url: String(url), body: JSON.parse(init.body) });
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'local' } });
  };
  return { fetch, requests };
}

const HUMAN_ARGS = { reason: 'asked for a person', urgency: 4, callback: true, budget: 12.5 };

function expectHandoff(swarm, session, call) {
  const outcome = swarm.applyToolCall(session, call);
  assert.deepEqual(outcome, {
    type: 'handoff',
    via: 'tool',
    from: 'triage',
    to: 'human',
    edge: 2,
    tool: 'transfer_to_human',
    requiredVariables: ['ticketId', 'urgency', 'callback', 'budget'],
    resolvedVariables: { urgency: 4, callback: true, budget: 12.5, ticketId: 'T-42' },
    variables: { urgency: 4, callback: true, budget: 12.5, ticketId: 'T-42' },
    reason: 'asked for a person',
  });
}

describe('the SDK clients take the tools and their calls route (no network)', () => {
  test('openai: client.responses.create', async () => {
    const { swarm, session } = fixture();
    const tools = swarm.tools(session, 'openai-responses');
    const { fetch, requests } = localFetch({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'local-model',
      output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'transfer_to_human', arguments: JSON.stringify(HUMAN_ARGS), status: 'completed' }],
    });
    const client = new OpenAI({ apiKey: 'local', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
    const response = await client.responses.create({ model: 'local-model', input: 'a person please', tools });
    assert.deepEqual(requests[0].body.tools, tools);
    assert.match(requests[0].url, /\/responses$/);
    const call = response.output.find((item) => item.type === 'function_call');
    expectHandoff(swarm, session, { id: call.call_id, name: call.name, arguments: call.arguments });
  });

  test('openai: client.chat.completions.create', async () => {
    const { swarm, session } = fixture();
    const tools = swarm.tools(session, 'openai-chat');
    const { fetch, requests } = localFetch({
      id: 'chatcmpl_1',
      object: 'chat.completion',
      created: 0,
      model: 'local-model',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'transfer_to_human', arguments: JSON.stringify(HUMAN_ARGS) } }] },
        },
      ],
    });
    const client = new OpenAI({ apiKey: 'local', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'local-model', messages: [{ role: 'user', content: 'a person please' }], tools });
    assert.deepEqual(requests[0].body.tools, tools);
    const [call] = completion.choices[0].message.tool_calls;
    expectHandoff(swarm, session, { id: call.id, name: call.function.name, arguments: call.function.arguments });
  });

  test('@anthropic-ai/sdk: client.messages.create', async () => {
    const { swarm, session } = fixture();
    const tools = swarm.tools(session, 'anthropic');
    const { fetch, requests } = localFetch({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'local-model',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'transfer_to_human', input: HUMAN_ARGS }],
    });
    const client = new Anthropic({ apiKey: 'local', baseURL: 'http://127.0.0.1:9', fetch, maxRetries: 0 });
    const message = await client.messages.create({ model: 'local-model', max_tokens: 256, messages: [{ role: 'user', content: 'a person please' }], tools });
    assert.deepEqual(requests[0].body.tools, tools);
    const use = message.content.find((block) => block.type === 'tool_use');
    expectHandoff(swarm, session, { id: use.id, name: use.name, input: use.input });
  });

  test("ai: generateText takes the 'ai-sdk' tools once each inputSchema is wrapped in jsonSchema()", async () => {
    const { swarm, session } = fixture();
    const raw = swarm.tools(session, 'ai-sdk');
    const model = () =>
      new MockLanguageModelV3({
        doGenerate: {
          content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'transfer_to_human', input: JSON.stringify(HUMAN_ARGS) }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
          warnings: [],
        },
      });
    // As generated: the AI SDK does not take a plain JSON Schema as inputSchema.
    const unwrapped = await generateText({ model: model(), prompt: 'a person please', tools: raw }).then(
      () => null,
      (error) => error,
    );
    assert.ok(unwrapped instanceof Error, 'generateText took a plain JSON Schema as inputSchema');
    // Wrapped: the model is given exactly our schemas, and the call it makes routes.
    const tools = Object.fromEntries(Object.entries(raw).map(([name, t]) => [name, tool({ ...t, inputSchema: jsonSchema(t.inputSchema) })]));
    const mock = model();
    const result = await generateText({ model: mock, prompt: 'a person please', tools });
    const sent = mock.doGenerateCalls[0].tools;
    assert.deepEqual(
      sent.map((t) => [t.type, t.name, t.description, t.inputSchema]),
      Object.entries(raw).map(([name, t]) => ['function', name, t.description, t.inputSchema]),
    );
    const [call] = result.toolCalls;
    expectHandoff(swarm, session, { id: call.toolCallId, name: call.toolName, input: call.input });
  });
});
