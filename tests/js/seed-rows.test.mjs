// The seed systems' rows (issue 17) end to end: through runTurn with scripted models, MAG's
// selection limit and continuation, SwarmForge's single transfer tool, handoff event, model
// request and queued intents, llm4s's agent status and failed turns; MAG's handoff-enabled
// StateMachine states through ctx.transfers; pictures of swarms, drawn by Graphviz. The routing
// decisions themselves are vectors (tests/vectors/handoffs.json, machines.json).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';

import { END, init, StateMachine, Swarm } from '../../js/node.js';

// Runs `command` with `input` on its standard input.
function runCommand(command, args, input) {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { maxBuffer: 16 << 20 }, (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })));
    child.stdin.end(input);
  });
}

await init();

// A model that answers from a script, one entry per call: { text } or { toolCalls }; a function
// entry is called with the request. It records each request.
function scripted(...answers) {
  const requests = [];
  const model = (request) => {
    requests.push(request);
    const next = answers.shift();
    if (next === undefined) throw new Error('the script ran out');
    return typeof next === 'function' ? next(request) : next;
  };
  return Object.assign(model, { requests });
}
const call = (name, args = {}, id = `call_${name}`) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

async function run(swarm, session, input, options) {
  const events = [];
  for await (const event of swarm.runTurn(session, input, options)) events.push(event);
  return events;
}

const MAG = {
  name: 'research',
  agents: [
    { id: 'deep_searcher', entry: true, description: 'Searches deeper when the findings are not enough' },
    { id: 'progress_checker', handoffs: 2, outputNodes: ['doc_generator', 'deep_searcher'] },
    { id: 'doc_generator', description: 'Writes the documentation once the findings suffice' },
  ],
  edges: [
    { from: 'deep_searcher', to: 'progress_checker' },
    { from: 'progress_checker', to: 'doc_generator', continuation: true },
  ],
};

describe('MAG handoffs', () => {
  test('toJSON: outputNodes become the agent\'s LLM edges, handoffs null and continuation stay; the result loads again as the same swarm', () => {
    const swarm = new Swarm({ ...MAG, agents: [...MAG.agents, { id: 'archive', handoffs: null }], edges: [...MAG.edges, { from: 'archive', to: 'doc_generator', continuation: true }] });
    const json = swarm.toJSON();
    assert.deepEqual(json.agents[1], { id: 'progress_checker', handoffs: 2 });
    assert.deepEqual(json.agents[3], { id: 'archive', handoffs: null });
    assert.deepEqual(json.edges.slice(1), [
      { from: 'progress_checker', to: 'doc_generator', continuation: true },
      { from: 'archive', to: 'doc_generator', continuation: true },
      { from: 'progress_checker', to: 'doc_generator', toolName: 'transfer_to_doc_generator' },
      { from: 'progress_checker', to: 'deep_searcher', toolName: 'transfer_to_deep_searcher' },
    ]);
    const again = new Swarm(json);
    assert.deepEqual(again.toJSON(), json);
    swarm.dispose();
    again.dispose();
  });

  test('runTurn: the checker loops back twice, then has no transfer tools and the workflow continues to doc_generator', async () => {
    const swarm = new Swarm(MAG);
    const session = swarm.createSession();
    const model = scripted(
      call('transfer_to_progress_checker', {}, 'c1'),
      call('transfer_to_deep_searcher', { reason: 'thin' }, 'c2'),
      call('transfer_to_progress_checker', {}, 'c3'),
      call('transfer_to_deep_searcher', { reason: 'still thin' }, 'c4'),
      call('transfer_to_progress_checker', {}, 'c5'),
      { text: 'The documentation.' },
    );
    const events = await run(swarm, session, 'Research WebAssembly GC', { model });
    const handoffs = events.filter((e) => e.type === 'handoff').map((e) => `${e.via}:${e.from}>${e.to}`);
    assert.deepEqual(handoffs, [
      'tool:deep_searcher>progress_checker', 'tool:progress_checker>deep_searcher', 'tool:deep_searcher>progress_checker',
      'tool:progress_checker>deep_searcher', 'tool:deep_searcher>progress_checker', 'continuation:progress_checker>doc_generator',
    ]);
    // The checker was offered both targets, described by the agents' descriptions, while it had selections left.
    const checkerTools = model.requests[1].tools.map((t) => [t.function.name, t.function.description]);
    assert.deepEqual(checkerTools, [
      ['transfer_to_doc_generator', 'Writes the documentation once the findings suffice'],
      ['transfer_to_deep_searcher', 'Searches deeper when the findings are not enough'],
    ]);
    assert.equal(model.requests.at(-1).agent.id, 'doc_generator');
    assert.deepEqual(events.at(-1).text, 'The documentation.');
    assert.deepEqual(session.selections, { deep_searcher: 3, progress_checker: 2 });
    swarm.dispose();
  });
});

