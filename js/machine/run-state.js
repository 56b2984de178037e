// The state of one execution (an Execution's one private field, passed to the step files) and
// what every part of a run reads of it: whether it is alive, why it stopped, its result, a
// state's task. The step loop (step.js), fan-outs (fan-out.js), subgraphs (subgraph.js), routing
// (routing.js), the run loop (run-loop.js), events (events.js) and snapshots (snapshot.js) all
// work on this record; nothing of it is on the public Execution.
import { ExecStatus } from '../contract.js';
import { disposedError } from '../lifetime.js';
import { NO_MACHINE_TRACE } from '../tracing.js';
import { put } from '../values.js';

const REASONS = new Map([
  [ExecStatus.End, 'end'],
  [ExecStatus.MaxSteps, 'max-steps'],
  [ExecStatus.Aborted, 'aborted'],
  [ExecStatus.NoEdgeMatched, 'no-edge-matched'],
]);

/**
 * A new execution's record. `handle` ({ native }) is what the machine's list of executions holds:
 * native is null once disposed. `prepared` is what the machine fixed for its runs (prepare.js).
 */
export function runState(prepared, native, state) {
  const handle = { native };
  prepared.executions.add(handle);
  return {
    prepared,
    handle,  // { native }, in the machine's list of executions; native is null once disposed
    address: native.address(),
    state,
    steps: [],
    updates: new Map(),  // state name → the update of its latest visit (revision.previous)
    outputs: new Map(),  // state name → every visit's update, in visit order (run.outputs)
    // A task is filled before the first step and never changes: read once per state (taskOf()).
    tasks: new Array(prepared.states.length),  // state index → its task, filled (fixed once the execution exists), read when first needed
    failed: null,
    running: false,
    abortRequested: false,
    fanOut: null,            // the fan-out step under way (its branches, updates, completions)
    branchController: null,  // aborts the branches of the fan-out under way
    resumedFanOut: null,     // a snapshot's fan-out under way, continued by the next step
    child: null,             // the subgraph step under way: { exec, latest } (its execution, its latest snapshot)
    resumedSubgraph: null,   // a snapshot's subgraph under way: { under, snapshot }
    trace: NO_MACHINE_TRACE,  // spans and log lines of the run under way (js/tracing.js)
  };
}

/** The native execution; throws once this execution or its machine is disposed. */
export function live(ex) {
  if (ex.handle.native === null) throw disposedError('execution (or its machine)');
  return ex.handle.native;
}

// A state's task, read from the core on its first visit (a machine of many states, such as a
// fan-out's, would otherwise pay one call per state for every run).
export function taskOf(ex, index) {
  let task = ex.tasks[index];
  if (task === undefined) {
    task = ex.handle.native.task(index);
    ex.tasks[index] = task;
  }
  return task;
}

// A failed step: the error ends the execution, with the steps before it attached.
export function failStep(ex, error) {
  ex.failed = error;
  if (typeof error === 'object' && error !== null) error.steps = ex.steps.slice();
  return error;
}

/** null while running (or after a handler failed); then 'end', 'max-steps', 'aborted' or 'no-edge-matched'. */
export function reasonOf(ex) {
  live(ex);
  return REASONS.get(ex.handle.native.status()) ?? null;
}

export function isDone(ex) {
  return ex.failed !== null || reasonOf(ex) !== null;
}

/**
 * The run as api.md describes it, as it is now: later steps do not change it. `outputs` lists,
 * per state, every visit's update in visit order (null for a visit that returned nothing);
 * with onMaxSteps 'return-with-flag', `maxStepsReached` says whether the run stopped at maxSteps.
 */
export function resultOf(ex) {
  const run = { reason: reasonOf(ex), stepsRun: ex.steps.length, state: ex.state, steps: ex.steps.slice(), outputs: outputsOf(ex) };
  const flag = ex.handle.native.maxStepsFlag();
  if (flag >= 0) run.maxStepsReached = flag === 1;
  return run;
}

/** Per state, every visit's update in visit order: a new object of new arrays. */
export function outputsOf(ex) {
  const outputs = {};
  for (const [name, list] of ex.outputs) {
    // Assignment is the fast path (a fan-out's machine has many states); only __proto__ needs put.
    if (name === '__proto__') put(outputs, name, list.slice());
    else outputs[name] = list.slice();
  }
  return outputs;
}
