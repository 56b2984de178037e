// @ts-check
// One step of an execution: where a state's handler is called. begin() asks the core for the next
// state and visit (sync) and builds the handler's context; finish() runs the handler (or the
// subgraph's machine; a fan-out's branches in fan-out.js), merges its update with the reducers and
// routes (routing.js). The run loop (run-loop.js), the event stream (events.js) and execution.step()
// all step through here, one step at a time (guard/endStep); abort() stops between steps.
import { StepInfo } from '../contract.js';
import { checkOptions } from '../options.js';
import { requireRuntime } from '../runtime.js';
import { beginFanOut, beginResumedFanOut, finishFanOut } from './fan-out.js';
import { handoffOf, HandlerContext } from './handler-context.js';
import { recordStep } from './routing.js';
import { failStep, isDone, live, taskOf } from './run-state.js';
import { runSubgraph } from './subgraph.js';
import { checkedUpdate, isThenable, keepOutput, merge, revisionOf } from './updates.js';

/**
 * @import { StepRecord } from '../index.js'
 * @import { AnyHandler } from './definition.js'
 * @import { Begun, ExecutionRecord, FanOutStep, HandlerStep, NativeExecution, Update } from './run-state.js'
 */

// Starts the next step (sync): the step's number, state and visit, and the handler's context.
/**
 * @param {ExecutionRecord} ex
 * @param {AbortSignal | undefined} signal
 * @returns {Begun}
 */
export function begin(ex, signal) {
  live(ex);
  if (ex.failed !== null) throw new Error('this execution failed; start a new one or resume a snapshot', { cause: ex.failed });
  const runtime = requireRuntime();
  if (ex.resumedFanOut !== null) return beginResumedFanOut(ex, signal);
  if (ex.resumedSubgraph !== null) {
    const resumed = ex.resumedSubgraph;
    ex.resumedSubgraph = null;
    const { state: index, step, visit } = resumed.under;
    const state = ex.prepared.states[index];
    return { index, state, step, visit, finished: false, ctx: null, signal, childSnapshot: resumed.snapshot, resumedSubgraph: resumed };
  }
  /** @type {number} */
  const index = runtime.execBegin(ex.address);
  if (index < 0) throw new Error('this execution has finished');
  /** @type {Int32Array} */
  const info = runtime.execInfo();
  const state = ex.prepared.states[index];
  const step = info[StepInfo.step];
  const visit = info[StepInfo.visit];
  if (state.fanOut !== null) return beginFanOut(ex, index, state, step, visit, signal, false);
  const revision = info[StepInfo.revision] === 1 ? revisionOf(ex, state.name, visit, /** @type {NativeExecution} live */ (ex.handle.native).feedback()) : null;
  const handoff = state.transfers ? handoffOf(ex) : null;
  const ctx = new HandlerContext(ex.state, step, visit, state.name, signal, revision, taskOf(ex, index), runtime.module, handoff);
  return { index, state, step, visit, finished: false, ctx, signal, childSnapshot: null };
}

// Runs the handler, merges its update and routes. Returns the step's record and the error the
// step ends the run with (no edge matched; max steps with onMaxSteps 'throw'), if any.
/**
 * @param {ExecutionRecord} ex
 * @param {Begun} begun
 * @returns {Promise<{ record: StepRecord, error: Error | null }>}
 */
export async function finish(ex, begun) {
  if (begun.branches !== undefined) return finishFanOut(ex, /** @type {FanOutStep} */ (begun));
  const handlerStep = /** @type {HandlerStep} */ (begun);
  const { state, ctx } = handlerStep;
  begun.finished = true;
  const span = ex.trace.step(begun);
  const started = performance.now();
  /** @type {unknown} */
  let update;
  try {
    if (state.subgraph !== null) {
      ex.child = { exec: null, latest: null };
      const ran = await span.run(() => runSubgraph(ex, state, begun.signal, handlerStep.childSnapshot, ex.child));
      begun.subgraphRun = ran.run;
      update = ran.update;
    } else {
      update = state.handler === null ? undefined : span.run(() => /** @type {AnyHandler} */ (state.handler)(/** @type {HandlerContext} a handler step's */ (ctx)));
    }
    if (isThenable(update)) update = await update;
    const checked = checkedUpdate(update, state.name);
    update = checked;
    ex.state = merge(ex.state, [checked], ex.prepared.reducers);
  } catch (error) {
    span.fail(failStep(ex, error));
    throw error;
  } finally {
    ex.child = null;
  }
  const durationMs = performance.now() - started;
  const output = /** @type {Update} checked */ (update);
  keepOutput(ex, state.name, output);
  return recordStep(ex, begun, output, durationMs, null, span);
}

/**
 * @param {ExecutionRecord} ex
 * @returns {void}
 */
export function guard(ex) {
  if (ex.running) throw new Error('a step of this execution is already running');
  ex.running = true;
}

// The step under way is over: an abort() asked for meanwhile takes effect now.
/**
 * @param {ExecutionRecord} ex
 * @returns {void}
 */
export function endStep(ex) {
  ex.running = false;
  if (ex.abortRequested && ex.handle.native !== null) {
    ex.abortRequested = false;
    ex.handle.native.abort();
  }
}

/**
 * Runs one step; resolves its record, or null when the execution has already finished.
 * @param {ExecutionRecord} ex
 * @param {{ signal?: AbortSignal } | undefined} options
 * @returns {Promise<StepRecord | null>}
 */
export async function stepOnce(ex, options) {
  const { signal } = checkOptions(options, ['signal'], 'step options');
  if (isDone(ex)) return null;
  guard(ex);
  try {
    const { record, error } = await finish(ex, begin(ex, signal));
    if (error !== null) throw error;
    return record;
  } finally {
    endStep(ex);
  }
}

/**
 * Stops the run: at once between steps, or as soon as the step under way finishes.
 * @param {ExecutionRecord} ex
 * @returns {void}
 */
export function abort(ex) {
  const native = live(ex);
  // A step under way, or a resumed fan-out's (the core is in its step): its branches' signal is
  // aborted, and the run stops once the step is over.
  if (ex.running || ex.resumedFanOut !== null || ex.resumedSubgraph !== null) {
    ex.abortRequested = true;
    ex.branchController?.abort();
    ex.child?.exec?.abort();
  } else {
    native.abort();
  }
}