describe('SwarmForge orchestration', () => {
  const SUPPORT = {
    transferTools: 'single',
    agents: [
      { id: 'triage', name: 'Triage', instructions: 'You triage support requests.', entry: true },
      { id: 'billing', name: 'Billing', instructions: 'You handle billing.' },
    ],
    edges: [{ from: 'triage', to: 'billing', description: 'Transfer billing issues after intent confirmation.', requires: ['account_id'] }],
  };

  test('the seed\'s flow: open, tool_use, handoff (requiredVariables, resolvedVariables), chunk, done; the request carries variables and config, the raw response is reported', async () => {
    const extractVariables = (input) => (input.includes('ACME-991') ? { account_id: 'ACME-991' } : {});
    const swarm = new Swarm(SUPPORT, { extractVariables });
    const session = swarm.createSession();
    const model = scripted(
      () => ({ ...call('transfer_to_agent', { agent: 'billing', reason: 'a charge' }), raw: { id: 'resp_1', model: 'scripted' } }),
      { text: 'I see the charge on ACME-991.' },
    );
    const events = await run(swarm, session, 'I need help with a charge on account ACME-991.', { model, agentConfig: { triage: { temperature: 0 } } });
    assert.deepEqual(events.map((e) => e.type), ['open', 'response', 'tool_use', 'handoff', 'tool_result', 'chunk', 'done']);
    const handoff = events.find((e) => e.type === 'handoff');
    assert.deepEqual({ from: handoff.from, to: handoff.to, requiredVariables: handoff.requiredVariables, resolvedVariables: handoff.resolvedVariables },
      { from: 'triage', to: 'billing', requiredVariables: ['account_id'], resolvedVariables: { account_id: 'ACME-991' } });
    assert.deepEqual(events.find((e) => e.type === 'response').raw, { id: 'resp_1', model: 'scripted' });
    const [first, second] = model.requests;
    assert.deepEqual([first.variables, first.config, second.config], [{ account_id: 'ACME-991' }, { temperature: 0 }, {}]);
    assert.deepEqual(first.tools.map((t) => t.function.name), ['transfer_to_agent']);
    assert.deepEqual(first.tools[0].function.parameters.properties.agent.enum, ['billing']);
    swarm.dispose();
  });

  test('visibleVariables: the agent\'s model requests carry only those variables; toJSON keeps them', async () => {
    const swarm = new Swarm({ agents: [{ id: 'a', visibleVariables: ['account_id', 'missing'] }] });
    const session = swarm.createSession({ variables: { account_id: 'A-1', secret: 'k' } });
    const model = scripted({ text: 'ok' });
    await run(swarm, session, 'hi', { model });
    assert.deepEqual(model.requests[0].variables, { account_id: 'A-1' });
    assert.deepEqual(swarm.toJSON().agents[0].visibleVariables, ['account_id', 'missing']);
    swarm.dispose();
  });

  test('queued intents: each routed by its variables and answered in order; done joins the answers and lists them', async () => {
    const swarm = new Swarm({
      agents: [{ id: 'triage', entry: true }, { id: 'billing' }, { id: 'shipping' }],
      edges: [
        { from: 'triage', to: 'billing', when: "topic == 'billing'" },
        { from: 'triage', to: 'shipping', when: "topic == 'shipping'" },
        { from: 'billing', to: 'shipping', when: "topic == 'shipping'" },
        { from: 'shipping', to: 'billing', when: "topic == 'billing'" },
      ],
    }, {
      extractIntents: (input) => input.split(' and ').map((text) => ({ text, variables: { topic: text.includes('refund') ? 'billing' : 'shipping' } })),
    });
    const session = swarm.createSession();
    const model = scripted((r) => ({ text: `${r.agent.id}: refund started` }), (r) => ({ text: `${r.agent.id}: parcel arrives Monday` }));
    const events = await run(swarm, session, 'refund my order and where is my parcel', { model });
    assert.deepEqual(events.map((e) => (e.type === 'handoff' ? `handoff>${e.to}` : e.type)), [
      'open', 'intent', 'handoff>billing', 'chunk', 'intent_done', 'intent', 'handoff>shipping', 'chunk', 'intent_done', 'done',
    ]);
    const done = events.at(-1);
    assert.equal(done.text, 'billing: refund started\n\nshipping: parcel arrives Monday');
    assert.deepEqual(done.answers.map((a) => [a.index, a.intent, a.agent, a.reason]), [
      [0, 'refund my order', 'billing', 'answered'], [1, 'where is my parcel', 'shipping', 'answered'],
    ]);
    assert.deepEqual(done.queued, []);
    assert.deepEqual(session.histories.shipping.map((m) => m.content), ['refund my order', 'billing: refund started', 'where is my parcel', 'shipping: parcel arrives Monday']);
    swarm.dispose();
  });

  test('queued intents: an intent that does not end answered ends the turn, the rest are done.queued; bad intents are TypeErrors', async () => {
    const swarm = new Swarm({ agents: [{ id: 'a' }] }, { extractIntents: () => ['one', 'two', 'three'] });
    const session = swarm.createSession();
    const events = await run(swarm, session, 'x', { model: scripted(), maxModelCalls: 0 });
    const done = events.at(-1);
    assert.deepEqual([done.reason, done.queued, done.answers.length], ['max-model-calls', ['two', 'three'], 1]);
    for (const [intents, message] of [[{}, /must return an array/], [[{ text: 1 }], /intent 0: text must be a string/], [[{ text: 'x', vars: {} }], /unknown option 'vars'/]]) {
      const bad = new Swarm({ agents: [{ id: 'a' }] }, { extractIntents: () => intents });
      await assert.rejects(run(bad, bad.createSession(), 'x', { model: scripted({ text: 'ok' }) }), message);
      bad.dispose();
    }
    assert.throws(() => new Swarm({ agents: [{ id: 'a' }] }, { extractIntents: 'x' }), /options.extractIntents must be a function/);
    swarm.dispose();
  });
});

