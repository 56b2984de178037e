// Runs tests/vectors/machines.json against the JavaScript API (Node and Chromium both use it).
// The scenario's script plays the handlers: state X on its k-th visit returns script[X][k - 1].

import { expectEqual } from './same.js';

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

export async function runMachineScenario(api, scenario) {
  const spec = scenario.machine;
  const expect = scenario.expect;
  const problems = [];
  const collect = (fn) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof api.GraphValidationError)) throw error;
      problems.push(...error.problems.map((p) => p.code));
    }
  };
  const machine = new api.StateMachine({
    name: spec.name,
    start: spec.start,
    maxSteps: spec.maxSteps ?? 50,
    onMaxSteps: spec.onMaxSteps ?? 'return',
    feedbackOnRevisit: spec.feedbackOnRevisit ?? true,
    reducers: spec.reducers ?? {},
  });
  try {
    const revisions = {};
    for (const state of spec.states ?? []) {
      collect(() =>
        machine.addState(state.name, (ctx) => {
          (revisions[ctx.stateName] ??= []).push(ctx.revision && { visit: ctx.revision.visit, previous: ctx.revision.previous });
          if (ctx.revision && !ctx.revision.feedback.includes(`visit ${ctx.visit}`)) throw new Error('feedback sentence lacks the visit');
          return clone(scenario.script?.[ctx.stateName]?.[ctx.visit - 1] ?? undefined);
        }, { feedbackOnRevisit: state.feedbackOnRevisit ?? true }),
      );
    }
    for (const edge of spec.edges ?? []) collect(() => machine.addEdge(edge.from, edge.to, edge.when));
    collect(() => machine.validate());
    if (expect.problems) {
      expectEqual(problems, expect.problems, 'problems');
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
    let state;
    if (expect.error === 'max-steps') {
      if (!(error instanceof api.MaxStepsError)) throw new Error(`expected MaxStepsError, got ${error ?? run.reason}`);
      ({ steps, state } = error.run);
      expectEqual(error.run.reason, 'max-steps', 'error.run.reason');
    } else if (expect.error === 'no-edge-matched') {
      if (!(error instanceof api.NoEdgeMatchedError)) throw new Error(`expected NoEdgeMatchedError, got ${error ?? run.reason}`);
      steps = error.steps;
      if (expect.failedState) expectEqual(error.stateName, expect.failedState, 'failed state');
    } else {
      if (error !== null) throw error;
      ({ steps, state } = run);
      expectEqual(run.reason, expect.reason, 'reason');
      expectEqual(run.stepsRun, expect.stepsRun, 'stepsRun');
    }
    expectEqual(steps.length, expect.stepsRun, 'steps run');
    expectEqual(steps.map(({ durationMs, ...rest }) => rest), expect.steps, 'steps');
    if (expect.state && state !== undefined) expectEqual(state, expect.state, 'final state');
    for (const [name, expected] of Object.entries(expect.revisions ?? {})) expectEqual(revisions[name] ?? [], expected, `revisions of ${name}`);
  } finally {
    machine.dispose();
  }
}
