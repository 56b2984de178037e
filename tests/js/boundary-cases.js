// What the C++/JS boundary promises, as cases that run unchanged in Node
// (tests/js/boundary.test.mjs) and in Chromium (tests/browser/page.js, mode=boundary): options
// objects refuse unknown keys, missing arguments are named, what user code receives is a value
// fixed when it was made, errors show where they are. No node: imports here.

function fail(message) {
  throw new Error(message);
}

function equal(actual, expected, what) {
  if (!Object.is(actual, expected)) fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function same(actual, expected, what) {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) fail(`${what}: expected ${b}, got ${a}`);
}

/** Runs `fn`, which must throw an instance of `Type` whose message contains every `parts`. */
function throwsWith(fn, Type, parts, what) {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof Type)) fail(`${what}: expected a ${Type.name}, got ${error}`);
    for (const part of parts) if (!error.message.includes(part)) fail(`${what}: message ${JSON.stringify(error.message)} lacks ${JSON.stringify(part)}`);
    return error;
  }
  return fail(`${what}: did not throw`);
}

async function rejectsWith(promise, Type, parts, what) {
  try {
    await promise;
  } catch (error) {
    return throwsWith(() => {
      throw error;
    }, Type, parts, what);
  }
  return fail(`${what}: did not reject`);
}

