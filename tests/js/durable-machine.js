// The machine of tests/js/durable.test.mjs, shared with the child processes that run it
// (tests/js/durable-child.mjs): a counter that loops through two states until it reaches 6, then
// a summary: ten steps. `hangAt`: the step whose handler never returns (the parent kills the process there).
import { END, StateMachine } from 'handoff-graph';

export function counter({ hangAt } = {}) {
  const machine = new StateMachine({ name: 'counter', start: 'add', reducers: { log: 'append' } });
  const hang = (step) => (step === hangAt ? new Promise(() => {}) : undefined);
  machine.addState('add', async ({ state, step }) => {
    await hang(step);
    return { n: (state.n ?? 0) + 1, log: [`add@${step}`] };
  });
  machine.addState('double', async ({ state, step }) => {
    await hang(step);
    return { n: state.n * 2, log: [`double@${step}`] };
  });
  machine.addState('summary', ({ state }) => ({ summary: `n=${state.n}` }));
  machine.addEdge('add', 'double', 'n < 20');
  machine.addEdge('add', 'summary');
  machine.addEdge('double', 'add');
  machine.addEdge('summary', END);
  return machine;
}

/** What a run's result must equal across processes: the result without the steps' timings. */
export function comparable(result) {
  return { ...result, steps: result.steps.map(({ durationMs: _durationMs, ...step }) => step) };
}
