// @ts-check
// Execution: one run of a StateMachine (api.md "Execution"), made by machine.start() and
// machine.resume(). Its one private field is the run's record (run-state.js); each of its methods
// hands that record to the file that does the work: a step (step.js), the run loop (run-loop.js),
// the event stream (events.js), a snapshot (snapshot.js).
import { exportOf } from '../export.js';
import { adopt, disposable, inspection, inspectSymbol, release } from '../lifetime.js';
import { checkOptions } from '../options.js';
import { streamEvents } from './events.js';
import { drive } from './run-loop.js';
import { isDone, outputsOf, reasonOf, resultOf, runState } from './run-state.js';
import { restore, takeSnapshot } from './snapshot.js';
import { abort, stepOnce } from './step.js';

/**
 * @import { AgentEnsembleDagModel, DagModel, ExecutionSnapshot, MachineEvent, Run, RunOptions, StepRecord, StreamOptions } from '../index.js'
 * @import { RunCheckpoints } from '../durable.js'
 * @import { ExecutionRecord, NativeExecution, Prepared } from './run-state.js'
 */

// An execution's record (for StateMachine's run and resume, which drive it with a store's checkpoints).
/** @type {(execution: Execution<any>) => ExecutionRecord} */
let recordOf;

/**
 * One run of a StateMachine. Created by machine.start() / machine.resume().
 * @template {Record<string, unknown>} [S=Record<string, unknown>]
 */
export class Execution {
  /** @type {ExecutionRecord} */
  #ex;  // the run's record (run-state.js): state, steps, outputs, the step under way, the native execution

  /**
   * machine.start() and machine.resume() make executions; the constructor is not the API
   * (private in the declarations: newExecution() below makes them).
   * @private
   * @param {Prepared} prepared
   * @param {NativeExecution} native
   * @param {Record<string, unknown>} state
   * @param {ExecutionSnapshot | null} snapshot
   */
  constructor(prepared, native, state, snapshot) {
    const ex = runState(prepared, native, state);
    this.#ex = ex;
    const { handle } = ex;
    // Collected without dispose(): its native side is freed and it leaves the machine's list.
    adopt(this, {
      delete() {
        prepared.executions.delete(handle);
        native.delete();
      },
    });
    if (snapshot !== null) restore(ex, native, snapshot);
  }

  static {
    recordOf = (execution) => execution.#ex;
  }

