// @ts-check
// The state of one execution (an Execution's one private field, passed to the step files) and
// what every part of a run reads of it: whether it is alive, why it stopped, its result, a
// state's task. The step loop (step.js), fan-outs (fan-out.js), subgraphs (subgraph.js), routing
// (routing.js), the run loop (run-loop.js), events (events.js) and snapshots (snapshot.js) all
// work on this record; nothing of it is on the public Execution.
import { ExecStatus } from '../contract.js';
import { disposedError } from '../lifetime.js';
import { NO_MACHINE_TRACE } from './trace.js';
import { put } from '../values.js';

/**
 * @import { ExecutionSnapshot, Run, StepRecord, SubgraphRecord } from '../index.js'
 * @import { Execution } from './execution.js'
 * @import { MachineRecord, NativeMachine, PreparedState, ReducerFunction } from './definition.js'
 * @import { HandlerContext } from './handler-context.js'
 */

/**
 * The core's Execution (wasm/machine_bindings.cpp): one run's routing, steps, visits and tasks.
 * @typedef {object} NativeExecution
 * @property {() => number} address
 * @property {(machine: NativeMachine, snapshot: string) => string | null} restore Null, or why the snapshot cannot be restored.
 * @property {() => string} snapshot The JSON text of the core's part of a snapshot.
 * @property {() => Array<[path: string, preview: string]>} unmatchedReads
 * @property {() => string} feedback
 * @property {(state: number) => string} feedbackOf
 * @property {(variables: string) => null | { missing: Array<[state: string, variable: string]>, problem?: undefined } | { missing?: undefined, problem: string }} bindVariables
 * @property {(state: number) => string | null} task
 * @property {() => number} maxStepsFlag -1 without onMaxSteps 'return-with-flag', else 0 or 1.
 * @property {() => FanOutUnderWay | null} fanOutUnderWay
 * @property {() => StepUnderWay | null} subgraphUnderWay
 * @property {() => string} transfers The JSON text of the transfers offered now.
 * @property {(choice: string) => string | null} chooseTransfer Null, or why the choice is refused.
 * @property {() => number} status An ExecStatus.
 * @property {(branch: number) => void} branchDone
 * @property {() => void} cancelStep
 * @property {() => void} abort
 * @property {() => void} delete
 */

/**
 * A restored execution's step under way: its state's index, the step and the visit.
 * @typedef {{ state: number, step: number, visit: number }} StepUnderWay
 */

/**
 * A restored execution's fan-out under way, and which of its branches completed.
 * @typedef {StepUnderWay & { done: boolean[] }} FanOutUnderWay
 */

/**
 * A handler's update as a run keeps it: an object, or null for a visit that returned nothing.
 * @typedef {Record<string, unknown> | null} Update
 */

/**
 * What the machine fixed for its runs (prepare.js): every execution of it reads this.
 * @typedef {object} Prepared
 * @property {string} name
 * @property {NativeMachine} native
 * @property {PreparedState[]} states
 * @property {Map<string, number>} ids
 * @property {Map<string, ReducerFunction>} reducers
 * @property {MachineRecord['onMaxSteps']} onMaxSteps
 * @property {MachineRecord['executions']} executions
 * @property {string[]} variables
 */

/**
 * A branch of a fan-out step begun: the branch state's index, its visit, whether it is a revisit with feedback.
 * @typedef {{ index: number, visit: number, revision: boolean }} BranchBegun
 */

/**
 * A snapshot's fan-out under way, continued by the next step.
 * @typedef {{ under: FanOutUnderWay, outputs: Update[] }} ResumedFanOut
 */

/**
 * A snapshot's subgraph step under way, continued by the next step from the child's own snapshot.
 * @typedef {{ under: StepUnderWay, snapshot: ExecutionSnapshot }} ResumedSubgraph
 */

/**
 * A step begun (step.js begin): its number, state and visit, and what its handler gets.
 * @typedef {object} HandlerStep
 * @property {number} index The state's index.
 * @property {PreparedState} state
 * @property {number} step
 * @property {number} visit
 * @property {boolean} finished Whether finish() took it (else abandoning it cancels it).
 * @property {HandlerContext | null} ctx Null for a subgraph step.
 * @property {AbortSignal | undefined} signal
 * @property {ExecutionSnapshot | null} childSnapshot The subgraph's snapshot it continues from.
 * @property {ResumedSubgraph} [resumedSubgraph] A resumed subgraph step's, put back if it is abandoned.
 * @property {SubgraphRecord} [subgraphRun] What the subgraph's machine did, once it ran.
 * @property {undefined} [branches]
 * @property {undefined} [resumed]
 */

/**
 * A fan-out or map step begun (fan-out.js beginFanOut): its branches, and their updates so far.
 * @typedef {object} FanOutStep
 * @property {number} index
 * @property {PreparedState} state
 * @property {number} step
 * @property {number} visit
 * @property {boolean} finished
 * @property {null} ctx
 * @property {AbortSignal | undefined} signal
 * @property {BranchBegun[]} branches
 * @property {unknown} items A map's list (the value at its path); null for a fan-out.
 * @property {number} concurrency 0: all at once.
 * @property {Update[]} updates By branch: null until it completes (or for none).
 * @property {boolean[]} done By branch: whether it completed.
 * @property {ResumedFanOut} [resumed] A resumed fan-out's, put back if the step is abandoned.
 * @property {undefined} [resumedSubgraph]
 * @property {undefined} [subgraphRun]
 */

/** @typedef {HandlerStep | FanOutStep} Begun */

