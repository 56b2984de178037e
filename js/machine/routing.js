// @ts-check
// Routing a finished step and recording it: the core walks the state's edges in declaration
// order (conditions, transfers); an edge decided by a JavaScript function is asked when the core
// reaches it (routeStep). Then the step's record (next state, fired edge, duration) is kept, traced
// and logged, and a step that ends the run in error (no edge matched; maxSteps with onMaxSteps
// 'throw') says so.
import { Constants, ExecStatus, StepInfo } from '../contract.js';
import { MaxStepsError, NoEdgeMatchedError } from '../errors.js';
import { requireRuntime } from '../runtime.js';
import { describe } from '../text.js';
import { endRoute } from './trace.js';
import { put } from '../values.js';
import { failStep, live, resultOf } from './run-state.js';

/**
 * @import { BranchRecord, Run, StepRecord } from '../index.js'
 * @import { AnyPredicate, PreparedState } from './definition.js'
 * @import { Begun, ExecutionRecord, NativeExecution, StepTrace, Update } from './run-state.js'
 */

/** The terminal pseudo-state: an edge to END finishes the run. */
export const END = '__end__';

// Routes the step and records it (`branches`: a fan-out step's, else null) in its trace span.
/**
 * @param {ExecutionRecord} ex
 * @param {Begun} begun
 * @param {Update} output
 * @param {number} durationMs
 * @param {readonly BranchRecord[] | null} branches
 * @param {StepTrace} span
 * @returns {{ record: StepRecord, error: Error | null }}
 */
export function recordStep(ex, begun, output, durationMs, branches, span) {
  const { state } = begun;
  const runtime = requireRuntime();
  live(ex);
  const route = span.route();
  let status;
  try {
    status = routeStep(ex, begun, output);
  } catch (error) {
    route.end();
    span.fail(error);
    throw error;
  }
  const info = runtime.execInfo();
  const next = info[StepInfo.next];
  const edge = info[StepInfo.edge];
  /** @type {Omit<StepRecord, 'durationMs'> & { durationMs?: number }} */
  const fields = {
    step: begun.step,
    state: state.name,
    visit: begun.visit,
    next: next === Constants.NextEnd ? END : next >= 0 ? ex.prepared.states[next].name : null,
    edge: edge === Constants.NoEdge ? null : edge,
  };
  if (branches !== null) fields.branches = /** @type {BranchRecord[]} a frozen array: records are read-only */ (branches);
  if (begun.subgraphRun !== undefined) fields.subgraph = begun.subgraphRun;
  fields.durationMs = durationMs;
  const record = /** @type {Readonly<StepRecord>} durationMs is set */ (Object.freeze(fields));
  ex.steps.push(record);
  endRoute(route, record, record.edge === null ? undefined : state.edges[record.edge]);
  span.end(record);
  ex.trace.event({ type: 'step', ...record, update: output ?? null });
  /** @type {Error | null} */
  let error = null;
  if (status === ExecStatus.NoEdgeMatched) {
    error = noEdgeError(ex, state);
    ex.failed = error;
  } else if (status === ExecStatus.MaxSteps && ex.prepared.onMaxSteps === 'throw') {
    // Its reason is 'max-steps': the execution stopped at maxSteps.
    const run = /** @type {Run} */ (resultOf(ex));
    error = new MaxStepsError(`machine '${ex.prepared.name}' ran its ${run.stepsRun} steps (maxSteps) without reaching END`, run);
  }
  return { record, error };
}

// Routes the step: the core walks the edges; when it reaches one decided by a function it says
// which (status AwaitingPredicate), this calls the function and answers. A no makes the core
// continue from the next edge, on the state marshalled again (the function may have run code
// that used the transfer area). Returns the final status.
/**
 * @param {ExecutionRecord} ex
 * @param {Begun} begun
 * @param {Update} output
 * @returns {number} an ExecStatus
 */
function routeStep(ex, begun, output) {
  const runtime = requireRuntime();
  const { state, step, visit } = begun;
  /** @type {number} */
  let status = runtime.writer.callEager(ex.state, state.paths, ex.prepared.ids, runtime.execComplete, ex.address);
  while (status === ExecStatus.AwaitingPredicate) {
    const edge = state.edges[runtime.execInfo()[StepInfo.edge]];
    /** @type {unknown} */
    let verdict;
    try {
      // (The core stops only at an edge decided by a function.)
      verdict = /** @type {AnyPredicate} */ (edge.predicate)(Object.freeze({ state: ex.state, step, visit, stateName: state.name, lastOutput: output }));
      if (typeof verdict !== 'boolean') {
        const hint = verdict !== null && typeof verdict === 'object' && typeof (/** @type {{ then?: unknown }} */ (verdict)).then === 'function' ? ' (edge functions are synchronous)' : '';
        throw new TypeError(`the function of edge '${state.name}' -> '${edge.to}' returned ${describe(verdict)}; return true or false${hint}`);
      }
    } catch (error) {
      throw failStep(ex, error);
    }
    live(ex);  // the function may have disposed this execution or its machine
    status = runtime.execVerdict(ex.address, verdict ? 1 : 0);
    if (status === ExecStatus.InStep) status = runtime.writer.callEager(ex.state, state.paths, ex.prepared.ids, runtime.execComplete, ex.address);
  }
  return status;
}

// The values routing read come from the core, reserved names ($step, $state, $visits) included.
/**
 * @param {ExecutionRecord} ex
 * @param {PreparedState} state
 * @returns {NoEdgeMatchedError}
 */
function noEdgeError(ex, state) {
  const candidates = state.edges.map(({ to, when, predicate, description }) => {
    if (predicate !== null) return `-> ${to} (a function${description ? `: ${description}` : ''})`;
    return `-> ${to}${when === null ? '' : ` when ${when}`}`;
  });
  /** @type {Record<string, string>} */
  const read = {};
  for (const [path, preview] of /** @type {NativeExecution} live: the step just routed */ (ex.handle.native).unmatchedReads()) put(read, path, preview);
  const preview = Object.entries(read).map(([path, value]) => `${path} = ${value}`).join(', ');
  return new NoEdgeMatchedError(
    `no edge from state '${state.name}' matched: ${candidates.join('; ')}${preview ? `. The state read: ${preview}` : ''}`,
    {
      stateName: state.name,
      candidates: state.edges.map(({ to, when, predicate, description }) =>
        predicate === null ? { to, when } : { to, when, predicate: true, description }),
      read,
      steps: ex.steps.slice(),
    },
  );
}
