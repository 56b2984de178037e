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

// An execution's record (for StateMachine's run and resume, which drive it with a store's checkpoints).
let recordOf;

/** One run of a StateMachine. Created by machine.start() / machine.resume(). */
export class Execution {
  #ex;  // the run's record (run-state.js): state, steps, outputs, the step under way, the native execution

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

  /** The current state (the initial state, merged with every update so far). */
  get state() {
    return this.#ex.state;
  }

  /** The steps run so far, { step, state, visit, next, edge, durationMs } each: a new array of frozen records. */
  get steps() {
    return this.#ex.steps.slice();
  }

  get stepsRun() {
    return this.#ex.steps.length;
  }

  /** null while running (or after a handler failed); then 'end', 'max-steps', 'aborted' or 'no-edge-matched'. */
  get reason() {
    return reasonOf(this.#ex);
  }

  get done() {
    return isDone(this.#ex);
  }

  /**
   * The run as api.md describes it, as it is now: later steps do not change it. `outputs` lists,
   * per state, every visit's update in visit order (null for a visit that returned nothing);
   * with onMaxSteps 'return-with-flag', `maxStepsReached` says whether the run stopped at maxSteps.
   */
  result() {
    return resultOf(this.#ex);
  }

  /** Per state, every visit's update in visit order: a new object of new arrays. */
  get outputs() {
    return outputsOf(this.#ex);
  }

  /** Runs one step; resolves its record, or null when the execution has already finished. */
  step(options) {
    return stepOnce(this.#ex, options);
  }

  /** Stops the run: at once between steps, or as soon as the step under way finishes. */
  abort() {
    abort(this.#ex);
  }

  /** Runs to the end. Resolves { reason, stepsRun, state, steps }. */
  run(options) {
    return drive(this.#ex, this, options, 'run options', null);
  }

  /** Runs to the end, yielding { type: 'step:start' | 'step:end' | 'end', ... } events. */
  stream(options) {
    return streamEvents(this.#ex, options);
  }

  /** Plain JSON that machine.resume() continues exactly (taken between steps). */
  snapshot() {
    return takeSnapshot(this.#ex);
  }

  /** The DAG model of the machine with this execution's steps marked (`format` as machine.toDag). */
  toDag(options) {
    const { format, generatedAt } = checkOptions(options, ['format', 'generatedAt'], 'execution.toDag options');
    const marks = { highlight: resultOf(this.#ex) };
    if (format !== undefined) marks.format = format;
    if (generatedAt !== undefined) marks.generatedAt = generatedAt;
    return JSON.parse(exportOf(this.#ex.prepared.native, 'dag', marks));
  }

  dispose() {
    const ex = this.#ex;
    if (ex.handle.native === null) return;
    ex.prepared.executions.delete(ex.handle);
    release(this, ex.handle.native);
    ex.handle.native = null;
  }

  /** What console.log and util.inspect show: the machine, where the run is, or that it is disposed. */
  [inspectSymbol](_depth, options, inspect) {
    const ex = this.#ex;
    const machine = `'${ex.prepared.name}'`;
    if (ex.handle.native === null) return `Execution of ${machine} <disposed>`;
    const last = ex.steps.at(-1);
    const summary = { stepsRun: ex.steps.length, lastState: last?.state ?? null, next: last?.next ?? null, reason: reasonOf(ex), failed: ex.failed !== null };
    return inspection(`Execution of ${machine}`, summary, options, inspect);
  }
}
disposable(Execution);

/**
 * Runs `execution` to its end (the run loop), for StateMachine's run and resume: `checkpoints`
 * (a durable run's, or null) saves the snapshot after every step.
 */
export function driveExecution(execution, options, where, checkpoints) {
  return drive(recordOf(execution), execution, options, where, checkpoints);
}
