// OpenTelemetry spans of Swarm turns and StateMachine runs, recorded by the real OpenTelemetry SDK
// (BasicTracerProvider, InMemorySpanExporter, the AsyncLocalStorage context manager): span names,
// parent/child nesting, attributes (gen_ai.* where the GenAI conventions apply, handoff_graph.*
// for the rest), errors, the three ways to turn spans on or off, and the options' checks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, beforeEach, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

import { END, init, StateMachine, Swarm } from 'handoff-graph';

await init();

const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
const globalExporter = new InMemorySpanExporter();
const globalProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(globalExporter)] });
trace.setGlobalTracerProvider(globalProvider);
const appTracer = trace.getTracer('the-application');

after(async () => {
  await globalProvider.shutdown();
  context.disable();
});
beforeEach(() => globalExporter.reset());

const DEFINITION = {
  name: 'helpdesk',
  agents: [
    { id: 'triage', entry: true },
    { id: 'billing', tools: [{ name: 'lookup', description: 'Look an invoice up', parameters: { type: 'object', properties: { invoice: { type: 'string' } } } }] },
    { id: 'tech' },
  ],
  edges: [
    { from: 'triage', to: 'billing', when: "topic == 'billing'" },
    { from: 'triage', to: 'tech', description: 'technical questions' },
  ],
};

async function collect(events) {
  const out = [];
  for await (const event of events) out.push(event);
  return out;
}

// The finished spans as a tree of { name, children }, children in start order (spans started in
// the same clock tick: in the order they ended, which is the order they started for the spans
// without children that handoff-graph ends at once).
function tree(spans) {
  const byId = new Map(spans.map((s, index) => [s.spanContext().spanId, { span: s, index, children: [] }]));
  const roots = [];
  for (const node of byId.values()) {
    const parent = node.span.parentSpanContext?.spanId;
    if (parent !== undefined && byId.has(parent)) byId.get(parent).children.push(node);
    else roots.push(node);
  }
  const order = (nodes) => nodes.sort((a, b) => hr(a.span.startTime) - hr(b.span.startTime) || a.index - b.index);
  const shape = (node) => ({ name: node.span.name, children: order(node.children).map(shape) });
  return { roots: order(roots), shape: order(roots).map(shape) };
}
const hr = ([seconds, nanos]) => seconds * 1e9 + nanos;
const named = (spans, name) => spans.filter((s) => s.name === name);

