// @ts-check
// The run loop: machine.run(), execution.run() and a durable run's resume step an execution to
// its end (step.js), opening the run's trace (js/machine/trace.js: spans, the trace log) first and
// closing it last; a durable run saves its checkpoint after every step (js/durable.js), before
// onStep hears of the step.
import { checkOptions } from '../options.js';
import { RECORDING_VERSION } from '../recording.js';
import { describe } from '../text.js';
import { checkTracing } from '../tracing.js';
import { NO_MACHINE_TRACE, openRunTrace } from './trace.js';
import { isDone, resultOf } from './run-state.js';
import { abort, begin, endStep, finish, guard } from './step.js';

/**
 * @import { Run, RunOptions, TraceOptions } from '../index.js'
 * @import { Execution } from './execution.js'
 * @import { RunCheckpoints } from '../durable.js'
 * @import { ExecutionRecord, RunTrace } from './run-state.js'
 */

export const TRACE_OPTIONS = ['tracing', 'traceLogPath'];
export const RUN_OPTIONS = ['onStep', 'signal', ...TRACE_OPTIONS];

// The trace log's first line of a run (docs/replay.md): the state and step it starts from.
/** @type {(ex: ExecutionRecord) => () => { recording: number, state: Record<string, unknown>, step: number }} */
const startLine = (ex) => () => ({ recording: RECORDING_VERSION, state: ex.state, step: ex.steps.length });

/**
 * Opens the run's trace (js/machine/trace.js: spans, the trace log) per the `tracing` and
 * `traceLogPath` options (`where` names them in errors); the steps report to it until closeTrace.
 */
/**
 * @param {ExecutionRecord} ex
 * @param {TraceOptions['tracing']} tracing
 * @param {TraceOptions['traceLogPath']} traceLogPath
 * @param {string} where
 * @param {string} [runId]
 * @returns {Promise<RunTrace>}
 */
export async function openTrace(ex, tracing, traceLogPath, where, runId) {
  /** @type {RunTrace} */
  const trace = await openRunTrace(checkTracing(tracing, traceLogPath, where), { machine: ex.prepared.name, runId, start: startLine(ex) });
  ex.trace = trace;
  return trace;
}

/** The run is over (its success or failure told to `trace`): no trace from now on, and this one closed. */
/**
 * @param {ExecutionRecord} ex
 * @param {RunTrace} trace
 * @returns {Promise<void>}
 */
export async function closeTrace(ex, trace) {
  ex.trace = NO_MACHINE_TRACE;
  await trace.close();
}

// The run loop, traced per the options; `checkpoints` (a durable run's, or null) saves the
// snapshot after every step, before onStep hears of it.
/**
 * @param {ExecutionRecord} ex
 * @param {Execution<any>} execution the Execution whose record `ex` is
 * @param {RunOptions | undefined} options
 * @param {string} where
 * @param {RunCheckpoints | null} checkpoints
 * @returns {Promise<Run>}
 */
export async function drive(ex, execution, options, where, checkpoints) {
  const { onStep, signal, tracing, traceLogPath } = checkOptions(options, RUN_OPTIONS, where);
  if (onStep !== undefined && typeof onStep !== 'function') throw new TypeError(`onStep must be a function, got ${describe(onStep)}`);
  // An execution that failed stays failed: running it again rejects with its error.
  if (ex.failed !== null) throw ex.failed;
  const trace = await openTrace(ex, tracing, traceLogPath, where, checkpoints?.runId);
  try {
    while (!isDone(ex)) {
      if (signal?.aborted) {
        abort(ex);
        break;
      }
      guard(ex);
      let outcome;
      try {
        outcome = await finish(ex, begin(ex, signal));
      } finally {
        endStep(ex);
      }
      if (checkpoints !== null) await checkpoints.save(execution);
      if (onStep !== undefined) onStep(outcome.record);
      if (outcome.error !== null) throw outcome.error;
    }
    // (A step that leaves the reason 'no-edge-matched' or null fails, so it is never a Run's.)
    const result = /** @type {Run} */ (resultOf(ex));
    trace.succeeded(result);
    return result;
  } catch (error) {
    trace.failed(error);
    throw error;
  } finally {
    await closeTrace(ex, trace);
  }
}
