// The AgentEnsemble rows (issue 17, seed 004) where JavaScript is the point: what the shared
// vectors (tests/vectors/machines.json) cannot say. Edge functions (their context, wrong return
// values, errors, disposal and the transfer area during a call, refusal by toJSON, how errors
// and exports show them), run.outputs as values and through snapshots (old ones included),
// ctx.feedback and ctx.task through resume, MissingVariablesError, the options' checks, and
// toDag({ format: 'agentensemble' }).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';

import {
  init, StateMachine, HandoffGraph, END, GraphValidationError, MaxStepsError, MissingVariablesError, NoEdgeMatchedError,
} from 'handoff-graph';

await init();

/** The seed's tool router, its routing done by functions on the last output. */
function functionRouter(plan, extra = {}) {
  return new StateMachine({ name: 'agent', start: 'analyze', maxSteps: 20, ...extra })
    .addState('analyze', (ctx) => ({ raw: plan[ctx.visit - 1] }))
    .addState('toolA', () => ({ a: true }))
    .addState('toolB', () => ({ b: true }))
    .addEdge('analyze', 'toolA', (ctx) => ctx.lastOutput.raw.includes('USE_A'), { description: 'output contains USE_A' })
    .addEdge('analyze', 'toolB', (ctx) => ctx.lastOutput.raw.includes('USE_B'), { description: 'output contains USE_B' })
    .addEdge('analyze', END)
    .addEdge('toolA', 'analyze')
    .addEdge('toolB', 'analyze');
}

describe('onMaxSteps and the flag', () => {
  test("'return-with-flag' resolves with maxStepsReached; the other modes carry no flag", async () => {
    const loop = (onMaxSteps) => new StateMachine({ name: 'loop', start: 'a', maxSteps: 2, onMaxSteps }).addState('a').addEdge('a', 'a');
    const flagged = await loop('return-with-flag').run();
    assert.equal(flagged.reason, 'max-steps');
    assert.equal(flagged.maxStepsReached, true);
    const plain = await loop('return').run();
    assert.equal(plain.reason, 'max-steps');
    assert.equal('maxStepsReached' in plain, false);
    await assert.rejects(loop('throw').run(), MaxStepsError);
    const ended = await new StateMachine({ name: 'e', start: 'a', onMaxSteps: 'return-with-flag' }).addState('a').addEdge('a', END).run();
    assert.equal(ended.maxStepsReached, false);
    assert.throws(() => new StateMachine({ onMaxSteps: 'RETURN_WITH_FLAG' }), {
      name: 'TypeError', message: "onMaxSteps must be 'return', 'throw' or 'return-with-flag', got string RETURN_WITH_FLAG",
    });
    const m = loop('return-with-flag');
    assert.equal(m.toJSON().onMaxSteps, 'return-with-flag');
    assert.equal((await StateMachine.fromJSON(m.toJSON()).run()).maxStepsReached, true);
  });

  test('an execution stepped by hand reports the flag once the cap is reached', async () => {
    const m = new StateMachine({ name: 'loop', start: 'a', maxSteps: 2, onMaxSteps: 'return-with-flag' }).addState('a').addEdge('a', 'a');
    const exec = m.start();
    await exec.step();
    assert.equal(exec.result().maxStepsReached, false);
    await exec.step();
    assert.equal(exec.result().maxStepsReached, true);
    exec.dispose();
  });
});

