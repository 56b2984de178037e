// The run loop: machine.run(), execution.run() and a durable run's resume step an execution to
// its end (step.js), opening the run's trace (js/tracing.js: spans, the trace log) first and
// closing it last; a durable run saves its checkpoint after every step (js/durable.js), before
// onStep hears of the step.
import { checkOptions } from '../options.js';
import { RECORDING_VERSION } from '../recording.js';
import { describe } from '../text.js';
import { checkTracing, NO_MACHINE_TRACE, openRunTrace } from '../tracing.js';
import { isDone, resultOf } from './run-state.js';
import { abort, begin, endStep, finish, guard } from './step.js';

export const TRACE_OPTIONS = ['tracing', 'traceLogPath'];
export const RUN_OPTIONS = ['onStep', 'signal', ...TRACE_OPTIONS];

// The trace log's first line of a run (docs/replay.md): the state and step it starts from.
const startLine = (ex) => () => ({ recording: RECORDING_VERSION, state: ex.state, step: ex.steps.length });

/**
 * Opens the run's trace (js/tracing.js: spans, the trace log) per the `tracing` and
 * `traceLogPath` options (`where` names them in errors); the steps report to it until closeTrace.
 */
export async function openTrace(ex, tracing, traceLogPath, where, runId) {
  const trace = await openRunTrace(checkTracing(tracing, traceLogPath, where), { machine: ex.prepared.name, runId, start: startLine(ex) });
  ex.trace = trace;
  return trace;
}

/** The run is over (its success or failure told to `trace`): no trace from now on, and this one closed. */
export async function closeTrace(ex, trace) {
  ex.trace = NO_MACHINE_TRACE;
  await trace.close();
}

// The run loop, traced per the options; `checkpoints` (a durable run's, or null) saves the
// snapshot after every step, before onStep hears of it.
export async function drive(ex, execution, options, where, checkpoints) {
  const { onStep, signal, tracing, traceLogPath } = checkOptions(options, RUN_OPTIONS, where);
  if (onStep !== undefined && typeof onStep !== 'function') throw new TypeError(`onStep must be a function, got ${describe(onStep)}`);
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
    const result = resultOf(ex);
    trace.succeeded(result);
    return result;
  } catch (error) {
    trace.failed(error);
    throw error;
  } finally {
    await closeTrace(ex, trace);
  }
}