describe('llm4s agent status', () => {
  const DEF = {
    agents: [{ id: 'general', entry: true, tools: [{ name: 'lookup', description: 'Looks a thing up' }] }, { id: 'specialist' }],
    edges: [{ from: 'general', to: 'specialist' }],
  };

  test('status events (opt-in): in_progress, waiting_for_tools, handoff_requested, in_progress, complete; the session keeps the last', async () => {
    const swarm = new Swarm(DEF, { mocks: { lookup: { found: true } } });
    const session = swarm.createSession();
    assert.equal(session.status, undefined);
    const model = scripted(call('lookup'), call('transfer_to_specialist', { reason: 'physics' }), { text: 'Entanglement is…' });
    const events = await run(swarm, session, 'Explain entanglement', { model, statusEvents: true });
    assert.deepEqual(events.filter((e) => e.type === 'status').map((e) => [e.status, e.agent, e.to]), [
      ['in_progress', 'general', undefined], ['waiting_for_tools', 'general', undefined], ['in_progress', 'general', undefined],
      ['waiting_for_tools', 'general', undefined], ['handoff_requested', 'general', 'specialist'], ['in_progress', 'specialist', undefined],
      ['complete', 'specialist', undefined],
    ]);
    assert.equal(events.find((e) => e.status === 'handoff_requested').reason, 'physics');
    assert.equal(session.status, 'complete');
    const quiet = await run(swarm, swarm.createSession(), 'hi', { model: scripted({ text: 'hello' }) });
    assert.ok(!quiet.some((e) => e.type === 'status'), 'no status events unless asked');
    await assert.rejects(swarm.runTurn(session, 'x', { model, statusEvents: 1 }).next(), /statusEvents must be true or false/);
    swarm.dispose();
  });

  test('a model error: an error event, the session as before the turn and marked failed, the error rethrown; the turn can be retried', async () => {
    const swarm = new Swarm(DEF, { mocks: { lookup: 'ok' } });
    const session = swarm.createSession();
    await run(swarm, session, 'first', { model: scripted({ text: 'one' }) });
    const before = structuredClone(session);
    const events = [];
    const failing = scripted(call('lookup'), () => {
      throw new Error('rate limited');
    });
    await assert.rejects(async () => {
      for await (const e of swarm.runTurn(session, 'second', { model: failing, statusEvents: true })) events.push(e);
    }, /rate limited/);
    assert.deepEqual(events.slice(-2), [
      { type: 'status', status: 'failed', agent: 'general', error: 'rate limited' },
      { type: 'error', agent: 'general', source: 'model', message: 'rate limited' },
    ]);
    const { status, error, ...rest } = session;
    assert.deepEqual([status, error], ['failed', 'rate limited']);
    const { status: _complete, ...beforeTurn } = before;
    assert.deepEqual(rest, beforeTurn, 'everything else as before the turn');
    const retried = await run(swarm, session, 'second', { model: scripted({ text: 'two' }) });
    assert.equal(retried.at(-1).text, 'two');
    assert.equal(session.status, 'complete');
    assert.equal(session.error, undefined);
    assert.equal(session.turn, 2);
    assert.deepEqual(session.histories.general.map((m) => m.content), ['first', 'one', 'second', 'two']);
    swarm.dispose();
  });

  test('a tool handler error fails the turn the same way, naming the tool', async () => {
    const swarm = new Swarm(DEF, { handlers: { lookup: () => { throw new Error('db down'); } } });
    const session = swarm.createSession();
    const events = [];
    await assert.rejects(async () => {
      for await (const e of swarm.runTurn(session, 'q', { model: scripted(call('lookup')) })) events.push(e);
    }, /db down/);
    assert.deepEqual(events.at(-1), { type: 'error', agent: 'general', source: 'tool', tool: 'lookup', message: 'db down' });
    assert.deepEqual([session.status, session.turn, session.histories.general, session.checkpoints], ['failed', 0, [], []]);
    swarm.dispose();
  });
});

