// Runs tests/vectors/machines.json against the JavaScript API (Node and Chromium both use it).
// The scenario's script plays the handlers: state X on its k-th visit returns script[X][k - 1].
// An edge's "predicate" spec becomes the function of addEdge(from, to, fn, { description }):
// { verdicts: [...] } answers its k-th call with verdicts[k - 1] (false after), { lastOutputEquals:
// {...} } says whether the update just returned has those members, { throws: message } throws.
// tests/cpp/machine_test.cpp plays the same specs natively.

import { clone, plainSteps, problemCollector, runToOutcome } from './machine-scenario.js';
import { expectEqual } from './same.js';

function predicateOf(spec, edgeIndex, calls) {
  let count = 0;
  return (ctx) => {
    calls.push([ctx.step, edgeIndex]);
    if (!Object.isFrozen(ctx)) throw new Error('the predicate context is not frozen');
    for (const key of ['state', 'step', 'visit', 'stateName', 'lastOutput']) {
      if (!(key in ctx)) throw new Error(`the predicate context lacks ${key}`);
    }
    const call = count++;
    if (spec.throws !== undefined) throw new Error(spec.throws);
    if (spec.verdicts !== undefined) return spec.verdicts[call] ?? false;
    const out = ctx.lastOutput;
    if (typeof out !== 'object' || out === null) return false;
    return Object.entries(spec.lastOutputEquals).every(([k, v]) => Object.hasOwn(out, k) && out[k] === v);
  };
}

export async function runMachineScenario(api, scenario) {
  const spec = scenario.machine;
  const expect = scenario.expect;
  const { collect, settled } = problemCollector(api);
  const flagged = (spec.onMaxSteps ?? 'return') === 'return-with-flag';
  const machine = new api.StateMachine({
    name: spec.name,
    start: spec.start,
    maxSteps: spec.maxSteps ?? 50,
    onMaxSteps: spec.onMaxSteps ?? 'return',
    feedbackOnRevisit: spec.feedbackOnRevisit ?? true,
    noFeedbackStates: spec.noFeedbackStates ?? [],
    reducers: spec.reducers ?? {},
  });
  try {
    const revisions = {};
    const feedback = {};
    const tasks = {};
    const predicateCalls = [];
    const transfers = {};
    for (const state of spec.states ?? []) {
      const options = { feedbackOnRevisit: state.feedbackOnRevisit ?? true };
      if (state.task !== undefined) options.task = state.task;
      if (state.handoffs !== undefined) options.handoffs = state.handoffs;
      collect(() =>
        machine.addState(state.name, (ctx) => {
          (revisions[ctx.stateName] ??= []).push(ctx.revision && { visit: ctx.revision.visit, previous: ctx.revision.previous });
          (feedback[ctx.stateName] ??= []).push(ctx.feedback);
          if ((ctx.revision === null) !== (ctx.feedback === null)) throw new Error('feedback and revision disagree');
          if (ctx.revision && !ctx.revision.feedback.includes(`visit ${ctx.visit}`)) throw new Error('feedback sentence lacks the visit');
          if (Object.hasOwn(tasks, ctx.stateName) && tasks[ctx.stateName] !== ctx.task) throw new Error('a task changed between visits');
          tasks[ctx.stateName] = ctx.task;
          if (state.handoffs !== undefined) {
            // What the state was offered on this visit, then the scenario's choice (a refusal noted).
            const offered = ctx.transfers.map((t) => t.name);
            (transfers[ctx.stateName] ??= []).push(offered);
            const choice = scenario.choices?.[ctx.stateName]?.[ctx.visit - 1];
            if (typeof choice === 'string') {
              try {
                ctx.transfer(choice);
              } catch (error) {
                if (!(error instanceof RangeError)) throw error;
                offered.push(`refused: ${error.message}`);
              }
            }
          }
          return clone(scenario.script?.[ctx.stateName]?.[ctx.visit - 1] ?? undefined);
        }, options),
      );
    }
    (spec.edges ?? []).forEach((edge, index) => {
      if (edge.transfer) {
        collect(() => machine.addEdge(edge.from, edge.to, edge.description === undefined ? { transfer: true } : { transfer: true, description: edge.description }));
      } else if (edge.predicate !== undefined) {
        collect(() => machine.addEdge(edge.from, edge.to, predicateOf(edge.predicate, index, predicateCalls), { description: edge.description ?? '' }));
      } else {
        collect(() => machine.addEdge(edge.from, edge.to, edge.description === undefined ? edge.when : { when: edge.when, description: edge.description }));
      }
    });
    collect(() => machine.validate());
    if (settled(expect)) return;

    const { run, error } = await runToOutcome(machine, scenario);
    let steps;
    let state;
    let outputs;
    if (expect.error === 'max-steps') {
      if (!(error instanceof api.MaxStepsError)) throw new Error(`expected MaxStepsError, got ${error ?? run.reason}`);
      ({ steps, state, outputs } = error.run);
      expectEqual(error.run.reason, 'max-steps', 'error.run.reason');
    } else if (expect.error === 'no-edge-matched') {
      if (!(error instanceof api.NoEdgeMatchedError)) throw new Error(`expected NoEdgeMatchedError, got ${error ?? run.reason}`);
      steps = error.steps;
      if (expect.failedState) expectEqual(error.stateName, expect.failedState, 'failed state');
    } else if (expect.error === 'missing-variables') {
      if (!(error instanceof api.MissingVariablesError)) throw new Error(`expected MissingVariablesError, got ${error ?? run.reason}`);
      expectEqual(error.missing.map((m) => [m.state, m.variable]), expect.missing, 'missing variables');
      steps = [];
    } else if (expect.error === 'predicate-threw') {
      if (!(error instanceof Error) || error.message !== expect.message) throw new Error(`expected the predicate's error, got ${error ?? run.reason}`);
      steps = error.steps;
    } else {
      if (error !== null) throw error;
      ({ steps, state, outputs } = run);
      expectEqual(run.reason, expect.reason, 'reason');
      expectEqual(run.stepsRun, expect.stepsRun, 'stepsRun');
      if (!flagged && 'maxStepsReached' in run) throw new Error("only 'return-with-flag' runs carry maxStepsReached");
      if (flagged) expectEqual(run.maxStepsReached, expect.maxStepsReached ?? run.reason === 'max-steps', 'maxStepsReached');
    }
    expectEqual(steps.length, expect.stepsRun, 'steps run');
    expectEqual(plainSteps(steps), expect.steps, 'steps');
    if (expect.state && state !== undefined) expectEqual(state, expect.state, 'final state');
    if (expect.outputs) expectEqual(outputs, expect.outputs, 'outputs');
    if (outputs !== undefined) {
      // Each step's update is its state's output of that visit.
      for (const s of steps) if (!Object.hasOwn(outputs, s.state) || outputs[s.state].length < s.visit) throw new Error(`no output for step ${s.step}`);
    }
    if (expect.predicateCalls) expectEqual(predicateCalls, expect.predicateCalls, 'predicate calls');
    if (expect.transfers) expectEqual(transfers, expect.transfers, 'transfers');
    for (const [name, expected] of Object.entries(expect.revisions ?? {})) expectEqual(revisions[name] ?? [], expected, `revisions of ${name}`);
    for (const [name, expected] of Object.entries(expect.feedback ?? {})) expectEqual(feedback[name] ?? [], expected, `feedback of ${name}`);
    for (const [name, expected] of Object.entries(expect.tasks ?? {})) expectEqual(tasks[name], expected, `task of ${name}`);
  } finally {
    machine.dispose();
  }
}
