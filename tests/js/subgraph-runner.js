// Runs tests/vectors/subgraphs.json against the JavaScript API (Node and Chromium both use it); the
// vectors' header says what each field plays. tests/cpp/subgraph_test.cpp plays them natively.

import { expectEqual } from './same.js';

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The machine of `spec`, its subgraphs built first; states named by their path ('research/search').
function build(api, scenario, spec, prefix, made, collect) {
  const machine = new api.StateMachine({ name: spec.name, start: spec.start, maxSteps: spec.maxSteps ?? 50, reducers: spec.reducers ?? {} });
  made.push(machine);
  for (const state of spec.states ?? []) {
    const name = state.name;
    if (state.subgraph !== undefined) {
      const child = build(api, scenario, state.subgraph, `${prefix}${name}/`, made, collect);
      const options = {};
      if (state.input !== undefined) options.input = state.input;
      if (state.output !== undefined) options.output = state.output;
      collect(() => machine.addSubgraph(name, child, options));
    } else if (state.branches !== undefined) {
      collect(() => machine.addFanOut(name, state.branches));
    } else {
      const key = `${prefix}${name}`;
      collect(() =>
        machine.addState(name, async (ctx) => {
          const delay = scenario.delays?.[key]?.[ctx.visit - 1];
          if (delay !== undefined) await sleep(delay);
          return clone(scenario.script?.[key]?.[ctx.visit - 1] ?? undefined);
        }),
      );
    }
  }
  for (const edge of spec.edges ?? []) collect(() => machine.addEdge(edge.from, edge.to, edge.when));
  return machine;
}

export async function runSubgraphScenario(api, scenario) {
  const expect = scenario.expect;
  const problems = [];
  const pointers = [];
  const collect = (fn) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof api.GraphValidationError)) throw error;
      problems.push(...error.problems.map((p) => p.code));
      pointers.push(...error.problems.map((p) => p.pointer));
    }
  };
  const made = [];
  try {
    const machine = build(api, scenario, scenario.machine, '', made, collect);
    collect(() => machine.validate());
    if (expect.problems) {
      expectEqual(problems, expect.problems, 'problems');
      expectEqual(pointers, expect.pointers, 'pointers');
      return;
    }
    if (problems.length > 0) throw new Error(`unexpected problems ${problems}`);
    let run;
    let error = null;
    try {
      run = await machine.run(clone(scenario.initialState));
    } catch (e) {
      error = e;
    }
    let steps;
    if (expect.error === 'no-edge-matched') {
      if (!(error instanceof api.NoEdgeMatchedError)) throw new Error(`expected NoEdgeMatchedError, got ${error ?? run.reason}`);
      expectEqual(error.subgraph?.state, expect.failedIn, 'the subgraph state that failed');
      steps = error.steps;
    } else {
      if (error !== null) throw error;
      expectEqual(run.reason, expect.reason, 'reason');
      steps = run.steps;
      if (expect.state) expectEqual(run.state, expect.state, 'final state');
    }
    expectEqual(steps.length, expect.stepsRun, 'steps run');
    const plain = steps.map(({ durationMs, ...s }) => {
      const out = { ...s };
      if (s.branches) out.branches = s.branches.map((b) => ({ ...b }));
      if (s.subgraph) out.subgraph = { ...s.subgraph };
      return out;
    });
    expectEqual(plain, expect.steps, 'steps');
  } finally {
    for (const m of made.reverse()) m.dispose();
  }
}