describe('MAG handoffs in a workflow: handoff-enabled StateMachine states', () => {
  // deep_searcher -> progress_checker, which the model sends back to deep_searcher or on to
  // doc_generator through its transfers (twice at most), then its regular edge continues.
  function research(choose) {
    const offered = [];
    const machine = new StateMachine({ name: 'research', start: 'deep_searcher' })
      .addState('deep_searcher', (ctx) => ({ searches: ctx.visit }))
      .addState('progress_checker', (ctx) => {
        offered.push(ctx.transfers.map((t) => `${t.name}: ${t.description}`));
        const choice = choose(ctx);
        if (choice !== null) ctx.transfer(choice);
      }, { handoffs: 2 })
      .addState('doc_generator', () => ({ doc: 'written' }))
      .addEdge('deep_searcher', 'progress_checker')
      .addEdge('progress_checker', 'doc_generator', { transfer: true, description: 'The findings suffice' })
      .addEdge('progress_checker', 'deep_searcher', { transfer: true })
      .addEdge('progress_checker', 'doc_generator')
      .addEdge('doc_generator', END);
    return { machine, offered };
  }

  test('the model loops twice, then the transfers are gone and the regular edge continues', async () => {
    const { machine, offered } = research((ctx) => (ctx.transfers.length > 0 ? 'transfer_to_deep_searcher' : null));
    const run = await machine.run();
    assert.deepEqual(run.steps.map((s) => `${s.state}>${s.next}#${s.edge}`), [
      'deep_searcher>progress_checker#0', 'progress_checker>deep_searcher#1', 'deep_searcher>progress_checker#0',
      'progress_checker>deep_searcher#1', 'deep_searcher>progress_checker#0', 'progress_checker>doc_generator#2', 'doc_generator>__end__#0',
    ]);
    assert.deepEqual(offered, [
      ['transfer_to_doc_generator: The findings suffice', "transfer_to_deep_searcher: Go on to state 'deep_searcher'."],
      ['transfer_to_doc_generator: The findings suffice', "transfer_to_deep_searcher: Go on to state 'deep_searcher'."],
      [],
    ]);
    machine.dispose();
  });

  test('ctx.transfers is frozen; transfer() refuses what is not offered (RangeError) and non-strings (TypeError); other states offer nothing', async () => {
    const seen = [];
    const { machine } = research((ctx) => {
      assert.ok(Object.isFrozen(ctx.transfers) && Object.isFrozen(ctx.transfers[0] ?? {}));
      if (ctx.visit === 1) {
        assert.throws(() => ctx.transfer('transfer_to_nowhere'), { name: 'RangeError', message: "state 'progress_checker' offers no transfer 'transfer_to_nowhere' (it offers transfer_to_doc_generator, transfer_to_deep_searcher)" });
        assert.throws(() => ctx.transfer(3), TypeError);
        return 'doc_generator';
      }
      return null;
    });
    machine.addState('x', (ctx) => {
      seen.push(ctx.transfers);
      assert.throws(() => ctx.transfer('a'), { name: 'RangeError', message: "state 'x' is not handoff-enabled: it offers no transfers" });
    });
    machine.addEdge('x', END);
    const run = await machine.run();
    assert.deepEqual(run.steps.map((s) => s.state), ['deep_searcher', 'progress_checker', 'doc_generator']);
    machine.dispose();
  });

  test('definition: toJSON writes handoffs and transfer edges, fromJSON reads them; a snapshot keeps the selections made', async () => {
    const { machine } = research((ctx) => (ctx.transfers.length > 0 ? 'deep_searcher' : null));
    const json = machine.toJSON();
    assert.deepEqual(json.states[1], { name: 'progress_checker', handoffs: 2 });
    assert.deepEqual(json.edges.slice(1, 4), [
      { from: 'progress_checker', to: 'doc_generator', description: 'The findings suffice', transfer: true },
      { from: 'progress_checker', to: 'deep_searcher', transfer: true },
      { from: 'progress_checker', to: 'doc_generator' },
    ]);
    const loaded = StateMachine.fromJSON(json);
    assert.deepEqual(loaded.toJSON(), json);
    const execution = machine.start();
    await execution.step();
    await execution.step();
    const snapshot = execution.snapshot();
    assert.deepEqual(snapshot.selections, { progress_checker: 1 });
    const resumed = machine.resume(snapshot);
    const run = await resumed.run();
    // One selection left after the resume: back once more, then the regular edge.
    assert.deepEqual(run.steps.slice(2).map((s) => s.state), ['deep_searcher', 'progress_checker', 'deep_searcher', 'progress_checker', 'doc_generator']);
    assert.throws(() => new StateMachine({ start: 'a' }).addState('a', null, { handoffs: '2' }), /handoffs of state 'a' must be a number/);
    assert.throws(() => new StateMachine({ start: 'a' }).addState('a', null, { handoffs: 1.5 }), /must be an integer from 0 to 1000000/);
    assert.throws(() => new StateMachine({ start: 'a' }).addState('a').addEdge('a', 'b', { transfer: false }), /transfer must be true/);
    loaded.dispose();
    machine.dispose();
  });
});

