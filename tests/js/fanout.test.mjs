// Fan-out and map states through the JavaScript API, beyond the shared vectors
// (tests/vectors/fanout.json): cancellation, snapshots taken while branches run, definitions,
// events and argument checks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

import { END, GraphValidationError, StateMachine, init } from 'handoff-graph';

await init();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// How many abortableSleep calls ran their whole time (were not cut short by their signal).
let sleptOut = 0;

// Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted.
function abortableSleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      sleptOut++;
      resolve();
    }, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

test('an abort of the run reaches every branch; the step fails with the branch error', async () => {
  const seen = [];
  const m = new StateMachine({ name: 'abortable', start: 'fan' })
    .addFanOut('fan', ['a', 'b', 'c'])
    .addState('a', async (ctx) => {
      await abortableSleep(5_000, ctx.signal).catch((e) => {
        seen.push(`a:${ctx.signal.aborted}`);
        throw e;
      });
    })
    .addState('b', async (ctx) => {
      await abortableSleep(5_000, ctx.signal).catch(() => seen.push(`b:${ctx.signal.aborted}`));
      return { b: 'stopped' };
    })
    .addState('c', () => {
      // Once every branch has started (c is the last), the run is aborted.
      setTimeout(() => controller.abort(reason), 10);
      return { c: 'done' };
    })
    .addEdge('fan', END);
  const controller = new AbortController();
  const reason = new Error('user cancelled');
  const sleptBefore = sleptOut;
  await assert.rejects(m.run({}, { signal: controller.signal }), (error) => {
    assert.equal(error, reason);
    assert.deepEqual({ ...error.branch }, { state: 'a', visit: 1, index: 0 });
    assert.deepEqual(error.steps, []);
    return true;
  });
  // The run settled with no branch's 5 s sleep run out: the abort cut them short (no clock read).
  assert.equal(sleptOut - sleptBefore, 0, 'the branches did not stop');
  assert.deepEqual(seen.sort(), ['a:true', 'b:true']);
  m.dispose();
});

test('branches that finish despite an abort complete the step; the run then stops aborted', async () => {
  const controller = new AbortController();
  const m = new StateMachine({ name: 'late', start: 'fan' })
    .addFanOut('fan', ['a', 'b'])
    .addState('a', async () => {
      controller.abort();
      return { a: 1 };
    })
    .addState('b', async (ctx) => ({ b: ctx.signal.aborted }))
    .addState('next', () => ({ next: true }))
    .addEdge('fan', 'next')
    .addEdge('next', END);
  const run = await m.run({}, { signal: controller.signal });
  assert.equal(run.reason, 'aborted');
  assert.deepEqual(run.state, { a: 1, b: true });
  assert.equal(run.stepsRun, 1);
  m.dispose();
});

test('execution.abort() while branches run aborts their signal', async () => {
  const m = new StateMachine({ name: 'stop', start: 'fan' })
    .addFanOut('fan', ['a', 'b'])
    .addState('a', async (ctx) => {
      await abortableSleep(5_000, ctx.signal).catch(() => {});
      return { a: ctx.signal.aborted };
    })
    .addState('b', async (ctx) => {
      setTimeout(() => exec.abort(), 10);  // once both branches run
      await abortableSleep(5_000, ctx.signal).catch(() => {});
      return { b: ctx.signal.aborted };
    })
    .addEdge('fan', 'fan');
  const exec = m.start({});
  const run = await exec.run();
  assert.equal(run.reason, 'aborted');
  assert.deepEqual(run.state, { a: true, b: true });
  exec.dispose();
  m.dispose();
});