describe('outputs: every visit of every state', () => {
  test('run.outputs and exec.outputs are new values: changing one changes nothing else', async () => {
    const m = functionRouter(['USE_A', 'USE_B', 'done']);
    const exec = m.start();
    const run = await exec.run();
    assert.deepEqual(run.outputs, { analyze: [{ raw: 'USE_A' }, { raw: 'USE_B' }, { raw: 'done' }], toolA: [{ a: true }], toolB: [{ b: true }] });
    run.outputs.analyze.push('x');
    delete run.outputs.toolA;
    assert.equal(exec.outputs.analyze.length, 3);
    assert.ok(exec.outputs.toolA);
    assert.notEqual(exec.outputs, exec.outputs);
    // Pairing steps with outputs gives AgentEnsemble's getGraphHistory().
    const history = run.steps.map((s) => ({ stateName: s.state, stepNumber: s.step, nextState: s.next, output: exec.outputs[s.state][s.visit - 1] }));
    assert.deepEqual(history.map((h) => h.output), [{ raw: 'USE_A' }, { a: true }, { raw: 'USE_B' }, { b: true }, { raw: 'done' }]);
    exec.dispose();
  });

  test('a state named __proto__ is an own key of outputs, never the prototype', async () => {
    const run = await new StateMachine({ name: 'p', start: '__proto__' }).addState('__proto__', () => ({ x: 1 })).addEdge('__proto__', END).run();
    assert.ok(Object.hasOwn(run.outputs, '__proto__'));
    assert.deepEqual(run.outputs.__proto__, [{ x: 1 }]);
    assert.equal(Object.getPrototypeOf(run.outputs), Object.prototype);
  });

  test('snapshots carry every output; resume() restores them and keeps counting', async () => {
    const build = () => new StateMachine({ name: 'counter', start: 'tick', maxSteps: 10 })
      .addState('tick', (ctx) => ({ n: ctx.visit }))
      .addEdge('tick', END, 'n >= 3')
      .addEdge('tick', 'tick');
    const exec = build().start({});
    await exec.step();
    await exec.step();
    const saved = JSON.parse(JSON.stringify(exec.snapshot()));
    assert.deepEqual(saved.outputs, { tick: [{ n: 1 }, { n: 2 }] });
    const resumed = build().resume(saved);
    assert.deepEqual((await resumed.run()).outputs, { tick: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    exec.dispose();
    resumed.dispose();
  });

  test('a snapshot from before outputs resumes: the latest update of each state is kept, earlier visits read null', async () => {
    const build = () => new StateMachine({ name: 'counter', start: 'tick', maxSteps: 10 })
      .addState('tick', (ctx) => ({ n: ctx.visit, previous: ctx.revision?.previous ?? null }))
      .addEdge('tick', END, 'n >= 3')
      .addEdge('tick', 'tick');
    const exec = build().start({});
    await exec.step();
    await exec.step();
    const old = exec.snapshot();
    delete old.outputs;  // what version 1 wrote before this release
    const resumed = build().resume(old);
    assert.deepEqual(resumed.outputs, { tick: [null, { n: 2, previous: { n: 1, previous: null } }] });
    const run = await resumed.run();
    assert.deepEqual(run.outputs.tick[2].previous, { n: 2, previous: { n: 1, previous: null } }, 'revision.previous continues exactly');
    exec.dispose();
    resumed.dispose();
  });

  test('MaxStepsError.run carries the outputs too', async () => {
    const m = new StateMachine({ name: 'm', start: 'a', maxSteps: 2, onMaxSteps: 'throw' }).addState('a', (ctx) => ({ v: ctx.visit })).addEdge('a', 'a');
    const error = await m.run().catch((e) => e);
    assert.deepEqual(error.run.outputs, { a: [{ v: 1 }, { v: 2 }] });
  });
});

describe('revision feedback for the handler', () => {
  test('ctx.feedback: the prior output, then the seed sentence; null on first visits and for noFeedbackStates', async () => {
    const seen = [];
    const m = new StateMachine({ name: 'fb', start: 'write', maxSteps: 10, noFeedbackStates: ['route'] })
      .addState('write', (ctx) => {
        seen.push(['write', ctx.feedback]);
        return { draft: `d${ctx.visit}` };
      })
      .addState('route', (ctx) => {
        seen.push(['route', ctx.feedback, ctx.revision]);
      })
      .addEdge('write', 'route')
      .addEdge('route', 'write', '$visits.write < 2')
      .addEdge('route', END);
    await m.run();
    assert.deepEqual(seen, [
      ['write', null],
      ['route', null, null],
      ['write', "Prior visit's output:\n{\"draft\":\"d1\"}\n\nGraph state 'write' visit #2. Prior visit's output is provided above; refine your response based on it."],
      ['route', null, null],
    ]);
    assert.deepEqual(m.toJSON().noFeedbackStates, ['route']);
  });

  test('ctx.feedback is written when first read, from what the visit began with, even after everything is disposed', async () => {
    const kept = [];
    const m = new StateMachine({ name: 'late', start: 'a' })
      .addState('a', (ctx) => {
        kept.push(ctx);
        ctx.stateName = 'changed by the handler';
        return { v: ctx.visit };
      })
      .addEdge('a', END, '$visits.a >= 2')
      .addEdge('a', 'a');
    await m.run();
    m.dispose();
    assert.equal(kept[0].feedback, null);
    const text = kept[1].feedback;
    assert.equal(text, "Prior visit's output:\n{\"v\":1}\n\nGraph state 'a' visit #2. Prior visit's output is provided above; refine your response based on it.");
    assert.equal(kept[1].feedback, text, 'the same value on every read');
    assert.deepEqual(Object.keys(kept[1]), ['state', 'step', 'visit', 'stateName', 'signal', 'revision', 'task', 'transfers']);
  });

  test('an update JSON cannot hold is named in the text instead of failing the revisit', async () => {
    let text;
    await new StateMachine({ name: 'big', start: 'a' })
      .addState('a', (ctx) => {
        if (ctx.visit === 2) text = ctx.feedback;
        return ctx.visit === 1 ? { n: 10n } : {};
      })
      .addEdge('a', END, '$visits.a >= 2')
      .addEdge('a', 'a')
      .run();
    assert.match(text, /^Prior visit's output:\n\[an update JSON cannot hold: .*BigInt.*\]\n\nGraph state 'a' visit #2\./);
  });

  test('a prior output nested too deep to print safely is shown as JSON.stringify wrote it', async () => {
    let deep = {};
    for (let i = 0; i < 600; i++) deep = { d: deep };
    let text;
    await new StateMachine({ name: 'deep', start: 'a' })
      .addState('a', (ctx) => {
        if (ctx.visit === 2) text = ctx.feedback;
        return ctx.visit === 1 ? { deep } : {};
      })
      .addEdge('a', END, '$visits.a >= 2')
      .addEdge('a', 'a')
      .run();
    assert.ok(text.startsWith(`Prior visit's output:\n${JSON.stringify({ deep })}\n\n`));
  });

  test('noFeedbackStates: a non-array is a TypeError; an undeclared name is a validation problem with its pointer', async () => {
    assert.throws(() => new StateMachine({ noFeedbackStates: 'a' }), { name: 'TypeError', message: /noFeedbackStates must be an array of state names/ });
    assert.throws(() => new StateMachine({ noFeedbackStates: ['a', 1] }), TypeError);
    assert.throws(() => new StateMachine({ noFeedbackState: [] }), { message: /did you mean 'noFeedbackStates'/ });
    const m = new StateMachine({ name: 'v', start: 'a', noFeedbackStates: ['ghost'] }).addState('a').addEdge('a', END);
    const error = await m.run().catch((e) => e);
    assert.ok(error instanceof GraphValidationError);
    assert.deepEqual(error.problems, [{ code: 'unknown-no-feedback-state', message: "noFeedbackStates names 'ghost', which is not a declared state", pointer: '/noFeedbackStates/0' }]);
  });
});

describe('edges decided by functions', () => {
  test('the context: frozen, the merged state, the update just returned (the same object), step, visit and state name', async () => {
    const contexts = [];
    let returned;
    const m = new StateMachine({ name: 'ctx', start: 'a' })
      .addState('a', () => {
        returned = { x: 2 };
        return returned;
      })
      .addEdge('a', END, (ctx) => {
        contexts.push(ctx);
        return true;
      });
    await m.run({ y: 1 });
    const [ctx] = contexts;
    assert.ok(Object.isFrozen(ctx));
    assert.deepEqual(Object.keys(ctx), ['state', 'step', 'visit', 'stateName', 'lastOutput']);
    assert.deepEqual(ctx.state, { y: 1, x: 2 });
    assert.equal(ctx.lastOutput, returned);
    assert.equal(ctx.step, 1);
    assert.equal(ctx.visit, 1);
    assert.equal(ctx.stateName, 'a');
  });

  test('a function must return true or false: anything else rejects the run, a promise with a hint', async () => {
    for (const [value, pattern] of [[1, /returned number 1; return true or false$/], ['yes', /returned string yes;/], [Promise.resolve(true), /returned an object; return true or false \(edge functions are synchronous\)$/], [undefined, /returned undefined;/]]) {
      const m = new StateMachine({ name: 'r', start: 'a' }).addState('a').addEdge('a', END, () => value);
      const error = await m.run().catch((e) => e);
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /^the function of edge 'a' -> '__end__' returned /);
      assert.match(error.message, pattern);
      assert.deepEqual(error.steps, []);
    }
  });

  test('a function that throws rejects with its own error, steps attached; the execution cannot continue', async () => {
    const boom = new Error('boom');
    const m = new StateMachine({ name: 'b', start: 'a' })
      .addState('a', () => ({}))
      .addEdge('a', 'a', '$step < 2')
      .addEdge('a', END, () => {
        throw boom;
      });
    const exec = m.start();
    await exec.step();
    await assert.rejects(exec.step(), (e) => e === boom);
    assert.equal(boom.steps.length, 1);
    assert.equal(exec.done, true);
    await assert.rejects(exec.step().then(() => exec.snapshot()), /failed in a handler/);
    exec.dispose();
  });

  test('a function may use the transfer area (another graph routes meanwhile): the next condition still reads this state', async () => {
    const g = new HandoffGraph().addEdge('x', 'y', "big == 'no'");
    const m = new StateMachine({ name: 't', start: 'a' })
      .addState('a', () => ({ decision: 'B', padding: 'p'.repeat(1000) }))
      .addState('b')
      .addEdge('a', END, () => g.route('x', { big: 'q'.repeat(100_000), list: Array.from({ length: 5000 }, (_, i) => i) }) === 'y')
      .addEdge('a', 'b', "decision == 'B'")
      .addEdge('a', END)
      .addEdge('b', END);
    const run = await m.run();
    assert.deepEqual(run.steps.map((s) => [s.state, s.edge]), [['a', 1], ['b', 0]]);
    g.dispose();
  });

  test('a function that disposes its execution ends the run with the disposed error, not a crash', async () => {
    let exec;
    const m = new StateMachine({ name: 'd', start: 'a' }).addState('a').addEdge('a', END, () => {
      exec.dispose();
      return true;
    });
    exec = m.start();
    await assert.rejects(exec.step(), /disposed/);
    m.dispose();
  });

  test('arguments: options only with a function, typos suggested, a function inside { when } explained', () => {
    const m = new StateMachine({ name: 'o', start: 'a' }).addState('a');
    assert.throws(() => m.addEdge('a', END, () => true, { descripton: 'x' }), { name: 'TypeError', message: /did you mean 'description'/ });
    assert.throws(() => m.addEdge('a', END, () => true, { description: 7 }), { name: 'TypeError', message: 'description must be a string, got number 7' });
    assert.throws(() => m.addEdge('a', END, 'x == 1', { description: 'd' }), { name: 'TypeError', message: /options \(\{ description \}\) go with a function/ });
    assert.throws(() => m.addEdge('a', END, { when: () => true }), { name: 'TypeError', message: /pass a function as the third argument itself/ });
    assert.throws(() => m.addEdge(END, 'a', () => true), (e) => e instanceof GraphValidationError && e.problems[0].code === 'edge-from-end');
    assert.equal(m.toDag().edges.length, 0, 'nothing was added');
  });

  test('shown by their description: NoEdgeMatchedError, exports, inspect; toJSON refuses the machine', async () => {
    const m = functionRouter(['huh?']);
    const noFallback = new StateMachine({ name: 'nf', start: 'analyze' })
      .addState('analyze', () => ({ raw: 'huh?' }))
      .addState('toolA')
      .addEdge('analyze', 'toolA', (ctx) => ctx.lastOutput.raw === 'A', { description: 'output is A' })
      .addEdge('analyze', END, () => false)
      .addEdge('analyze', END, "raw == 'done'")
      .addEdge('toolA', END);
    const error = await noFallback.run().catch((e) => e);
    assert.ok(error instanceof NoEdgeMatchedError);
    assert.equal(error.message, "no edge from state 'analyze' matched: -> toolA (a function: output is A); -> __end__ (a function); -> __end__ when raw == 'done'. The state read: raw = \"huh?\"");
    assert.deepEqual(error.candidates, [
      { to: 'toolA', when: null, predicate: true, description: 'output is A' },
      { to: END, when: null, predicate: true, description: '' },
      { to: END, when: "raw == 'done'" },
    ]);

    const run = await m.run();
    const dag = m.toDag({ highlight: run });
    assert.deepEqual(dag.edges[0], {
      from: 'analyze', to: 'toolA', position: 0, when: null, unconditional: false, predicate: true, description: 'output contains USE_A',
      fired: false, firedCount: 0, firedAtSteps: [],
    });
    assert.match(m.toDot(), /n1 -> n2 \[label="output contains USE_A"\];/);
    assert.match(m.toMermaid(), /n1 -->\|"output contains USE#95;A"\| n2/);
    const ae = m.toDag({ format: 'agentensemble', generatedAt: 't' });
    assert.deepEqual(ae.graphEdges[0], { fromStateId: '0', toStateId: '1', conditionDescription: 'output contains USE_A', unconditional: false, fired: false });
    assert.equal(inspect(m, { breakLength: Infinity }), "StateMachine 'agent' { states: [ 'analyze', 'toolA', 'toolB' ], edges: 5, start: 'analyze', maxSteps: 20 }");
    assert.throws(() => m.toJSON(), {
      name: 'TypeError',
      message: "toJSON(): edge 0 ('analyze' -> 'toolA', 'output contains USE_A') is decided by a function, which a definition cannot hold: write it as a condition string (docs/conditions.md) to store or send the machine",
    });
    noFallback.dispose();
  });

  test('snapshots of a machine with functions resume on one built by the same code, not on one with a condition instead', async () => {
    const exec = functionRouter(['USE_A', 'done']).start();
    await exec.step();
    const saved = exec.snapshot();
    const resumed = functionRouter(['USE_A', 'done']).resume(saved);
    assert.equal((await resumed.run()).reason, 'end');
    const lookalike = new StateMachine({ name: 'agent', start: 'analyze', maxSteps: 20 })
      .addState('analyze').addState('toolA').addState('toolB')
      .addEdge('analyze', 'toolA', { when: "raw == 'USE_A'", description: 'output contains USE_A' })
      .addEdge('analyze', 'toolB', { when: "raw == 'USE_B'", description: 'output contains USE_B' })
      .addEdge('analyze', END).addEdge('toolA', 'analyze').addEdge('toolB', 'analyze');
    assert.throws(() => lookalike.resume(saved), /cannot resume: the machine's definition changed/);
    exec.dispose();
    resumed.dispose();
  });

  test('stream() reports steps routed by functions like any other', async () => {
    const events = [];
    for await (const event of functionRouter(['USE_B', 'done']).stream()) events.push(event.type === 'step:end' ? `${event.step.state}>${event.step.next}` : event.type);
    assert.deepEqual(events, ['step:start', 'analyze>toolB', 'step:start', 'toolB>analyze', 'step:start', 'analyze>__end__', 'end']);
  });
});

describe('task templates', () => {
  const research = () => new StateMachine({ name: 'research', start: 'research' })
    .addState('research', (ctx) => ({ task: ctx.task, topic: 'replaced' }), { task: 'Research {topic} for {audience} ({{draft}})' })
    .addState('write', (ctx) => ({ written: ctx.task }), { task: 'Write on {topic}' })
    .addEdge('research', 'write')
    .addEdge('write', END);

  test('ctx.task is filled once from the initial state, before any update', async () => {
    const run = await research().run({ topic: 'otters', audience: 'kids' });
    assert.equal(run.state.task, 'Research otters for kids ({draft})');
    assert.equal(run.state.written, 'Write on otters');
  });

  test('missing variables: MissingVariablesError before the first step, from start() at once and from run() as a rejection', async () => {
    const m = research();
    let handlerRan = false;
    m.addState('unused', () => {
      handlerRan = true;
    }).addEdge('unused', END);
    const inherited = Object.create({ topic: 'from the prototype' });
    for (const input of [{}, inherited, { topic: undefined, audience: 'kids' }]) {
      assert.throws(() => m.start(input), (e) => e instanceof MissingVariablesError && e.missing.some((x) => x.variable === 'topic'));
    }
    const error = await m.run({ audience: 'kids' }).catch((e) => e);
    assert.ok(error instanceof MissingVariablesError);
    assert.equal(error.message, "machine 'research' cannot start: its input has no 'topic' ({topic} in the task of 'research', {topic} in the task of 'write'); pass it in the initial state");
    assert.deepEqual(error.missing, [{ state: 'research', variable: 'topic' }, { state: 'write', variable: 'topic' }]);
    assert.equal(handlerRan, false);
  });

  test('lone surrogates in variables and prior outputs become U+FFFD, as every string crossing into the core does', async () => {
    const seen = [];
    await new StateMachine({ name: 's', start: 'a' })
      .addState('a', (ctx) => {
        seen.push(ctx.task, ctx.feedback);
        return { out: 'bad \ud800 and a literal \\ud800' };
      }, { task: 'Say {word}' })
      .addEdge('a', END, '$visits.a >= 2')
      .addEdge('a', 'a')
      .run({ word: 'x\udfffy' });
    assert.equal(seen[0], 'Say x\ufffdy');
    assert.match(seen[3], /^Prior visit's output:\n\{"out":"bad \ufffd and a literal \\\\ud800"\}\n/);
  });

  test('values a task cannot show are TypeErrors naming the variable', () => {
    const m = research();
    assert.throws(() => m.start({ topic: 1n, audience: 'a' }), { name: 'TypeError', message: /^the input variable 'topic' cannot be shown in a task: .*BigInt/ });
    assert.throws(() => m.start({ topic: () => 1, audience: 'a' }), { name: 'TypeError', message: "the input variable 'topic' cannot be shown in a task: it is a function" });
    const getter = { audience: 'a', get topic() { throw new Error('nope'); } };
    assert.throws(() => m.start(getter), { name: 'TypeError', message: "the input variable 'topic' could not be read" });
  });

  test('what the core will not print: a variable nested deeper than 512 levels, a task over 16 MiB (RangeErrors before any step)', () => {
    const deep = (levels) => {
      let value = 1;
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    assert.throws(() => research().start({ topic: deep(513), audience: 'a' }), {
      name: 'RangeError', message: "machine 'research' cannot start: the input variable 'topic' nests deeper than 512 levels, too deep to show in a task",
    });
    research().start({ topic: deep(512), audience: 'a' }).dispose();
    const m = new StateMachine({ name: 'big', start: 'a' }).addState('a', null, { task: '{x}{x}{x}{x}' }).addEdge('a', END);
    m.start({ x: 'x'.repeat(4 * 1024 * 1024) }).dispose();
    assert.throws(() => m.start({ x: 'x'.repeat(4 * 1024 * 1024 + 1) }), {
      name: 'RangeError', message: "machine 'big' cannot start: the task of state 'a' would be longer than 16777216 bytes once filled",
    });
  });

  test('addState: a task that does not parse is a GraphValidationError at its pointer; a task not a string is a TypeError', () => {
    const m = new StateMachine({ name: 't', start: 'a' }).addState('a');
    assert.throws(() => m.addState('b', null, { task: 'Summarise {doc' }), (e) => e instanceof GraphValidationError &&
      e.problems[0].code === 'bad-task' && e.problems[0].pointer === '/states/1/task' &&
      e.problems[0].message === "the task of state 'b': the placeholder opened at character 11 is never closed (write '{{' for a literal brace)");
    assert.throws(() => m.addState('b', null, { task: 7 }), { name: 'TypeError', message: "the task of state 'b' must be a string, got number 7" });
    assert.throws(() => m.addState('b', null, { tsak: 'x' }), { message: /did you mean 'task'/ });
    assert.deepEqual(m.toJSON().states, [{ name: 'a' }], 'nothing was added');
  });

  test('tasks travel in the definition and in snapshots (with the values they were filled with)', async () => {
    const definition = research().toJSON();
    assert.deepEqual(definition.states.map((s) => s.task), ['Research {topic} for {audience} ({{draft}})', 'Write on {topic}']);
    const handlers = { research: (ctx) => ({ first: ctx.task, topic: 'changed' }), write: (ctx) => ({ second: ctx.task }) };
    const exec = StateMachine.fromJSON(definition, { handlers }).start({ topic: 'otters', audience: 'kids' });
    await exec.step();
    const saved = exec.snapshot();
    assert.deepEqual(saved.variables, { topic: 'otters', audience: 'kids' });
    const resumed = StateMachine.fromJSON(definition, { handlers }).resume(JSON.stringify(saved));
    assert.equal((await resumed.run()).state.second, 'Write on otters', 'the initial value, not the updated state');
    const stripped = { ...saved, variables: { topic: 'otters' } };
    assert.throws(() => StateMachine.fromJSON(definition, { handlers }).resume(stripped), /cannot resume: 'variables' lacks 'audience'/);
    exec.dispose();
    resumed.dispose();
  });
});

describe("toDag({ format: 'agentensemble' })", () => {
  test("AgentEnsemble's DagModel 1.3: graph mode, ids in declaration order, the END cap, fired edges of a run", async () => {
    const m = functionRouter(['USE_A', 'done']);
    const exec = m.start();
    const run = await exec.run();
    const dag = m.toDag({ format: 'agentensemble', highlight: run, generatedAt: '2025-06-01T12:00:00Z' });
    assert.equal(dag.schemaVersion, '1.3');
    assert.equal(dag.mode, 'graph');
    assert.equal(dag.generatedAt, '2025-06-01T12:00:00Z');
    assert.deepEqual(dag.tasks.map((t) => [t.id, t.description, t.nodeType]), [
      ['0', 'analyze', 'graph-state'], ['1', 'toolA', 'graph-state'], ['2', 'toolB', 'graph-state'], ['3', 'END', 'graph-end'],
    ]);
    assert.deepEqual(dag.graphEdges.map((e) => [e.fromStateId, e.toStateId, e.fired]), [['0', '1', true], ['0', '2', false], ['0', '3', true], ['1', '0', true], ['2', '0', false]]);
    assert.equal(dag.graphStartStateId, '0');
    assert.equal(dag.graphTerminationReason, 'terminal');
    assert.equal(dag.graphStepsRun, 3);
    assert.deepEqual(exec.toDag({ format: 'agentensemble', generatedAt: '2025-06-01T12:00:00Z' }), dag);
    exec.dispose();
  });

  test('generatedAt defaults to now, as an ISO-8601 instant', () => {
    const m = functionRouter([]);
    const { generatedAt } = m.toDag({ format: 'agentensemble' });
    assert.match(generatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(new Date(generatedAt).toISOString(), generatedAt);
  });

  test('options are checked: the format, generatedAt, and graphs have no AgentEnsemble model', () => {
    const m = functionRouter([]);
    assert.throws(() => m.toDag({ format: 'AgentEnsemble' }), { name: 'TypeError', message: "format must be 'handoff-graph' or 'agentensemble', got string AgentEnsemble" });
    assert.throws(() => m.toDag({ format: 'agentensemble', generatedAt: 0 }), { name: 'TypeError', message: 'generatedAt must be an ISO-8601 string, got number 0' });
    assert.throws(() => m.toDag({ generatedAt: 'x' }), { name: 'TypeError', message: /use it with format: 'agentensemble'/ });
    assert.throws(() => m.toDot({ format: 'agentensemble' }), { name: 'TypeError', message: /toDot options: unknown option 'format'/ });
    const g = new HandoffGraph().addEdge('a', 'b');
    assert.throws(() => g.toDag({ format: 'agentensemble' }), { name: 'TypeError', message: /a state machine's export/ });
    assert.equal(g.toDag({ format: 'handoff-graph' }).kind, 'graph');
    g.dispose();
  });

  test('pictures of a finished run grey the edges that did not fire; a run under way greys nothing', async () => {
    const m = functionRouter(['USE_A', 'done']);
    const exec = m.start();
    await exec.step();
    assert.doesNotMatch(m.toDot({ highlight: exec.result() }), /#b8b8b8/, 'reason is null: not finished');
    const run = await exec.run();
    const dot = m.toDot({ highlight: run });
    assert.match(dot, /n1 -> n3 \[label="output contains USE_B", color="#b8b8b8", fontcolor="#b8b8b8"\];/);
    assert.match(m.toMermaid({ highlight: run }), /linkStyle 2 stroke:#b8b8b8,color:#b8b8b8/);
    exec.dispose();
  });
});

test('a blank machine name is a validation problem at /name (the seed refuses it too)', async () => {
  for (const name of ['', ' \t']) {
    const m = new StateMachine({ name, start: 'a' }).addState('a').addEdge('a', END);
    assert.throws(() => m.validate(), (e) => e instanceof GraphValidationError &&
      e.problems[0].code === 'blank-name' && e.problems[0].pointer === '/name' && e.problems[0].message === "the machine's name must not be blank");
    await assert.rejects(m.run(), GraphValidationError);
  }
});
