// Subgraph states through the JavaScript API, beyond the shared vectors (tests/vectors/subgraphs.json):
// snapshots taken while a subgraph runs, definitions and handlers by path, exports, cancellation
// and argument checks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { DefinitionError, END, StateMachine, init } from 'handoff-graph';

await init();

function team(name = 'team', onSearch = () => ({ notes: 'n' })) {
  return new StateMachine({ name, start: 'search', maxSteps: 5 })
    .addState('search', onSearch)
    .addState('summarize', (ctx) => ({ summary: `${ctx.state.topic}: ${ctx.state.notes}` }))
    .addEdge('search', 'summarize')
    .addEdge('summarize', END);
}

test('a snapshot taken inside a subgraph resumes it: the child continues from its last completed step', async () => {
  let parentExec;
  let saved = null;
  const calls = [];
  // In the first life, the child's second step takes the parent's snapshot, then the process "dies".
  const child = new StateMachine({ name: 'team', start: 'search', maxSteps: 5 })
    .addState('search', () => {
      calls.push('search');
      return { notes: 'n' };
    })
    .addState('summarize', () => {
      saved ??= JSON.stringify(parentExec.snapshot());
      throw new Error('crash');
    })
    .addEdge('search', 'summarize')
    .addEdge('summarize', END);
  const parent = new StateMachine({ name: 'parent', start: 'research' })
    .addSubgraph('research', child, { input: { topic: 'question' }, output: { findings: 'summary' } })
    .addEdge('research', END);
  parentExec = parent.start({ question: 'otters' });
  await assert.rejects(parentExec.run(), (e) => e.message === 'crash' && e.subgraph.state === 'research' && e.subgraph.steps.length === 1);
  const snapshot = JSON.parse(saved);
  assert.equal(snapshot.status, 'subgraph');
  assert.equal(snapshot.version, 2);
  assert.equal(snapshot.subgraph.machine, 'team');
  assert.equal(snapshot.subgraph.step, 1, 'the child snapshot is as of its completed step 1');
  // The second life: the same definitions, healthy handlers.
  calls.length = 0;
  const healthyChild = team('team', () => {
    calls.push('search');
    return { notes: 'n' };
  });
  const healthy = new StateMachine({ name: 'parent', start: 'research' })
    .addSubgraph('research', healthyChild, { input: { topic: 'question' }, output: { findings: 'summary' } })
    .addEdge('research', END);
  const resumed = healthy.resume(saved);
  const run = await resumed.run();
  assert.deepEqual(calls, [], 'search did not run again');
  assert.deepEqual(run.state, { question: 'otters', findings: 'otters: n' });
  assert.deepEqual({ ...run.steps[0].subgraph }, { machine: 'team', reason: 'end', stepsRun: 2 });
  // What each subgraph step did survives a snapshot of the finished run.
  const again = healthy.resume(resumed.snapshot());
  assert.deepEqual({ ...again.steps[0].subgraph }, { machine: 'team', reason: 'end', stepsRun: 2 });
  assert.throws(() => healthy.resume({ ...snapshot, subgraph: undefined }), /'subgraph' must hold/);
  for (const m of [again, resumed, healthy, healthyChild, parent, child]) m.dispose();
});

test('definitions: a subgraph state holds its machine; fromJSON binds "state/child" handlers', async () => {
  const child = team();
  const parent = new StateMachine({ name: 'parent', start: 'research', reducers: { log: 'append' } })
    .addSubgraph('research', child, { input: { topic: 'question' }, output: { log: 'summary' } })
    .addEdge('research', END);
  const definition = parent.toJSON();
  assert.deepEqual(Object.keys(definition.states[0]), ['name', 'subgraph', 'input', 'output']);
  assert.equal(definition.states[0].subgraph.name, 'team');
  const copy = StateMachine.fromJSON(definition, { handlers: { 'research/search': () => ({ notes: 'from JSON' }) } });
  assert.deepEqual(copy.toJSON(), definition);
  assert.deepEqual((await copy.run({ question: 'q', log: [] })).state, { question: 'q', log: [null] }, 'summarize has no handler in the copy');
  assert.throws(() => StateMachine.fromJSON(definition, { handlers: { 'research/nope': () => {} } }), (e) => e instanceof DefinitionError && /no state 'nope'/.test(e.message));
  const bad = structuredClone(definition);
  bad.states[0].subgraph.states[0].name = '';
  assert.throws(() => StateMachine.fromJSON(bad), (e) => e instanceof DefinitionError && e.problems[0].pointer.startsWith('/states/0/subgraph/states/0'));
  copy.dispose();
  parent.dispose();
  child.dispose();
});