test('a branch that throws at once, or returns a non-object, fails the step naming the branch', async () => {
  const thrower = new StateMachine({ name: 't', start: 'fan' })
    .addFanOut('fan', ['ok', 'bad'])
    .addState('ok', (ctx) => ({ ok: ctx.signal.aborted }))
    .addState('bad', () => {
      throw new RangeError('sync');
    })
    .addEdge('fan', END);
  await assert.rejects(thrower.run(), (e) => e instanceof RangeError && e.branch.state === 'bad' && e.branch.index === 1);
  const wrong = new StateMachine({ name: 'w', start: 'fan' })
    .addFanOut('fan', ['ok', 'bad'])
    .addState('ok')
    .addState('bad', async () => 'text')
    .addEdge('fan', END);
  await assert.rejects(wrong.run(), (e) => e instanceof TypeError && /the handler of state 'bad' returned/.test(e.message) && e.branch.state === 'bad');
  thrower.dispose();
  wrong.dispose();
});

test('a snapshot taken while branches run resumes with only the branches left, merged in order', async () => {
  const calls = [];
  let exec;
  let saved = null;
  const build = () =>
    new StateMachine({ name: 'durable', start: 'fan', reducers: { parts: 'append' } })
      .addFanOut('fan', ['a', 'b', 'c'])
      .addState('a', async () => {
        calls.push('a');
        return { parts: 'A' };
      })
      .addState('b', async () => {
        calls.push('b');
        await sleep(10);
        // a has completed by now; b and c have not.
        if (saved === null) {
          saved = JSON.stringify(exec.snapshot());
          throw new Error('crash');
        }
        return { parts: 'B' };
      })
      .addState('c', async () => {
        calls.push('c');
        await sleep(20);
        return { parts: 'C' };
      })
      .addEdge('fan', END);
  const first = build();
  exec = first.start({ parts: [] });
  await assert.rejects(exec.run(), /crash/);
  exec.dispose();
  first.dispose();
  const snapshot = JSON.parse(saved);
  assert.equal(snapshot.version, 2);
  assert.equal(snapshot.status, 'fan-out');
  assert.deepEqual(snapshot.branches.map((b) => b.done), [true, false, false]);
  assert.deepEqual(snapshot.branchOutputs, [{ parts: 'A' }, null, null]);
  assert.deepEqual(snapshot.state, { parts: [] });

  calls.length = 0;
  const second = build();
  exec = second.resume(saved);
  assert.equal(exec.done, false);
  const run = await exec.run();
  assert.deepEqual(calls.sort(), ['b', 'c'], 'a ran again');
  assert.equal(run.reason, 'end');
  assert.deepEqual(run.state, { parts: ['A', 'B', 'C'] });
  assert.deepEqual(run.steps.map(({ durationMs, ...s }) => ({ ...s, branches: s.branches.map((b) => ({ ...b })) })), [
    { step: 1, state: 'fan', visit: 1, next: END, edge: 0, branches: [{ state: 'a', visit: 1 }, { state: 'b', visit: 1 }, { state: 'c', visit: 1 }] },
  ]);
  assert.deepEqual(run.outputs, { a: [{ parts: 'A' }], b: [{ parts: 'B' }], c: [{ parts: 'C' }], fan: [null] });
  // The completed branches' updates must be there: none is dropped silently.
  for (const branchOutputs of [undefined, 'x', [{ parts: 'A' }], [1, null, null], [{ parts: 'A' }, { parts: 'B' }, null]]) {
    assert.throws(() => second.resume({ ...snapshot, branchOutputs }), /^Error: cannot resume: (')?branchOutputs/);
  }
  // A finished run with fan-out steps snapshots as version 2 and resumes with its branches.
  const after = exec.snapshot();
  assert.equal(after.version, 2);
  const again = second.resume(after);
  assert.deepEqual(again.steps.map((s) => s.branches.length), [3]);
  assert.deepEqual(again.outputs, run.outputs);
  again.dispose();
  exec.dispose();
  second.dispose();
});

test('fan-out and map states round-trip through the definition format', () => {
  const m = new StateMachine({ name: 'def', start: 'fan' })
    .addFanOut('fan', ['a', 'b'], { concurrency: 1 })
    .addMap('each', 'a', { over: 'plan.items' })
    .addState('a')
    .addState('b')
    .addEdge('fan', 'each')
    .addEdge('each', END);
  const definition = m.toJSON();
  assert.deepEqual(definition.states.slice(0, 2), [
    { name: 'fan', branches: ['a', 'b'], concurrency: 1 },
    { name: 'each', map: { state: 'a', over: 'plan.items' } },
  ]);
  const loaded = StateMachine.fromJSON(definition);
  assert.deepEqual(loaded.toJSON(), definition);
  const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('handoff-graph/schema.json')), 'utf8'));
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  assert.ok(validate(definition), JSON.stringify(validate.errors));
  assert.ok(!validate({ ...definition, states: [{ name: 'x', branches: ['a'], map: { state: 'a', over: 'xs' } }] }), 'both branches and map');
  // What the loader refuses, each at its pointer.
  const refuse = (states) => {
    try {
      StateMachine.fromJSON({ ...definition, states });
    } catch (error) {
      return error.problems.map((p) => `${p.pointer}: ${p.message}`);
    }
    return [];
  };
  assert.deepEqual(refuse([{ name: 'x', branches: 'a' }]), ['/states/0/branches: expected an array of state names']);
  assert.deepEqual(refuse([{ name: 'x', map: { state: 'a' } }]), ['/states/0/map/over: required']);
  assert.deepEqual(refuse([{ name: 'x', concurrency: 2 }]), ['/states/0/concurrency: only a fan-out state (branches) or a map state (map) has a concurrency']);
  assert.deepEqual(refuse([{ name: 'x', branches: ['a'], task: 't' }]), ["/states/0: a fan-out or map state runs no handler of its own: it has no 'task', 'feedbackOnRevisit' or 'handoffs'"]);
  loaded.dispose();
  m.dispose();
});