describe('OpenTelemetry spans of a Swarm turn', () => {
  test('turn ⊃ route, handoff, model calls, tool call; application spans nest in the model call and the tool', async () => {
    const swarm = new Swarm(DEFINITION, {
      extractVariables: (input) => (input.includes('invoice') ? { topic: 'billing' } : undefined),
      handlers: { lookup: ({ invoice }) => appTracer.startActiveSpan('db.query', (span) => (span.end(), { invoice, amount: 42 })) },
    });
    const session = swarm.createSession({ id: 'session-1' });
    const script = [{ toolCalls: [{ id: 'call-1', name: 'lookup', arguments: { invoice: 'A7' } }], usage: { inputTokens: 12, outputTokens: 3 }, finishReason: 'tool_calls' }, { text: 'It is 42.' }];
    const model = () => appTracer.startActiveSpan('http.request', async (span) => {
      span.end();
      return script.shift();
    });
    await appTracer.startActiveSpan('POST /turns', async (request) => {
      await collect(swarm.runTurn(session, 'about invoice A7', { model, agentConfig: { billing: { model: 'gpt-test' } } }));
      request.end();
    });
    const spans = globalExporter.getFinishedSpans();
    const { shape } = tree(spans);
    assert.deepEqual(shape, [{
      name: 'POST /turns',
      children: [{
        name: 'invoke_agent triage',
        children: [
          { name: 'handoff_graph.route', children: [] },
          { name: 'handoff_graph.handoff', children: [] },
          { name: 'handoff_graph.route', children: [] },
          { name: 'chat gpt-test', children: [{ name: 'http.request', children: [] }] },
          { name: 'execute_tool lookup', children: [{ name: 'db.query', children: [] }] },
          { name: 'chat gpt-test', children: [{ name: 'http.request', children: [] }] },
        ],
      }],
    }]);
    const [turn] = named(spans, 'invoke_agent triage');
    assert.deepEqual(turn.attributes, {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'triage',
      'gen_ai.conversation.id': 'session-1',
      'handoff_graph.swarm': 'helpdesk',
      'handoff_graph.turn': 1,
      'handoff_graph.turn.reason': 'answered',
      'handoff_graph.agent.final': 'billing',
    });
    assert.equal(turn.status.code, SpanStatusCode.UNSET);
    const [matched, unmatched] = named(spans, 'handoff_graph.route');
    assert.deepEqual(matched.attributes, {
      'handoff_graph.swarm': 'helpdesk', 'gen_ai.agent.name': 'triage', 'handoff_graph.route.matched': true,
      'handoff_graph.edge.index': 0, 'handoff_graph.edge.to': 'billing', 'handoff_graph.edge.condition': "topic == 'billing'",
    });
    assert.deepEqual(unmatched.attributes, { 'handoff_graph.swarm': 'helpdesk', 'gen_ai.agent.name': 'billing', 'handoff_graph.route.matched': false });
    const [handoff] = named(spans, 'handoff_graph.handoff');
    assert.equal(handoff.attributes['handoff_graph.handoff.from'], 'triage');
    assert.equal(handoff.attributes['handoff_graph.handoff.to'], 'billing');
    assert.equal(handoff.attributes['handoff_graph.edge.index'], 0);
    const [firstCall, secondCall] = named(spans, 'chat gpt-test');
    assert.equal(firstCall.kind, 2, 'a model call is a CLIENT span');
    assert.deepEqual(firstCall.attributes, {
      'gen_ai.operation.name': 'chat', 'gen_ai.agent.name': 'billing', 'gen_ai.request.model': 'gpt-test', 'handoff_graph.tools.offered': 1,
      'gen_ai.response.finish_reasons': ['tool_calls'], 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 3, 'handoff_graph.tool_calls': 1,
    });
    assert.equal(secondCall.attributes['handoff_graph.tool_calls'], 0);
    const [tool] = named(spans, 'execute_tool lookup');
    assert.deepEqual(tool.attributes, {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.agent.name': 'billing', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call-1', 'handoff_graph.tool.by': 'handler',
    });
    // Every span of the turn is in one trace: the application's.
    assert.equal(new Set(spans.map((s) => s.spanContext().traceId)).size, 1);
  });

  test('an LLM transfer is a handoff span naming the transfer tool; a model without a known name is "chat"', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const model = ({ agent }) => (agent.id === 'triage' ? { toolCalls: [{ id: 't1', name: 'transfer_to_tech', arguments: {} }] } : { text: 'reboot' });
    await collect(swarm.runTurn(session, 'my router', { model }));
    const spans = globalExporter.getFinishedSpans();
    assert.deepEqual(tree(spans).shape, [{
      name: 'invoke_agent triage',
      children: [
        { name: 'handoff_graph.route', children: [] },
        { name: 'chat', children: [] },
        { name: 'handoff_graph.handoff', children: [] },
        { name: 'handoff_graph.route', children: [] },
        { name: 'chat', children: [] },
      ],
    }]);
    const [handoff] = named(spans, 'handoff_graph.handoff');
    assert.equal(handoff.attributes['gen_ai.tool.name'], 'transfer_to_tech');
    assert.equal(handoff.attributes['handoff_graph.handoff.to'], 'tech');
    assert.equal(handoff.attributes['handoff_graph.edge.index'], 1);
  });

  test('a model that throws: its span and the turn\'s are ERROR with the exception recorded', async () => {
    const swarm = new Swarm(DEFINITION);
    const session = swarm.createSession();
    const model = async () => {
      throw new RangeError('rate limited');
    };
    await assert.rejects(collect(swarm.runTurn(session, 'hi', { model })), /rate limited/);
    const spans = globalExporter.getFinishedSpans();
    for (const name of ['chat', 'invoke_agent triage']) {
      const [span] = named(spans, name);
      assert.equal(span.status.code, SpanStatusCode.ERROR, name);
      assert.equal(span.status.message, 'rate limited');
      assert.equal(span.attributes['error.type'], 'RangeError');
      const [exception] = span.events;
      assert.equal(exception.name, 'exception');
      assert.equal(exception.attributes['exception.message'], 'rate limited');
      assert.equal(exception.attributes['exception.type'], 'RangeError');
    }
  });

  test('a tool handler that throws: the tool span is ERROR; a consumer that stops early still ends every span', async () => {
    const swarm = new Swarm(DEFINITION, { handlers: { lookup: () => { throw new Error('database down'); } } });
    const session = swarm.createSession({ variables: { topic: 'billing' } });
    const model = () => ({ toolCalls: [{ id: 'c', name: 'lookup', arguments: {} }] });
    await assert.rejects(collect(swarm.runTurn(session, 'invoice?', { model })), /database down/);
    const [tool] = named(globalExporter.getFinishedSpans(), 'execute_tool lookup');
    assert.equal(tool.status.code, SpanStatusCode.ERROR);
    assert.equal(tool.events[0].attributes['exception.message'], 'database down');

    globalExporter.reset();
    const other = swarm.createSession();
    for await (const event of swarm.runTurn(other, 'hello', { model: () => ({ text: 'hi' }) })) if (event.type === 'open') break;
    const spans = globalExporter.getFinishedSpans();
    assert.deepEqual(spans.map((s) => s.name), ['invoke_agent triage'], 'the turn span ends when the consumer returns');
  });

  test('an approval: the paused turn and the resumed one are two turn spans, the second naming the approval', async () => {
    const swarm = new Swarm({ ...DEFINITION, edges: [{ from: 'triage', to: 'tech', description: 'technical', approval: true }] });
    const session = swarm.createSession();
    const model = ({ agent }) => (agent.id === 'triage' ? { toolCalls: [{ id: 't', name: 'transfer_to_tech', arguments: {} }] } : { text: 'done' });
    const paused = await collect(swarm.runTurn(session, 'router', { model }));
    const { approvalId } = paused.at(-1);
    await collect(swarm.resolveApproval(session, approvalId, { approve: true, model }));
    const turns = globalExporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent triage');
    assert.equal(turns.length, 2);
    assert.equal(turns[0].attributes['handoff_graph.turn.reason'], 'approval-required');
    assert.equal(turns[1].attributes['handoff_graph.approval.id'], approvalId);
    assert.equal(turns[1].attributes['handoff_graph.turn.reason'], 'answered');
  });

  test("an agent tool's nested conversation: invoke_agent under the caller's execute_tool, its model and tool calls inside", async () => {
    const swarm = new Swarm({
      name: 'lab',
      agents: [
        { id: 'manager', entry: true, tools: [{ name: 'ask_critic', description: 'Ask the critic' }] },
        { id: 'critic', tools: [{ name: 'cite', description: 'Find a source' }] },
      ],
      edges: [],
    }, { agentTools: { ask_critic: 'critic' }, handlers: { cite: () => appTracer.startActiveSpan('db.query', (span) => (span.end(), 'a source')) } });
    const script = [
      { toolCalls: [{ id: 'm1', name: 'ask_critic', arguments: { input: 'check' } }] },
      { toolCalls: [{ id: 'c1', name: 'cite', arguments: {} }] },
      { text: 'It holds.' },
      { text: 'Checked.' },
    ];
    await collect(swarm.runTurn(swarm.createSession({ id: 'lab-1' }), 'go', { model: () => script.shift() }));
    const spans = globalExporter.getFinishedSpans();
    assert.deepEqual(tree(spans).shape, [{
      name: 'invoke_agent manager',
      children: [
        { name: 'handoff_graph.route', children: [] },
        { name: 'chat', children: [] },
        {
          name: 'execute_tool ask_critic',
          children: [{
            name: 'invoke_agent critic',
            children: [
              { name: 'chat', children: [] },
              { name: 'execute_tool cite', children: [{ name: 'db.query', children: [] }] },
              { name: 'chat', children: [] },
            ],
          }],
        },
        { name: 'chat', children: [] },
      ],
    }]);
    const [asked] = named(spans, 'execute_tool ask_critic');
    assert.deepEqual(asked.attributes, {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.agent.name': 'manager', 'gen_ai.tool.name': 'ask_critic', 'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'm1', 'handoff_graph.tool.by': 'agent',
    });
    const [nested] = named(spans, 'invoke_agent critic');
    assert.deepEqual(nested.attributes, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'critic', 'handoff_graph.swarm': 'lab' });
    assert.deepEqual(named(spans, 'chat').map((span) => span.attributes['gen_ai.agent.name']), ['manager', 'critic', 'critic', 'manager']);
  });

  test('a nested model call that throws: the nested agent, the tool and the turn spans are ERROR', async () => {
    const swarm = new Swarm({
      agents: [{ id: 'manager', entry: true, tools: [{ name: 'ask_critic', description: 'Ask the critic' }] }, { id: 'critic' }],
      edges: [],
    }, { agentTools: { ask_critic: 'critic' } });
    const model = (request) => {
      if (request.agent.id === 'critic') throw new Error('rate limited');
      return { toolCalls: [{ id: 'm1', name: 'ask_critic', arguments: {} }] };
    };
    await assert.rejects(collect(swarm.runTurn(swarm.createSession(), 'go', { model })), /rate limited/);
    const spans = globalExporter.getFinishedSpans();
    for (const name of ['chat', 'invoke_agent critic', 'execute_tool ask_critic', 'invoke_agent manager']) {
      const failed = named(spans, name).filter((span) => span.status.code === SpanStatusCode.ERROR);
      assert.equal(failed.length, 1, name);
      assert.equal(failed[0].status.message, 'rate limited');
    }
  });

  test('tracing: { tracerProvider } sends spans there, not to the global provider; tracing: false makes none', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const own = new Swarm(DEFINITION, { tracing: { tracerProvider: provider } });
    await collect(own.runTurn(own.createSession(), 'hi', { model: () => ({ text: 'hello' }) }));
    assert.deepEqual(exporter.getFinishedSpans().map((s) => s.name), ['handoff_graph.route', 'chat', 'invoke_agent triage']);
    assert.equal(exporter.getFinishedSpans()[0].instrumentationScope.name, 'handoff-graph');
    assert.deepEqual(globalExporter.getFinishedSpans(), []);

    const off = new Swarm(DEFINITION, { tracing: false });
    await collect(off.runTurn(off.createSession(), 'hi', { model: () => ({ text: 'hello' }) }));
    assert.deepEqual(globalExporter.getFinishedSpans(), []);
    await provider.shutdown();
  });

  test('tracing: { api } takes the API module itself (for runtimes where it cannot be imported)', async () => {
    const api = await import('@opentelemetry/api');
    const swarm = new Swarm(DEFINITION, { tracing: { api } });
    await collect(swarm.runTurn(swarm.createSession(), 'hi', { model: () => ({ text: 'hello' }) }));
    assert.equal(named(globalExporter.getFinishedSpans(), 'invoke_agent triage').length, 1);
  });

  test('options are checked: unknown keys named, wrong types refused', async () => {
    assert.throws(() => new Swarm(DEFINITION, { tracing: { tracerprovider: {} } }), /Swarm options\.tracing: unknown option 'tracerprovider' \(did you mean 'tracerProvider'\?\)/);
    assert.throws(() => new Swarm(DEFINITION, { tracing: { tracerProvider: {} } }), /tracerProvider must be an OpenTelemetry TracerProvider/);
    assert.throws(() => new Swarm(DEFINITION, { tracing: { api: {} } }), /tracing\.api must be the @opentelemetry\/api module/);
    assert.throws(() => new Swarm(DEFINITION, { tracing: true }), TypeError);
    const broken = new Swarm(DEFINITION, { tracing: { tracerProvider: { getTracer: () => null } } });
    await assert.rejects(collect(broken.runTurn(broken.createSession(), 'hi', { model: () => ({ text: 'x' }) })), /tracing\.tracerProvider\.getTracer\(\) returned null, not an OpenTelemetry Tracer/);
    assert.throws(() => new Swarm(DEFINITION, { tracng: {} }), /unknown option 'tracng' \(did you mean 'tracing'\?\)/);
  });
});