  /**
   * The current state (the initial state, merged with every update so far).
   * @returns {S}
   */
  get state() {
    return /** @type {S} the run's: the initial state and the handlers' updates */ (this.#ex.state);
  }

  /**
   * The steps run so far, { step, state, visit, next, edge, durationMs } each: a new array of frozen records.
   * @returns {StepRecord[]}
   */
  get steps() {
    return this.#ex.steps.slice();
  }

  /** @returns {number} */
  get stepsRun() {
    return this.#ex.steps.length;
  }

  /**
   * null while running (or after a handler failed); then 'end', 'max-steps', 'aborted' or 'no-edge-matched'.
   * @returns {'end' | 'max-steps' | 'aborted' | 'no-edge-matched' | null}
   */
  get reason() {
    return reasonOf(this.#ex);
  }

  /** @returns {boolean} */
  get done() {
    return isDone(this.#ex);
  }

  /**
   * The run as api.md describes it, as it is now: later steps do not change it. `outputs` lists,
   * per state, every visit's update in visit order (null for a visit that returned nothing);
   * with onMaxSteps 'return-with-flag', `maxStepsReached` says whether the run stopped at maxSteps.
   * @returns {Omit<Run<S>, 'reason'> & { reason: Execution<S>['reason'] }}
   */
  result() {
    return /** @type {Omit<Run<S>, 'reason'> & { reason: Execution<S>['reason'] }} */ (resultOf(this.#ex));
  }

  /**
   * Per state, every visit's update in visit order: a new object of new arrays.
   * @returns {Run<S>['outputs']}
   */
  get outputs() {
    return /** @type {Run<S>['outputs']} */ (outputsOf(this.#ex));
  }

  /**
   * Runs one step; resolves its record, or null when the execution has already finished.
   * @param {{ signal?: AbortSignal }} [options]
   * @returns {Promise<StepRecord | null>}
   */
  step(options) {
    return stepOnce(this.#ex, options);
  }

  /**
   * Stops the run: at once between steps, or as soon as the step under way finishes.
   * @returns {void}
   */
  abort() {
    abort(this.#ex);
  }

  /**
   * Runs to the end. Resolves { reason, stepsRun, state, steps }.
   * @param {RunOptions} [options]
   * @returns {Promise<Run<S>>}
   */
  run(options) {
    return /** @type {Promise<Run<S>>} */ (drive(this.#ex, this, options, 'run options', null));
  }

  /**
   * Runs to the end, yielding { type: 'step:start' | 'step:end' | 'end', ... } events.
   * @param {StreamOptions} [options]
   * @returns {AsyncGenerator<MachineEvent<S>, void, undefined>}
   */
  stream(options) {
    return /** @type {AsyncGenerator<MachineEvent<S>, void, undefined>} */ (streamEvents(this.#ex, options));
  }

  /**
   * Plain JSON that machine.resume() continues exactly (taken between steps).
   * @returns {ExecutionSnapshot}
   */
  snapshot() {
    return takeSnapshot(this.#ex);
  }

  /**
   * The DAG model of the machine with this execution's steps marked (`format` as machine.toDag).
   * @overload
   * @param {{ format?: 'handoff-graph' }} [options]
   * @returns {DagModel}
   */
  /**
   * @overload
   * @param {{ format: 'agentensemble', generatedAt?: string }} options
   * @returns {AgentEnsembleDagModel}
   */
  /**
   * @param {{ format?: 'handoff-graph' | 'agentensemble', generatedAt?: string }} [options]
   * @returns {DagModel | AgentEnsembleDagModel}
   */
  toDag(options) {
    const { format, generatedAt } = checkOptions(options, ['format', 'generatedAt'], 'execution.toDag options');
    /** @type {{ highlight: unknown, format?: string, generatedAt?: string }} */
    const marks = { highlight: resultOf(this.#ex) };
    if (format !== undefined) marks.format = format;
    if (generatedAt !== undefined) marks.generatedAt = generatedAt;
    return JSON.parse(exportOf(this.#ex.prepared.native, 'dag', marks));
  }

  /** @returns {void} */
  dispose() {
    const ex = this.#ex;
    if (ex.handle.native === null) return;
    ex.prepared.executions.delete(ex.handle);
    release(this, ex.handle.native);
    ex.handle.native = null;
  }

  /**
   * What console.log and util.inspect show: the machine, where the run is, or that it is disposed.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {number} _depth
   * @param {object} options
   * @param {(value: unknown, options: object) => string} inspect
   * @returns {string}
   */
  [inspectSymbol](_depth, options, inspect) {
    const ex = this.#ex;
    const machine = `'${ex.prepared.name}'`;
    if (ex.handle.native === null) return `Execution of ${machine} <disposed>`;
    const last = ex.steps.at(-1);
    const summary = { stepsRun: ex.steps.length, lastState: last?.state ?? null, next: last?.next ?? null, reason: reasonOf(ex), failed: ex.failed !== null };
    return inspection(`Execution of ${machine}`, summary, options, inspect);
  }
}
// (Its constructor is private in the declarations: cast to the constructor it is.)
disposable(/** @type {abstract new (...args: any) => Execution<any>} */ (/** @type {unknown} */ (Execution)));

/**
 * A new execution, for machine.start() and machine.resume(): Execution's constructor is private
 * in the declarations, as it is not the API.
 * @template {Record<string, unknown>} S
 * @param {Prepared} prepared
 * @param {NativeExecution} native
 * @param {S} state
 * @param {ExecutionSnapshot | null} snapshot
 * @returns {Execution<S>}
 */
export function newExecution(prepared, native, state, snapshot) {
  const Constructor = /** @type {new (...args: [Prepared, NativeExecution, S, ExecutionSnapshot | null]) => Execution<S>} */ (/** @type {unknown} */ (Execution));
  return new Constructor(prepared, native, state, snapshot);
}

/**
 * Runs `execution` to its end (the run loop), for StateMachine's run and resume: `checkpoints`
 * (a durable run's, or null) saves the snapshot after every step.
 */
/**
 * @param {Execution<any>} execution
 * @param {RunOptions | undefined} options
 * @param {string} where
 * @param {RunCheckpoints | null} checkpoints
 * @returns {Promise<Run>}
 */
export function driveExecution(execution, options, where, checkpoints) {
  return drive(recordOf(execution), execution, options, where, checkpoints);
}
