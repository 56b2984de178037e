// Runs tests/vectors/subgraphs.json against the JavaScript API (Node and Chromium both use it); the
// vectors' header says what each field plays. tests/cpp/subgraph_test.cpp plays them natively.

import { clone, plainSteps, problemCollector, runToOutcome, sleep } from './machine-scenario.js';
import { expectEqual } from './same.js';

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
  const { collect, settled } = problemCollector(api);
  const made = [];
  try {
    const machine = build(api, scenario, scenario.machine, '', made, collect);
    collect(() => machine.validate());
    if (settled(expect)) return;
    const { run, error } = await runToOutcome(machine, scenario);
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
    expectEqual(plainSteps(steps), expect.steps, 'steps');
  } finally {
    for (const m of made.reverse()) m.dispose();
  }
}
