// StateMachine behaviour beyond the shared vectors: async handlers, errors, abort, events,
// snapshots (a property test over random machines), disposal.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  init, StateMachine, END, GraphValidationError, MaxStepsError, NoEdgeMatchedError, ConditionSyntaxError, heapUsed,
} from 'handoff-graph';

await init();

function toolRouter(decide) {
  return new StateMachine({ name: 'router', start: 'analyze', maxSteps: 20 })
    .addState('analyze', async (ctx) => ({ decision: await decide(ctx) }))
    .addState('toolA', () => ({ result: 'a' }))
    .addState('toolB', () => ({ result: 'b' }))
    .addEdge('analyze', 'toolA', "decision == 'A'")
    .addEdge('analyze', 'toolB', "decision == 'B'")
    .addEdge('analyze', END)
    .addEdge('toolA', 'analyze')
    .addEdge('toolB', 'analyze');
}

const strip = (steps) => steps.map(({ durationMs, ...rest }) => rest);

describe('running', () => {
  test('the tool router: async handlers, first match, END', async () => {
    const plan = ['A', 'B', 'A', 'done'];
    // What each analyze handler saw of its own time, from its call to its promise's resolution.
    const inside = [];
    const m = toolRouter((ctx) => {
      const called = performance.now();
      return new Promise((resolve) => setTimeout(() => {
        inside.push(performance.now() - called);
        resolve(plan[ctx.visit - 1]);
      }, 1));
    });
    const run = await m.run({ question: 'q' });
    assert.equal(run.reason, 'end');
    assert.equal(run.stepsRun, 7);
    assert.deepEqual(run.steps.map((s) => `${s.state}>${s.next}#${s.edge}`), [
      'analyze>toolA#0', 'toolA>analyze#0', 'analyze>toolB#1', 'toolB>analyze#0', 'analyze>toolA#0', 'toolA>analyze#0', `analyze>${END}#2`,
    ]);
    assert.deepEqual(run.state, { question: 'q', decision: 'done', result: 'a' });
    assert.ok(run.steps.every((s) => typeof s.durationMs === 'number' && s.durationMs >= 0));
    // The step's time brackets the handler's awaited work (one monotonic clock: no timing assumption).
    assert.ok(run.steps[0].durationMs >= inside[0], 'the async handler\'s time is measured');
  });

  test('handlers get ctx; the state they see is the state before their update', async () => {
    const seen = [];
    const m = new StateMachine({ name: 'ctx', start: 'a', maxSteps: 3 })
      .addState('a', (ctx) => {
        seen.push({ step: ctx.step, visit: ctx.visit, stateName: ctx.stateName, n: ctx.state.n, signal: ctx.signal });
        return { n: (ctx.state.n ?? 0) + 1 };
      })
      .addEdge('a', 'a');
    const controller = new AbortController();
    const run = await m.run({}, { signal: controller.signal });
    assert.equal(run.reason, 'max-steps');
    assert.deepEqual(seen.map(({ signal, ...rest }) => rest), [
      { step: 1, visit: 1, stateName: 'a', n: undefined },
      { step: 2, visit: 2, stateName: 'a', n: 1 },
      { step: 3, visit: 3, stateName: 'a', n: 2 },
    ]);
    assert.ok(seen.every((s) => s.signal === controller.signal));
  });

  test('reducers: function reducers, and type errors from built-in ones reject the run', async () => {
    const m = new StateMachine({ name: 'r', start: 'a', maxSteps: 3, reducers: { best: (prev, v) => Math.max(prev ?? -Infinity, v), total: 'sum' } })
      .addState('a', (ctx) => ({ best: [5, 9, 2][ctx.visit - 1], total: 1 }))
      .addEdge('a', 'a');
    assert.deepEqual((await m.run()).state, { best: 9, total: 3 });
    const bad = new StateMachine({ name: 'bad', start: 'a', reducers: { total: 'sum' } }).addState('a', () => ({ total: 'x' })).addEdge('a', END);
    await assert.rejects(bad.run(), { name: 'TypeError', message: /'sum' reducer of 'total' needs a number/ });
    assert.throws(() => new StateMachine({ reducers: { x: 'concat' } }), TypeError);
    // One function serves several keys: it is given the key.
    const keyed = (previous, value, key) => ({ ...previous, [key]: value });
    const both = new StateMachine({ name: 'k', start: 'a', reducers: { x: keyed, y: keyed } }).addState('a', () => ({ x: 1, y: 2 })).addEdge('a', END);
    assert.deepEqual((await both.run()).state, { x: { x: 1 }, y: { y: 2 } });
  });

  test('a handler that returns something other than an object or nothing rejects the run', async () => {
    const m = new StateMachine({ name: 'x', start: 'a' }).addState('a', () => 42).addEdge('a', END);
    await assert.rejects(m.run(), { name: 'TypeError', message: /handler of state 'a' returned number 42/ });
  });

  test('updates cannot touch the prototype of the state', async () => {
    const m = new StateMachine({ name: 'p', start: 'a' })
      .addState('a', () => JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'))
      .addEdge('a', END);
    const run = await m.run({});
    assert.equal(run.state.polluted, undefined);
    assert.equal(Object.getPrototypeOf(run.state), Object.prototype);
    assert.deepEqual(Object.keys(run.state), ['__proto__', 'ok']);
    assert.equal({}.polluted, undefined);
  });
});

describe('failures', () => {
  test('a handler error rejects the run with that error, with the steps attached', async () => {
    const boom = new Error('LLM unavailable');
    const m = toolRouter((ctx) => {
      if (ctx.visit === 2) throw boom;
      return 'A';
    });
    await assert.rejects(m.run({}), (error) => {
      assert.equal(error, boom);
      assert.deepEqual(strip(error.steps).map((s) => s.state), ['analyze', 'toolA']);
      return true;
    });
  });

  test('no edge matched: NoEdgeMatchedError names the state, the candidates and what they read', async () => {
    const m = new StateMachine({ name: 'n', start: 'a' })
      .addState('a', () => ({ decision: 'C', big: 'x'.repeat(500) }))
      .addState('b')
      .addEdge('a', 'b', "decision == 'A' and big")
      .addEdge('a', END, "decision == 'B'")
      .addEdge('b', END);
    await assert.rejects(m.run({}), (error) => {
      assert.ok(error instanceof NoEdgeMatchedError);
      assert.equal(error.stateName, 'a');
      assert.deepEqual(error.candidates, [{ to: 'b', when: "decision == 'A' and big" }, { to: END, when: "decision == 'B'" }]);
      assert.equal(error.read.decision, '"C"');
      assert.ok(error.read.big.length <= 60);
      assert.match(error.message, /no edge from state 'a' matched: -> b when decision == 'A' and big; -> __end__ when decision == 'B'\. The state read: .*decision = "C"/);
      assert.deepEqual(strip(error.steps), [{ step: 1, state: 'a', visit: 1, next: null, edge: null }]);
      return true;
    });
    // An execution that failed stays failed: run() and stream() reject with its error again, and
    // step() resolves null.
    const execution = m.start({});
    const failure = await execution.step().catch((error) => error);
    assert.ok(failure instanceof NoEdgeMatchedError);
    assert.equal(await execution.run().catch((error) => error), failure);
    await assert.rejects(async () => {
      for await (const _ of execution.stream());
    }, (error) => error === failure);
    assert.deepEqual([execution.done, await execution.step()], [true, null]);
    execution.dispose();
    // A handler's error, too.
    const throwing = new StateMachine({ name: 't', start: 'a' }).addState('a', () => {
      throw new RangeError('down');
    }).addEdge('a', END).start({});
    const thrown = await throwing.step().catch((error) => error);
    assert.equal(await throwing.run().catch((error) => error), thrown);
    throwing.dispose();
  });

  test("onMaxSteps 'throw' rejects with MaxStepsError carrying the run", async () => {
    const m = new StateMachine({ name: 'loop', start: 'a', maxSteps: 4, onMaxSteps: 'throw' }).addState('a').addEdge('a', 'a');
    await assert.rejects(m.run({ k: 1 }), (error) => {
      assert.ok(error instanceof MaxStepsError);
      assert.equal(error.run.reason, 'max-steps');
      assert.equal(error.run.stepsRun, 4);
      assert.deepEqual(error.run.state, { k: 1 });
      assert.match(error.message, /machine 'loop' ran its 4 steps/);
      return true;
    });
  });

  test('onStep errors are not swallowed', async () => {
    const m = new StateMachine({ name: 's', start: 'a' }).addState('a').addEdge('a', END);
    await assert.rejects(m.run({}, { onStep() { throw new Error('listener'); } }), /listener/);
  });

  test('validation lists every problem; add-time problems throw at once', async () => {
    const m = new StateMachine({ name: 'v', start: 'nowhere', maxSteps: 0 }).addState('a').addEdge('a', 'ghost');
    assert.throws(() => m.validate(), (error) => {
      assert.ok(error instanceof GraphValidationError);
      assert.deepEqual(error.problems.map((p) => p.code), ['max-steps', 'unknown-start', 'unknown-to']);
      assert.match(error.problems[2].message, /edge 0 \('a' -> 'ghost'\) leads to 'ghost'/);
      return true;
    });
    assert.throws(() => m.addState('a'), { name: 'GraphValidationError', message: /state 'a' is declared twice/ });
    assert.throws(() => m.addState(END), GraphValidationError);
    assert.throws(() => m.addState('  '), GraphValidationError);
    assert.throws(() => m.addEdge(END, 'a'), GraphValidationError);
    assert.throws(() => m.addEdge('a', 'b', 'x = 1'), ConditionSyntaxError);
    assert.throws(() => m.addState(5), TypeError);
    assert.throws(() => m.addState('z', 'not a function'), TypeError);
    await assert.rejects(m.run(), GraphValidationError);
  });

  test('the definition is fixed once a run has started', async () => {
    const m = new StateMachine({ name: 'f', start: 'a' }).addState('a').addEdge('a', END);
    await m.run();
    assert.throws(() => m.addState('b'), { name: 'Error', message: /started running, so its states and edges are fixed/ });
  });

  test('NoEdgeMatchedError shows the reserved names as routing saw them', async () => {
    const m = new StateMachine({ name: 'r', start: 'a' }).addState('a').addEdge('a', END, '$visits.a > 5 and $step > 5');
    await assert.rejects(m.run({}), (error) => {
      assert.deepEqual(error.read, { '$step': '1', '$visits.a': '1' });
      return true;
    });
  });

  test("onStep sees the last step before MaxStepsError", async () => {
    const seen = [];
    const m = new StateMachine({ name: 'loop', start: 'a', maxSteps: 2, onMaxSteps: 'throw' }).addState('a').addEdge('a', 'a');
    await assert.rejects(m.run({}, { onStep: (s) => seen.push(s.step) }), MaxStepsError);
    assert.deepEqual(seen, [1, 2]);
  });

  test("'append' keeps a previous value that is not an array as its first element", async () => {
    const m = new StateMachine({ name: 'a', start: 'a', reducers: { log: 'append' } }).addState('a', () => ({ log: 'b' })).addEdge('a', END);
    assert.deepEqual((await m.run({ log: 'a' })).state.log, ['a', 'b']);
  });
});

describe('abort and events', () => {
  test('an aborted signal stops between steps; the step under way finishes and counts', async () => {
    const controller = new AbortController();
    const m = new StateMachine({ name: 'a', start: 'a', maxSteps: 50 })
      .addState('a', async (ctx) => {
        if (ctx.step === 3) controller.abort();
        return { n: ctx.step };
      })
      .addEdge('a', 'a');
    const run = await m.run({}, { signal: controller.signal });
    assert.equal(run.reason, 'aborted');
    assert.equal(run.stepsRun, 3);
    assert.equal(run.state.n, 3);
    const before = new AbortController();
    before.abort();
    assert.equal((await m.run({}, { signal: before.signal })).stepsRun, 0);
  });

  test('abort() during a step stops the run once that step finishes', async () => {
    const m = new StateMachine({ name: 'a', start: 'a', maxSteps: 50 }).addState('a').addEdge('a', 'a');
    const exec = m.start({});
    const running = exec.step();
    exec.abort();
    await running;
    assert.equal(exec.reason, 'aborted');
    assert.equal(exec.stepsRun, 1);
  });

  test('leaving stream() after step:start undoes that step; the execution can go on', async () => {
    const m = toolRouter((ctx) => (ctx.visit === 1 ? 'A' : 'done'));
    const exec = m.start({});
    for await (const event of exec.stream()) {
      if (event.type === 'step:start' && event.step === 2) break;
    }
    assert.equal(exec.stepsRun, 1);
    assert.equal(exec.reason, null);
    const saved = JSON.parse(JSON.stringify(exec.snapshot()));
    assert.equal(saved.step, 1);
    const run = await m.resume(saved).run();
    assert.deepEqual(run.steps.map((s) => s.state), ['analyze', 'toolA', 'analyze']);
  });

  test('onStep sees every step; stream() yields step:start, step:end and end', async () => {
    const m = toolRouter((ctx) => (ctx.visit === 1 ? 'B' : 'done'));
    const seen = [];
    const run = await m.run({}, { onStep: (s) => seen.push(s.step) });
    assert.deepEqual(seen, [1, 2, 3]);
    const events = [];
    for await (const event of m.stream({})) events.push(event);
    assert.deepEqual(events.map((e) => e.type), ['step:start', 'step:end', 'step:start', 'step:end', 'step:start', 'step:end', 'end']);
    assert.deepEqual(events[0], { type: 'step:start', step: 1, stateName: 'analyze', visit: 1 });
    assert.equal(events[1].step.next, 'toolB');
    assert.equal(events[1].step.edge, 1);
    assert.deepEqual(strip(events.at(-1).run.steps), strip(run.steps));
  });
});

describe('step-wise execution and snapshots', () => {
  test('start() runs step by step; a snapshot is JSON and resume() continues', async () => {
    const m = toolRouter((ctx) => ['A', 'A', 'done'][ctx.visit - 1]);
    const exec = m.start({ q: 1 });
    assert.equal(exec.reason, null);
    const first = await exec.step();
    assert.deepEqual([first.step, first.state, first.next], [1, 'analyze', 'toolA']);
    const saved = JSON.parse(JSON.stringify(exec.snapshot()));
    assert.equal(saved.format, 'handoff-graph/execution');
    const resumed = m.resume(saved);
    const rest = await resumed.run();
    const straight = await m.run({ q: 1 });
    assert.deepEqual(strip(rest.steps), strip(straight.steps));
    assert.deepEqual(rest.state, straight.state);
    assert.equal(await (await m.start({}).run()) && null, null);
  });

  test('resume refuses snapshots of other machines or in bad shape', () => {
    const m = toolRouter(() => 'done');
    const other = new StateMachine({ name: 'other', start: 'x' }).addState('x').addEdge('x', END);
    const saved = other.start({}).snapshot();
    assert.throws(() => m.resume(saved), /another machine/);
    assert.throws(() => m.resume({ format: 'nope' }), TypeError);
    assert.throws(() => m.resume({ ...m.start({}).snapshot(), current: 'ghost' }), /current/);
    const changed = toolRouter(() => 'done').addState('extra').addEdge('extra', END);
    assert.throws(() => changed.resume(m.start({}).snapshot()), /definition changed/);
  });

  test('disposing a machine disposes its executions; using them then throws', async () => {
    const m = toolRouter(() => 'A');
    const exec = m.start({});
    await exec.step();
    m.dispose();
    await assert.rejects(exec.step(), /disposed/);
    assert.throws(() => exec.snapshot(), /disposed/);
  });

  test('property: 1,000 random machines run straight and interrupted (snapshot → JSON → resume) agree', async () => {
    let seed = 20261122;
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const conditions = [
      (s) => `x > ${random(10)}`, (s) => `$visits.${s} < ${1 + random(4)}`, () => `$step >= ${2 + random(10)}`,
      () => `'t${random(3)}' in tags`, (s) => `$state == '${s}' and y != ${random(5)}`, () => `x == y`,
    ];
    for (let round = 0; round < 1000; round++) {
      const names = Array.from({ length: 2 + random(5) }, (_, i) => `s${i}`);
      const m = new StateMachine({
        name: `m${round}`, start: names[0], maxSteps: 5 + random(40), onMaxSteps: 'return',
        feedbackOnRevisit: random(2) === 0, reducers: { tags: 'append', total: 'sum' },
      });
      const salt = random(1000);
      for (const name of names) {
        m.addState(name, (ctx) => ({
          x: (ctx.step * 7 + ctx.visit * 3 + salt) % 10,
          y: (ctx.step + salt) % 5,
          tags: `t${(ctx.visit + salt) % 3}`,
          total: ctx.visit,
          previous: ctx.revision?.previous?.x ?? null,
        }));
      }
      for (const name of names) {
        const edges = 1 + random(3);
        for (let e = 0; e < edges; e++) {
          const to = random(5) === 0 ? END : names[random(names.length)];
          m.addEdge(name, to, e === edges - 1 && random(3) !== 0 ? null : conditions[random(conditions.length)](names[random(names.length)]));
        }
      }
      const outcome = async (promise) => {
        try {
          const run = await promise;
          return { reason: run.reason, steps: strip(run.steps), state: run.state };
        } catch (error) {
          if (!(error instanceof NoEdgeMatchedError)) throw error;
          return { reason: 'no-edge', steps: strip(error.steps) };
        }
      };
      const straight = await outcome(m.run({ x: 0, y: 0 }));
      const cut = random(straight.steps.length + 1);
      let exec = m.start({ x: 0, y: 0 });
      let interrupted;
      try {
        for (let i = 0; i < cut && !exec.done; i++) await exec.step();
        const saved = JSON.parse(JSON.stringify(exec.snapshot()));
        exec.dispose();
        exec = m.resume(saved);
        interrupted = await outcome(exec.run());
      } catch (error) {
        if (!(error instanceof NoEdgeMatchedError)) throw error;
        interrupted = { reason: 'no-edge', steps: strip(error.steps) };
      }
      assert.deepEqual(interrupted, straight, `machine ${round}, cut at step ${cut}`);
      exec.dispose();
      m.dispose();
    }
  });
});

describe('memory', () => {
  test('machines and executions give their WebAssembly memory back', async () => {
    const cycle = async () => {
      const m = toolRouter((ctx) => (ctx.visit < 3 ? 'A' : 'done'));
      const exec = m.start({});
      await exec.run();
      exec.dispose();
      m.dispose();
    };
    for (let i = 0; i < 50; i++) await cycle();
    const before = heapUsed();
    for (let i = 0; i < 2000; i++) await cycle();
    assert.equal(heapUsed(), before);
  });
});

test("the built-in reducers are the contract's names (core/contract.h), custom aside", async () => {
  const { REDUCERS } = await import('../../js/reducers.js');
  const { Reducer } = await import('../../js/contract.js');
  assert.deepEqual(Object.keys(REDUCERS), Object.keys(Reducer).filter((name) => name !== 'custom'));
});