/** @typedef {import('./trace.js').StepHooks} StepTrace A step's span (js/machine/trace.js): the handler runs inside it, routing in a child span. */

/** @typedef {import('../tracing.js').TraceSpan} RouteSpan A route span (js/machine/trace.js endRoute ends it). */

/**
 * What the steps of a run report to (js/machine/trace.js): spans and the trace log's lines.
 * @typedef {object} StepsTrace
 * @property {(begun: Begun) => StepTrace} step
 * @property {(line: { type: string, [field: string]: unknown }) => void} event
 */

/**
 * A run's trace, opened by the run loop or the event stream and closed by them (run-loop.js).
 * @typedef {StepsTrace & { succeeded(result: Run): void, failed(error: unknown): void, close(): Promise<void> }} RunTrace
 */

/**
 * An execution's record (its one private field): everything its steps read and write.
 * @typedef {object} ExecutionRecord
 * @property {Prepared} prepared
 * @property {{ native: NativeExecution | null }} handle In the machine's list of executions; native is null once disposed.
 * @property {number} address
 * @property {Record<string, unknown>} state
 * @property {StepRecord[]} steps Frozen records.
 * @property {Map<string, Update>} updates State name → the update of its latest visit (revision.previous).
 * @property {Map<string, Update[]>} outputs State name → every visit's update, in visit order (run.outputs).
 * @property {Array<string | null | undefined>} tasks State index → its task, filled; undefined until first read.
 * @property {unknown} failed The error a step failed with; null when none.
 * @property {boolean} running
 * @property {boolean} abortRequested
 * @property {FanOutStep | null} fanOut The fan-out step under way (its branches, updates, completions).
 * @property {AbortController | null} branchController Aborts the branches of the fan-out under way.
 * @property {ResumedFanOut | null} resumedFanOut A snapshot's fan-out under way, continued by the next step.
 * @property {{ exec: Execution<any> | null, latest: ExecutionSnapshot | null } | null} child The subgraph step under way: its execution, its latest snapshot.
 * @property {ResumedSubgraph | null} resumedSubgraph A snapshot's subgraph under way.
 * @property {StepsTrace} trace Spans and log lines of the run under way (js/machine/trace.js).
 */

/** @type {Map<number, Exclude<Execution['reason'], null>>} */
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
/**
 * @param {Prepared} prepared
 * @param {NativeExecution} native
 * @param {Record<string, unknown>} state
 * @returns {ExecutionRecord}
 */
export function runState(prepared, native, state) {
  /** @type {{ native: NativeExecution | null }} */
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
    trace: NO_MACHINE_TRACE,  // spans and log lines of the run under way (js/machine/trace.js)
  };
}

/**
 * The native execution; throws once this execution or its machine is disposed.
 * @param {ExecutionRecord} ex
 * @returns {NativeExecution}
 */
export function live(ex) {
  if (ex.handle.native === null) throw disposedError('execution (or its machine)');
  return ex.handle.native;
}

// A state's task, read from the core on its first visit (a machine of many states, such as a
// fan-out's, would otherwise pay one call per state for every run).
/**
 * @param {ExecutionRecord} ex
 * @param {number} index
 * @returns {string | null}
 */
export function taskOf(ex, index) {
  let task = ex.tasks[index];
  if (task === undefined) {
    task = /** @type {NativeExecution} the step under way's */ (ex.handle.native).task(index);
    ex.tasks[index] = task;
  }
  return task;
}

// A failed step: the error ends the execution, with the steps before it attached.
/**
 * @param {ExecutionRecord} ex
 * @param {unknown} error
 * @returns {unknown}
 */
export function failStep(ex, error) {
  ex.failed = error;
  if (typeof error === 'object' && error !== null) /** @type {{ steps?: StepRecord[] }} */ (error).steps = ex.steps.slice();
  return error;
}

/**
 * null while running (or after a handler failed); then 'end', 'max-steps', 'aborted' or 'no-edge-matched'.
 * @param {ExecutionRecord} ex
 * @returns {Execution['reason']}
 */
export function reasonOf(ex) {
  return REASONS.get(live(ex).status()) ?? null;
}

/**
 * @param {ExecutionRecord} ex
 * @returns {boolean}
 */
export function isDone(ex) {
  return ex.failed !== null || reasonOf(ex) !== null;
}

/**
 * The run as api.md describes it, as it is now: later steps do not change it. `outputs` lists,
 * per state, every visit's update in visit order (null for a visit that returned nothing);
 * with onMaxSteps 'return-with-flag', `maxStepsReached` says whether the run stopped at maxSteps.
 */
/**
 * @param {ExecutionRecord} ex
 * @returns {ReturnType<Execution['result']>}
 */
export function resultOf(ex) {
  /** @type {ReturnType<Execution['result']>} */
  const run = { reason: reasonOf(ex), stepsRun: ex.steps.length, state: ex.state, steps: ex.steps.slice(), outputs: outputsOf(ex) };
  const flag = /** @type {NativeExecution} reasonOf checked it */ (ex.handle.native).maxStepsFlag();
  if (flag >= 0) run.maxStepsReached = flag === 1;
  return run;
}

/**
 * Per state, every visit's update in visit order: a new object of new arrays.
 * @param {ExecutionRecord} ex
 * @returns {Record<string, Update[]>}
 */
export function outputsOf(ex) {
  /** @type {Record<string, Update[]>} */
  const outputs = {};
  for (const [name, list] of ex.outputs) {
    // Assignment is the fast path (a fan-out's machine has many states); only __proto__ needs put.
    if (name === '__proto__') put(outputs, name, list.slice());
    else outputs[name] = list.slice();
  }
  return outputs;
}
