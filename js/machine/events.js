// @ts-check
// The event stream: machine.stream() and execution.stream() step an execution as the run loop
// does (step.js), yielding { type: 'step:start' } before each step's handler runs,
// { type: 'step:end' } with its record after, and { type: 'end' } with the run's result. A
// consumer that stops listening between a step's start and its handler leaves the step untaken.
import { checkOptions } from '../options.js';
import { closeTrace, openTrace, TRACE_OPTIONS } from './run-loop.js';
import { isDone, resultOf } from './run-state.js';
import { abort, begin, endStep, finish, guard } from './step.js';

/**
 * @import { MachineEvent, Run, StreamOptions } from '../index.js'
 * @import { Begun, ExecutionRecord } from './run-state.js'
 */

/**
 * Runs to the end, yielding { type: 'step:start' | 'step:end' | 'end', ... } events.
 * @param {ExecutionRecord} ex
 * @param {StreamOptions | undefined} options
 * @returns {AsyncGenerator<MachineEvent, void, undefined>}
 */
export async function* streamEvents(ex, options) {
  const { signal, tracing, traceLogPath } = checkOptions(options, ['signal', ...TRACE_OPTIONS], 'stream options');
  if (ex.failed !== null) throw ex.failed;  // as run() does
  const trace = await openTrace(ex, tracing, traceLogPath, 'stream options');
  try {
    yield* steps(ex, signal);
    trace.succeeded(/** @type {Run} as in run-loop.js drive */ (resultOf(ex)));
  } catch (error) {
    trace.failed(error);
    throw error;
  } finally {
    await closeTrace(ex, trace);
  }
}

/**
 * @param {ExecutionRecord} ex
 * @param {AbortSignal | undefined} signal
 * @returns {AsyncGenerator<MachineEvent, void, undefined>}
 */
async function* steps(ex, signal) {
  while (!isDone(ex)) {
    if (signal?.aborted) {
      abort(ex);
      break;
    }
    guard(ex);
    /** @type {Begun | null} */
    let begun = null;
    /** @type {Awaited<ReturnType<typeof finish>> | undefined} */
    let outcome;
    try {
      begun = begin(ex, signal);
      /** @type {Extract<MachineEvent, { type: 'step:start' }>} */
      const event = { type: 'step:start', step: begun.step, stateName: begun.state.name, visit: begun.visit };
      if (begun.branches !== undefined) {
        event.branches = begun.branches.map((b) => ({ state: ex.prepared.states[b.index].name, visit: b.visit }));
      }
      yield event;
      outcome = await finish(ex, begun);
    } finally {
      // The consumer stopped listening before the handler ran: the step never happened (a
      // resumed fan-out stays as the snapshot left it, its completed branches kept).
      if (begun !== null && !begun.finished && begun.resumed !== undefined) ex.resumedFanOut = begun.resumed;
      else if (begun !== null && !begun.finished && begun.resumedSubgraph !== undefined) ex.resumedSubgraph = begun.resumedSubgraph;
      else if (begun !== null && !begun.finished && ex.handle.native !== null) ex.handle.native.cancelStep();
      endStep(ex);
    }
    // (Set unless finish threw, which ends the loop.)
    const { record, error } = /** @type {Awaited<ReturnType<typeof finish>>} */ (outcome);
    yield { type: 'step:end', step: record };
    if (error !== null) throw error;
  }
  yield { type: 'end', run: /** @type {Run} as in run-loop.js drive */ (resultOf(ex)) };
}