describe('OpenTelemetry spans of a StateMachine run', () => {
  const machine = () => {
    const m = new StateMachine({ name: 'review', start: 'draft' });
    m.addState('draft', ({ state }) => appTracer.startActiveSpan('llm.draft', (span) => (span.end(), { drafts: (state.drafts ?? 0) + 1 })));
    m.addState('check', () => ({}));
    m.addEdge('draft', 'check');
    m.addEdge('check', 'draft', 'drafts < 2');
    m.addEdge('check', END, { when: 'drafts >= 2', description: 'good enough' });
    return m;
  };

  test('run ⊃ step ⊃ (handler spans, route), with the condition that fired', async () => {
    const result = await machine().run({}, {});
    assert.equal(result.reason, 'end');
    const spans = globalExporter.getFinishedSpans();
    const step = (state) => ({ name: `handoff_graph.step ${state}`, children: [...(state === 'draft' ? [{ name: 'llm.draft', children: [] }] : []), { name: 'handoff_graph.route', children: [] }] });
    assert.deepEqual(tree(spans).shape, [{ name: 'invoke_workflow review', children: [step('draft'), step('check'), step('draft'), step('check')] }]);
    const [run] = named(spans, 'invoke_workflow review');
    assert.deepEqual(run.attributes, { 'gen_ai.operation.name': 'invoke_workflow', 'handoff_graph.machine': 'review', 'handoff_graph.run.reason': 'end', 'handoff_graph.run.steps': 4 });
    const steps = named(spans, 'handoff_graph.step check');
    assert.deepEqual(steps[1].attributes, {
      'handoff_graph.machine': 'review', 'handoff_graph.state': 'check', 'handoff_graph.step': 4, 'handoff_graph.visit': 2,
      'handoff_graph.step.next': END, 'handoff_graph.edge.index': 1,
    });
    const routes = named(spans, 'handoff_graph.route');
    assert.deepEqual(routes.at(-1).attributes, {
      'handoff_graph.route.matched': true, 'handoff_graph.edge.index': 1, 'handoff_graph.edge.to': END,
      'handoff_graph.edge.condition': 'drafts >= 2', 'handoff_graph.edge.description': 'good enough',
    });
    assert.deepEqual(routes[1].attributes['handoff_graph.edge.condition'], 'drafts < 2');
  });

  test('a handler that throws: its step and the run are ERROR; no edge matched: the route is unmatched', async () => {
    const m = new StateMachine({ name: 'fails', start: 'a' });
    m.addState('a', () => {
      throw new TypeError('bad input');
    });
    m.addEdge('a', END);
    await assert.rejects(m.run({}), /bad input/);
    let spans = globalExporter.getFinishedSpans();
    for (const name of ['handoff_graph.step a', 'invoke_workflow fails']) assert.equal(named(spans, name)[0].status.code, SpanStatusCode.ERROR, name);

    globalExporter.reset();
    const stuck = new StateMachine({ name: 'stuck', start: 'a' });
    stuck.addState('a', () => ({ n: 1 }));
    stuck.addEdge('a', END, 'n > 5');
    await assert.rejects(stuck.run({}), { name: 'NoEdgeMatchedError' });
    spans = globalExporter.getFinishedSpans();
    assert.deepEqual(named(spans, 'handoff_graph.route')[0].attributes, { 'handoff_graph.route.matched': false });
    assert.equal(named(spans, 'invoke_workflow stuck')[0].status.code, SpanStatusCode.ERROR);
  });

  test('stream() traces too; tracing: false and the options are checked', async () => {
    for await (const _ of machine().stream({})) { /* drain */ }
    assert.equal(named(globalExporter.getFinishedSpans(), 'invoke_workflow review').length, 1);
    globalExporter.reset();
    await machine().run({}, { tracing: false });
    assert.deepEqual(globalExporter.getFinishedSpans().map((span) => span.name), ['llm.draft', 'llm.draft'], "the handler's own spans only");
    await assert.rejects(machine().run({}, { tracing: { provider: {} } }), /run options\.tracing: unknown option 'provider'/);
  });
});

