// Runs tests/vectors/fanout.json against the JavaScript API (Node and Chromium both use it); the
// vectors' header says what each field plays. tests/cpp/fanout_test.cpp plays the same scenarios
// natively (without the delays, which only JavaScript's concurrency can show).

import { clone, plainSteps, problemCollector, runToOutcome, sleep } from './machine-scenario.js';
import { expectEqual } from './same.js';

function declare(api, machine, state) {
  const options = {};
  if (state.concurrency !== undefined) options.concurrency = state.concurrency;
  if (state.branches !== undefined) return machine.addFanOut(state.name, state.branches, options);
  if (state.map !== undefined) return machine.addMap(state.name, state.map.state, { over: state.map.over, ...options });
  return null;
}

export async function runFanOutScenario(api, scenario) {
  const spec = scenario.machine;
  const expect = scenario.expect;
  const { collect, settled } = problemCollector(api);
  const machine = new api.StateMachine({
    name: spec.name,
    start: spec.start,
    maxSteps: spec.maxSteps ?? 50,
    onMaxSteps: spec.onMaxSteps ?? 'return',
    reducers: spec.reducers ?? {},
  });
  try {
    const seen = { items: {}, indexes: {}, revisions: {}, aborted: [], inFlight: {}, maxInFlight: {} };
    for (const state of spec.states ?? []) {
      if (state.branches !== undefined || state.map !== undefined) {
        collect(() => declare(api, machine, state));
        continue;
      }
      const name = state.name;
      collect(() =>
        machine.addState(name, async (ctx) => {
          if ('index' in ctx) (seen.indexes[name] ??= []).push(ctx.index);
          if ('item' in ctx) (seen.items[name] ??= []).push(ctx.item);
          (seen.revisions[name] ??= []).push(ctx.revision && { visit: ctx.revision.visit, previous: ctx.revision.previous });
          seen.inFlight[name] = (seen.inFlight[name] ?? 0) + 1;
          seen.maxInFlight[name] = Math.max(seen.maxInFlight[name] ?? 0, seen.inFlight[name]);
          try {
            const thrown = scenario.throws?.[name];
            if (thrown !== undefined && thrown.visit === ctx.visit) throw new Error(thrown.message);
            const delay = scenario.delays?.[name]?.[ctx.visit - 1];
            if (delay !== undefined) await sleep(delay);
            if (ctx.signal?.aborted) seen.aborted.push(name);
            return clone(scenario.script?.[name]?.[ctx.visit - 1] ?? undefined);
          } finally {
            seen.inFlight[name] -= 1;
          }
        }, state.handoffs === undefined ? undefined : { handoffs: state.handoffs }),
      );
    }
    for (const edge of spec.edges ?? []) collect(() => machine.addEdge(edge.from, edge.to, edge.transfer ? { transfer: true } : edge.when));
    collect(() => machine.validate());
    if (settled(expect)) return;

    const { run, error } = await runToOutcome(machine, scenario);
    let steps;
    let state;
    let outputs;
    if (expect.error === 'no-edge-matched') {
      if (!(error instanceof api.NoEdgeMatchedError)) throw new Error(`expected NoEdgeMatchedError, got ${error ?? run.reason}`);
      steps = error.steps;
    } else if (expect.error === 'not-a-list') {
      if (!(error instanceof TypeError) || !/which is not a list/.test(error.message)) throw new Error(`expected the not-a-list TypeError, got ${error ?? run.reason}`);
      steps = error.steps;
    } else if (expect.error === 'branch-threw') {
      if (!(error instanceof Error) || error.message !== expect.message) throw new Error(`expected the branch's error, got ${error ?? run.reason}`);
      expectEqual({ ...error.branch }, expect.branch, 'failed branch');
      steps = error.steps;
    } else {
      if (error !== null) throw error;
      ({ steps, state, outputs } = run);
      expectEqual(run.reason, expect.reason, 'reason');
      expectEqual(run.stepsRun, expect.stepsRun, 'stepsRun');
    }
    expectEqual(steps.length, expect.stepsRun, 'steps run');
    expectEqual(plainSteps(steps), expect.steps, 'steps');
    for (const s of steps) {
      if (!Object.isFrozen(s) || (s.branches !== undefined && !s.branches.every(Object.isFrozen))) throw new Error('step records are not frozen');
    }
    if (expect.state && state !== undefined) expectEqual(state, expect.state, 'final state');
    if (expect.outputs) expectEqual(outputs, expect.outputs, 'outputs');
    for (const [name, expected] of Object.entries(expect.items ?? {})) expectEqual(seen.items[name] ?? [], expected, `items of ${name}`);
    for (const [name, expected] of Object.entries(expect.indexes ?? {})) expectEqual(seen.indexes[name] ?? [], expected, `indexes of ${name}`);
    for (const [name, expected] of Object.entries(expect.revisions ?? {})) expectEqual(seen.revisions[name] ?? [], expected, `revisions of ${name}`);
    if (expect.aborted) expectEqual(seen.aborted, expect.aborted, 'aborted branches');
    for (const [name, expected] of Object.entries(expect.maxInFlight ?? {})) expectEqual(seen.maxInFlight[name], expected, `most ${name} at once`);
  } finally {
    machine.dispose();
  }
}