test('stream() and onStep show the branches', async () => {
  const m = new StateMachine({ name: 'events', start: 'each' })
    .addMap('each', 'one', { over: 'xs' })
    .addState('one', (ctx) => ({ [`x${ctx.index}`]: ctx.item }))
    .addEdge('each', END);
  const events = [];
  for await (const event of m.stream({ xs: ['p', 'q'] })) events.push(event.type === 'step:end' ? { type: event.type, branches: event.step.branches.length } : event.type === 'end' ? { type: 'end', state: event.run.state } : event);
  assert.deepEqual(events, [
    { type: 'step:start', step: 1, stateName: 'each', visit: 1, branches: [{ state: 'one', visit: 1 }, { state: 'one', visit: 2 }] },
    { type: 'step:end', branches: 2 },
    { type: 'end', state: { xs: ['p', 'q'], x0: 'p', x1: 'q' } },
  ]);
  const records = [];
  await m.run({ xs: [1] }, { onStep: (r) => records.push(r.branches.map((b) => `${b.state}#${b.visit}`)) });
  assert.deepEqual(records, [['one#1']]);
  m.dispose();
});

test('arguments and options are checked', () => {
  const m = new StateMachine({ name: 'args', start: 'a' });
  assert.throws(() => m.addFanOut('f', ['a'], { concurency: 2 }), /unknown option 'concurency' \(did you mean 'concurrency'\?\)/);
  assert.throws(() => m.addFanOut('f', 'a'), TypeError);
  assert.throws(() => m.addFanOut('f', [1]), TypeError);
  // A number the core judges (bad-concurrency, as in a definition); only a non-number is a TypeError.
  assert.throws(() => m.addFanOut('f', ['a'], { concurrency: 1.5 }), (e) => e instanceof GraphValidationError && e.problems[0].code === 'bad-concurrency');
  assert.throws(() => m.addFanOut('f', ['a'], { concurrency: '2' }), TypeError);
  assert.throws(() => m.addMap('g', 'a', {}), /needs \{ over \}/);
  assert.throws(() => m.addMap('g', 'a', { over: 'xs', limit: 1 }), /unknown option 'limit'/);
  assert.throws(() => m.addMap('g', 'a', { over: 'a or b' }), (e) => e instanceof GraphValidationError && e.problems[0].code === 'bad-map-path');
  assert.throws(() => m.addMap('g', 'a', { over: "xs['k']" }), (e) => e instanceof GraphValidationError && /write the path as 'xs.k'/.test(e.message));
  assert.throws(() => m.addFanOut('f', ['f']), (e) => e instanceof GraphValidationError && e.problems[0].code === 'fan-out-to-itself');
  m.dispose();
});