describe('without @opentelemetry/api', () => {
  test('no spans and no error when the application does not have the API (ESM and the CommonJS build)', () => {
    // A process whose module resolution cannot find @opentelemetry/api: a loader hook refuses it.
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const hook = `data:text/javascript,export async function resolve(s, c, next) { if (s.startsWith('@opentelemetry/')) throw Object.assign(new Error('not installed'), { code: 'ERR_MODULE_NOT_FOUND' }); return next(s, c); }`;
    const script = (entry) => `
      const require = (await import('node:module')).createRequire(process.cwd() + '/');
      const { init, Swarm } = ${entry};
      await init();
      const swarm = new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] });
      let text = '';
      for await (const e of swarm.runTurn(swarm.createSession(), 'hi', { model: () => ({ text: 'hello' }) })) if (e.type === 'done') text = e.text;
      console.log(text);`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(hook)});`;
    const run = (entry) => execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script(entry)], { cwd: root, encoding: 'utf8' });
    assert.equal(run("await import('handoff-graph')").trim(), 'hello');
    // The CommonJS build (dist/index.cjs) imports the API with import() too, which the hook sees.
    assert.equal(run("require('./dist/index.cjs')").trim(), 'hello');
  });

  test('the CommonJS build finds the API when the application has it', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const script = `
      const { trace } = require('@opentelemetry/api');
      const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
      const exporter = new InMemorySpanExporter();
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      const { init, Swarm } = require('./dist/index.cjs');
      (async () => {
        await init();
        const swarm = new Swarm({ agents: [{ id: 'a', entry: true }], edges: [] });
        for await (const _ of swarm.runTurn(swarm.createSession(), 'hi', { model: () => ({ text: 'hello' }) }));
        console.log(exporter.getFinishedSpans().map((s) => s.name).join(','));
      })();`;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
    assert.equal(out.trim(), 'handoff_graph.route,chat,invoke_agent a');
  });
});
