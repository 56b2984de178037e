// What the machine-shaped vector runners (machine-runner.js, fanout-runner.js, subgraph-runner.js)
// share, in Node and in Chromium: collecting the GraphValidationErrors a scenario's declarations
// raise, checking them against the expected problems, and running the machine to an outcome.

import { expectEqual } from './same.js';

export const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `collect(fn)` runs a declaration and keeps the codes and pointers of the GraphValidationError it
 * throws (any other error propagates). `settled(expect)` compares them with the scenario's expected
 * problems: true when the scenario expected problems (nothing left to run), false when it did not
 * and none were raised; it throws otherwise.
 */
export function problemCollector(api) {
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
  const settled = (expect) => {
    if (expect.problems) {
      expectEqual(problems, expect.problems, 'problems');
      if (expect.pointers) expectEqual(pointers, expect.pointers, 'pointers');
      return true;
    }
    if (problems.length > 0) throw new Error(`unexpected problems ${problems}`);
    return false;
  };
  return { collect, settled };
}

/** machine.run on a copy of the scenario's initial state: { run } or { error }. */
export async function runToOutcome(machine, scenario) {
  try {
    return { run: await machine.run(clone(scenario.initialState)), error: null };
  } catch (error) {
    return { run: undefined, error };
  }
}

/** Step records as plain values (durations dropped), for comparing with the vectors. */
export function plainSteps(steps) {
  return steps.map(({ durationMs, ...rest }) => {
    const out = { ...rest };
    if (rest.branches) out.branches = rest.branches.map((b) => ({ ...b }));
    if (rest.subgraph) out.subgraph = { ...rest.subgraph };
    return out;
  });
}