export const boundaryCases = [
  {
    // Issue 13, bug 1: a typo in an options key made an always-true edge that won every route.
    name: 'a typo in addEdge options is a TypeError that suggests the key, and adds nothing',
    run({ HandoffGraph, StateMachine, END }) {
      const g = new HandoffGraph().addEdge('triage', 'billing', "category == 'billing'");
      throwsWith(() => g.addEdge('triage', 'human', { whn: "category == 'vip'" }), TypeError,
        ["unknown option 'whn' (did you mean 'when'?)", 'allowed: when, description'], 'graph addEdge');
      equal(g.route('triage', { category: 'other' }), null, 'route after the refused edge');
      same(g.edges('triage'), [{ to: 'billing', when: "category == 'billing'" }], 'edges after the refused edge');
      const m = new StateMachine({ start: 'a' }).addState('a');
      throwsWith(() => m.addEdge('a', END, { when: 'x > 1', descripton: 'typo' }), TypeError, ["unknown option 'descripton' (did you mean 'description'?)"], 'machine addEdge');
      same(m.toJSON().edges, [], 'machine edges after the refused edge');
      g.dispose();
      m.dispose();
    },
  },
  {
    name: 'every options object of graphs, conditions, machines and exports refuses unknown keys',
    async run({ HandoffGraph, StateMachine, END, init }) {
      throwsWith(() => new HandoffGraph({ oncycle: 'allow' }), TypeError, ["unknown option 'oncycle' (did you mean 'onCycle'?)"], 'HandoffGraph options');
      const g = new HandoffGraph();
      throwsWith(() => g.addNode('a', { desc: 'x' }), TypeError, ["addNode options: unknown option 'desc'"], 'addNode options');
      g.addEdge('a', 'b', 'x > 1');
      throwsWith(() => g.toMermaid({ direction: 'LR', kidn: 'state' }), TypeError, ["toMermaid options: unknown option 'kidn' (did you mean 'kind'?)"], 'toMermaid options');
      throwsWith(() => g.toDot({ direction: 'LR' }), TypeError, ["toDot options: unknown option 'direction'", 'allowed: highlight, run, trace'], 'toDot options');
      throwsWith(() => g.toDag({ higlight: [] }), TypeError, ["toDag options: unknown option 'higlight' (did you mean 'highlight'?)"], 'toDag options');
      g.dispose();
      throwsWith(() => new StateMachine({ start: 'a', maxStep: 3 }), TypeError, ["unknown option 'maxStep' (did you mean 'maxSteps'?)"], 'StateMachine options');
      const m = new StateMachine({ start: 'a' });
      throwsWith(() => m.addState('a', null, { feedbackOnRevist: false }), TypeError, ["did you mean 'feedbackOnRevisit'?"], 'addState options');
      m.addState('a').addEdge('a', END);
      await rejectsWith(m.run({}, { onstep() {} }), TypeError, ["run options: unknown option 'onstep' (did you mean 'onStep'?)"], 'run options');
      const exec = m.start({});
      await rejectsWith(exec.step({ sginal: null }), TypeError, ["step options: unknown option 'sginal' (did you mean 'signal'?)"], 'step options');
      equal(exec.stepsRun, 0, 'a refused step() runs nothing');
      exec.dispose();
      throwsWith(() => StateMachine.fromJSON(m.toJSON(), { handler: {} }), TypeError, ["did you mean 'handlers'?"], 'fromJSON options');
      m.dispose();
      await rejectsWith(init({ wasmm: 'x' }), TypeError, ["init options: unknown option 'wasmm' (did you mean 'wasm'?)"], 'init options');
    },
  },
  {
    name: 'missing arguments are named',
    run({ HandoffGraph, StateMachine, compileCondition }) {
      const g = new HandoffGraph();
      throwsWith(() => g.addEdge('a'), TypeError, ["addEdge(from, to, when?) is missing 'to' (got 1 argument)"], 'addEdge(a)');
      throwsWith(() => g.addEdge(), TypeError, ["is missing 'from' and 'to' (got 0 arguments)"], 'addEdge()');
      throwsWith(() => g.addEdge('a', undefined), TypeError, ['addEdge(…, to) must be a string node id, got undefined'], 'addEdge(a, undefined)');
      equal(g.size, 0, 'nothing added');
      g.dispose();
      throwsWith(() => new StateMachine().addState(), TypeError, ["addState(name, handler?, options?) is missing 'name'"], 'addState()');
      throwsWith(() => compileCondition(), TypeError, ["compileCondition(source) is missing 'source'"], 'compileCondition()');
    },
  },
  {
    // Issue 13, bug 2: the feedback sentence was read from the live execution when first read.
    name: 'a revision is a value: kept from visit 2 and read later, it still says visit 2',
    async run({ StateMachine, END }) {
      const kept = [];
      const m = new StateMachine({ start: 'write', maxSteps: 10 })
        .addState('write', (ctx) => {
          if (ctx.revision !== null) kept.push(ctx.revision);
          if (kept.length === 2) equal(kept[0].feedback.includes('visit 2 '), true, 'visit 2 revision read during visit 3');
          return { drafts: ctx.visit };
        })
        .addEdge('write', 'write', 'drafts < 3')
        .addEdge('write', END);
      const run = await m.run({});
      equal(run.reason, 'end', 'run reason');
      equal(kept.length, 2, 'revisions seen');
      // After run() has disposed its execution, the revisions still read.
      equal(kept[0].feedback.startsWith("This is visit 2 of state 'write'"), true, 'visit 2 feedback after the run');
      equal(kept[1].feedback.startsWith("This is visit 3 of state 'write'"), true, 'visit 3 feedback after the run');
      equal(Object.isFrozen(kept[0]), true, 'a revision is frozen');
      m.dispose();
    },
  },
  {
    name: 'step records and results are values: later steps do not change what was handed out',
    async run({ StateMachine, END }) {
      const m = new StateMachine({ start: 'a', maxSteps: 10 })
        .addState('a', (ctx) => ({ n: (ctx.state.n ?? 0) + 1 }))
        .addEdge('a', 'a', 'n < 3')
        .addEdge('a', END);
      const exec = m.start({});
      const first = await exec.step();
      const early = exec.result();
      const steps = exec.steps;
      await exec.run();
      equal(early.steps.length, 1, 'an early result keeps its steps');
      equal(steps.length, 1, 'an early steps array keeps its length');
      equal(Object.isFrozen(first), true, 'a step record is frozen');
      equal(exec.result().steps.length, 3, 'the final result');
      exec.dispose();
      same(first, { step: 1, state: 'a', visit: 1, next: 'a', edge: 0, durationMs: first.durationMs }, 'the first record after dispose');
      m.dispose();
    },
  },
  {
    name: 'NoEdgeMatchedError shows the values the core read, reserved names included',
    async run({ StateMachine, NoEdgeMatchedError }) {
      const m = new StateMachine({ start: 'a' })
        .addState('a', () => ({ big: 'x'.repeat(100), n: 1e21, small: 1.5e-7 }))
        .addEdge('a', 'a', "$state == 'b' and $step > 5 and $visits.a > 3 and big == '' and n == 0 and small == 0");
      const error = await rejectsWith(m.run({}), NoEdgeMatchedError, ["no edge from state 'a' matched"], 'run');
      same(error.read, {
        $state: '"a"', $step: '1', '$visits.a': '1', big: `"${'x'.repeat(56)}...`, n: '1e+21', small: '1.5e-7',
      }, 'read');
      m.dispose();
    },
  },
  {
    name: 'syntax errors show the condition with a caret, and addEdge names the edge',
    run({ HandoffGraph, compileCondition, ConditionSyntaxError }) {
      const error = throwsWith(() => compileCondition("tier == 'gold' and x = 1"), ConditionSyntaxError, [], 'compile');
      equal(error.message, "expected '==' (single '=' is not valid) at column 22\n  tier == 'gold' and x = 1\n                       ^", 'message');
      const g = new HandoffGraph();
      const edge = throwsWith(() => g.addEdge('triage', 'billing', 'a ==\nb = 1'), ConditionSyntaxError, [], 'addEdge');
      equal(edge.message.split('\n')[0], 'triage → billing: expected \'==\' (single \'=\' is not valid) at column 8', 'addEdge message');
      equal(edge.message.split('\n').slice(1).join('\n'), '  b = 1\n    ^', 'the caret is on the line of the error');
      same(edge.edge, { from: 'triage', to: 'billing' }, 'edge');
      const long = `${'x == 1 or '.repeat(20)}y = 2`;
      const cut = throwsWith(() => compileCondition(long), ConditionSyntaxError, [], 'long');
      const at = long.length - 3;  // the single '='
      equal(cut.index, at, 'index');
      same(cut.message.split('\n').slice(1), [`  …${long.slice(at - 40)}`, `  ${' '.repeat(41)}^`], 'a long line is cut around the error');
      g.dispose();
    },
  },
  {
    name: 'validation problems carry a JSON pointer into the definition',
    run({ StateMachine, GraphValidationError }) {
      const m = new StateMachine({ start: 'nowhere', maxSteps: 0 }).addState('a').addState('b').addEdge('a', 'c').addEdge('x', 'a');
      const error = throwsWith(() => m.validate(), GraphValidationError, [], 'validate');
      same(error.problems.map((p) => [p.code, p.pointer]), [
        ['max-steps', '/maxSteps'], ['unknown-start', '/start'], ['unknown-to', '/edges/0/to'], ['unknown-from', '/edges/1/from'],
        ['no-outgoing-edge', '/states/1'],
      ], 'pointers');
      const dup = throwsWith(() => m.addState('b'), GraphValidationError, [], 'duplicate');
      equal(dup.problems[0].pointer, '/states/2/name', 'duplicate pointer');
      m.dispose();
    },
  },
];