test('exports draw a subgraph as a Mermaid subgraph / a composite state / a DOT cluster', () => {
  const child = team('research team');
  const parent = new StateMachine({ name: 'parent', start: 'research' }).addSubgraph('research', child).addEdge('research', END);
  const flowchart = parent.toMermaid();
  assert.match(flowchart, /subgraph n\d+_sub\["research team"\]/);
  assert.match(flowchart, /n\d+ -\.- n\d+_sub/);
  assert.match(parent.toMermaid({ kind: 'state' }), /state n\d+ \{\n/);
  const dot = parent.toDot();
  assert.match(dot, /subgraph "cluster_n\d+_"/);
  assert.match(execFileSync('dot', ['-Tsvg'], { input: dot }).toString(), /research team/);
  assert.equal(parent.toDag().nodes.find((n) => n.id === 'research').subgraph.name, 'research team');
  parent.dispose();
  child.dispose();
});

test('an abort reaches the subgraph; its machine stops and so does the run', async () => {
  const controller = new AbortController();
  const child = new StateMachine({ name: 'slow', start: 'a' })
    .addState('a', () => {
      controller.abort();
      return { a: 1 };
    })
    .addState('b', () => ({ b: 1 }))
    .addEdge('a', 'b')
    .addEdge('b', END);
  const parent = new StateMachine({ name: 'p', start: 'sub' }).addSubgraph('sub', child).addEdge('sub', 'sub');
  const run = await parent.run({}, { signal: controller.signal });
  assert.equal(run.reason, 'aborted');
  assert.deepEqual({ ...run.steps[0].subgraph }, { machine: 'slow', reason: 'aborted', stepsRun: 1 });
  parent.dispose();
  child.dispose();
});

test('arguments: a machine that is not one, runs this one, or has edge functions; mappings; a sealed child', () => {
  const child = team();
  const parent = new StateMachine({ name: 'p', start: 'a' });
  assert.throws(() => parent.addSubgraph('s', {}), TypeError);
  // A StateMachine is what its constructor made (js/machine-brand.js): a subclass's, not an object with its prototype.
  assert.throws(() => parent.addSubgraph('s', Object.create(StateMachine.prototype)), /must be a StateMachine/);
  const subclassed = new (class Team extends StateMachine {})({ name: 't', start: 'a' }).addState('a').addEdge('a', END);
  const other = new StateMachine({ name: 'q', start: 't' }).addSubgraph('t', subclassed);
  other.dispose();
  subclassed.dispose();
  assert.throws(() => parent.addSubgraph('s', parent), /runs it, so the run would never end/);
  assert.throws(() => parent.addSubgraph('s', child, { inputs: {} }), /unknown option 'inputs' \(did you mean 'input'\?\)/);
  assert.throws(() => parent.addSubgraph('s', child, { input: { k: 1 } }), /must be a path/);
  assert.throws(() => parent.addSubgraph('s', child, { output: { k: 'a or b' } }), (e) => e.problems?.[0].code === 'bad-mapping');
  const withFunction = new StateMachine({ name: 'f', start: 'a' }).addState('a').addEdge('a', END, () => true);
  assert.throws(() => parent.addSubgraph('s', withFunction), /has no definition/);
  parent.addSubgraph('s', child);
  assert.throws(() => child.addState('late'), /is a subgraph of machine 'p'/);
  assert.throws(() => child.addSubgraph('loop', parent), /is a subgraph of machine 'p'/);
  for (const m of [withFunction, parent, child]) m.dispose();
});