test('at most `concurrency` branches run at once, started in branch order', async () => {
  let running = 0;
  let most = 0;
  const started = [];
  const m = new StateMachine({ name: 'pool', start: 'each' })
    .addMap('each', 'one', { over: 'xs', concurrency: 3 })
    .addState('one', async (ctx) => {
      started.push(ctx.index);
      running += 1;
      most = Math.max(most, running);
      await sleep(1 + (ctx.index % 4));
      running -= 1;
    })
    .addEdge('each', END);
  const run = await m.run({ xs: Array.from({ length: 20 }, (_, i) => i) });
  assert.equal(most, 3);
  assert.deepEqual(started, Array.from({ length: 20 }, (_, i) => i));
  assert.equal(run.steps[0].branches.length, 20);
  m.dispose();
});

test('exports draw each fan-out to its branches, after the edges; a run marks the branch visits', async () => {
  const { execFileSync } = await import('node:child_process');
  const m = new StateMachine({ name: 'drawn', start: 'search', reducers: { found: 'append' } })
    .addFanOut('search', ['web', 'papers'])
    .addMap('each', 'one', { over: 'docs' })
    .addState('web')
    .addState('papers')
    .addState('one')
    .addEdge('search', 'each')
    .addEdge('each', END);
  const run = await m.run({ docs: [1, 2, 3] });
  const dag = m.toDag({ highlight: run });
  const node = (id) => dag.nodes.find((n) => n.id === id);
  assert.deepEqual(node('search').branches, ['web', 'papers']);
  assert.deepEqual(node('each').map, { state: 'one', over: 'docs' });
  assert.deepEqual([node('web').visits, node('one').visits, node('each').visits], [1, 3, 1]);
  const flowchart = m.toMermaid({ highlight: run });
  assert.match(flowchart, /==>\|"parallel"\|/);
  assert.match(flowchart, /==>\|"each in docs"\|/);
  // The edges keep link numbers 1 and 2 (after the start link): branch links come last.
  assert.match(flowchart, /linkStyle 1 stroke/);
  assert.match(flowchart, /linkStyle 2 stroke/);
  assert.match(m.toMermaid({ kind: 'state' }), / : parallel\n/);
  const dot = m.toDot({ highlight: run });
  assert.match(dot, /label="each in docs", style=bold/);
  const svg = execFileSync('dot', ['-Tsvg'], { input: dot }).toString();
  assert.match(svg, /each in docs/);
  m.dispose();
});

test('a resumed fan-out survives a stream abandoned before its branches, and an abort() before it continues', async () => {
  let exec;
  let text = null;
  const calls = [];
  const build = () =>
    new StateMachine({ name: 'again', start: 'fan' })
      .addFanOut('fan', ['a', 'b'])
      .addState('a', () => {
        calls.push('a');
        return { a: 1 };
      })
      .addState('b', (ctx) => {
        calls.push(`b${ctx.signal.aborted ? ' aborted' : ''}`);
        text ??= JSON.stringify(exec.snapshot());
        return { b: 2 };
      })
      .addEdge('fan', 'fan');
  const first = build();
  exec = first.start({});
  await exec.step();
  first.dispose();
  calls.length = 0;
  const second = build();
  const resumed = second.resume(text);
  for await (const event of resumed.stream()) {
    assert.equal(event.type, 'step:start');
    break;  // abandoned before the branches ran
  }
  assert.equal(resumed.snapshot().status, 'fan-out');
  resumed.abort();
  const run = await resumed.run();
  assert.deepEqual(calls, ['b aborted'], 'only b ran again, with its signal aborted');
  assert.equal(run.reason, 'aborted');
  assert.deepEqual(run.state, { a: 1, b: 2 });
  assert.equal(run.stepsRun, 1);
  second.dispose();
});