describe('pictures of swarms', () => {
  const DEF = {
    name: 'support',
    agents: [
      { id: 'triage', entry: true, handoffs: 1, description: 'Sorts requests' },
      { id: 'billing' }, { id: 'human', name: 'Human operator' }, { id: 'closer' },
    ],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human' },
      { from: 'billing', to: 'human', when: 'amount > 100', offer: true },
      { from: 'triage', to: 'closer', continuation: true },
    ],
  };

  test('toDag: edges by via, the active agent and the session\'s handoffs; toMermaid and toDot draw them differently', () => {
    const swarm = new Swarm(DEF);
    const session = swarm.createSession({ variables: { category: 'billing', amount: 500 } });
    swarm.applyRules(session);
    swarm.applyToolCall(session, { name: 'transfer_to_human', arguments: {} });
    const dag = swarm.toDag({ session });
    assert.deepEqual(dag.edges.map((e) => [e.via, e.tool ?? null, e.firedAtSteps]), [
      ['rule', null, [1]], ['llm', 'transfer_to_human', []], ['hybrid', 'transfer_to_human', [2]], ['continuation', null, []],
    ]);
    assert.deepEqual(dag.nodes.filter((n) => n.active).map((n) => n.id), ['human']);
    assert.deepEqual(dag.nodes.filter((n) => n.start).map((n) => n.id), ['triage']);
    const mermaid = swarm.toMermaid({ session, direction: 'LR' });
    assert.match(mermaid, /^flowchart LR\n/);
    for (const arrow of [/ -->\|"category == 'billing'"\| /, / -\.->\|"transfer#95;to#95;human"\| /, / ==>\|"transfer#95;to#95;human when amount #62; 100"\| /, / --o\|"continuation"\| /]) assert.match(mermaid, arrow);
    assert.match(mermaid, /class n\d active\n {2}classDef active fill:#fde2d8/);
    const dot = swarm.toDot({ session });
    assert.match(dot, /style=dashed/);
    assert.match(dot, /style=bold/);
    assert.match(dot, /style=dotted/);
    assert.match(dot, /style="rounded,filled", fillcolor="#fde2d8"/);
    assert.equal((swarm.toDag().edges.filter((e) => e.fired)).length, 0, 'without a session nothing is marked');
    assert.match(swarm.toMermaid({ session, kind: 'state' }), /^stateDiagram-v2\n {2}direction LR\n[\s\S]*class n\d active\n/);
    assert.throws(() => swarm.toMermaid({ session, kind: 'sankey' }), /kind must be 'flowchart' or 'state'/);
    assert.throws(() => swarm.toMermaid({ session, highlight: {} }), /unknown option 'highlight'/);
    assert.throws(() => swarm.toDot({ checkpoints: [] }), /checkpoints go with a session/);
    assert.throws(() => swarm.toDag({ session: { ...session, checkpoints: [{ outcome: { type: 'handoff', edge: 9 } }] } }), /not an edge of this swarm/);
    swarm.dispose();
  });

  test('Graphviz draws toDot (dot -Tsvg) with every agent and label', async () => {
    const swarm = new Swarm(DEF);
    const session = swarm.createSession({ variables: { category: 'billing' } });
    swarm.applyRules(session);
    const { stdout } = await runCommand('dot', ['-Tsvg'], swarm.toDot({ session }));
    for (const text of ['triage', 'billing', 'human', 'closer', 'category == &#39;billing&#39;', 'transfer_to_human when amount &gt; 100', 'continuation', '×1']) {
      assert.ok(stdout.includes(`>${text}</text>`), `the SVG shows ${text}`);
    }
    swarm.dispose();
  });
});
