// @ts-check
// Snapshots and resuming: execution.snapshot() writes the run as plain JSON (the core's routing
// part, plus the state, every visit's update, the steps' durations, a fan-out's completed
// branches and a subgraph's own snapshot under way); machine.resume(snapshot) has the core
// restore its part (restoreExecution) and the new execution take the rest back (restore).
import { NoEdgeMatchedError } from '../errors.js';
import { requireRuntime } from '../runtime.js';
import { describe } from '../text.js';
import { clone, isRecord } from '../values.js';
import { live, outputsOf } from './run-state.js';

/**
 * @import { BranchRecord, ExecutionSnapshot, StepRecord } from '../index.js'
 * @import { ExecutionRecord, FanOutUnderWay, NativeExecution, Prepared, Update } from './run-state.js'
 */

const SNAPSHOT_FORMAT = 'handoff-graph/execution';

/**
 * resume(snapshot)'s reading of the snapshot (an object, or its JSON text) for the machine's
 * `prepared` runs: the native execution the core restored from it, and the snapshot as an object.
 */
/**
 * @param {Prepared} prepared
 * @param {unknown} snapshot
 * @returns {{ native: NativeExecution, snapshot: ExecutionSnapshot }}
 */
export function restoreExecution(prepared, snapshot) {
  if (typeof snapshot === 'string') {
    try {
      snapshot = JSON.parse(snapshot);
    } catch (error) {
      throw new TypeError(`resume() takes a snapshot from exec.snapshot() (an object or its JSON text), got text that is not JSON (${/** @type {SyntaxError} */ (error).message}); to continue a durable run by its id, pass the store: resume(runId, { store })`, { cause: error });
    }
  }
  if (typeof snapshot !== 'object' || snapshot === null || /** @type {{ format?: unknown }} */ (snapshot).format !== SNAPSHOT_FORMAT) {
    throw new TypeError(`resume() takes a snapshot from exec.snapshot(), got ${describe(snapshot)}`);
  }
  const { Execution: NativeExecutionClass } = requireRuntime().module;
  /** @type {NativeExecution} */
  const native = new NativeExecutionClass(prepared.native);
  const given = /** @type {{ branchOutputs?: unknown, subgraph?: unknown }} */ (snapshot);
  let why = native.restore(prepared.native, JSON.stringify(snapshot)) ?? branchOutputsProblem(native.fanOutUnderWay(), given.branchOutputs);
  if (why === null && native.subgraphUnderWay() !== null && (typeof given.subgraph !== 'object' || given.subgraph === null)) {
    why = "cannot resume: 'subgraph' must hold the snapshot of the subgraph under way";
  }
  if (why !== null) {
    native.delete();
    throw new Error(why);
  }
  // The core read the rest of it (restore), and branchOutputs and subgraph are checked above.
  return { native, snapshot: /** @type {ExecutionSnapshot} */ (/** @type {unknown} */ (snapshot)) };
}

// Why a snapshot's fan-out under way cannot continue: the core says which branches completed, and
// `branchOutputs` must hold each one's update (an object, or null for none). null when it fits.
/**
 * @param {FanOutUnderWay | null} under
 * @param {unknown} outputs
 * @returns {string | null}
 */
function branchOutputsProblem(under, outputs) {
  if (under === null) return null;
  if (!Array.isArray(outputs) || outputs.length !== under.done.length) {
    return `cannot resume: 'branchOutputs' must list an update (or null) for each of the fan-out's ${under.done.length} branches`;
  }
  for (let i = 0; i < outputs.length; i++) {
    const update = outputs[i];
    if (update !== null && !isRecord(update)) return `cannot resume: branchOutputs[${i}] is not an update (an object or null)`;
    if (!under.done[i] && update !== null) return `cannot resume: branchOutputs[${i}] holds an update, but that branch had not completed`;
  }
  return null;
}

// A resumed execution takes back what the core does not hold: its steps' records (with their
// durations, fan-out branches and subgraph runs) and every visit's update; and, if the snapshot
// was taken while a fan-out's branches or a subgraph ran, that step under way.
/**
 * @param {ExecutionRecord} ex
 * @param {NativeExecution} native
 * @param {ExecutionSnapshot} snapshot
 * @returns {void}
 */
export function restore(ex, native, snapshot) {
  const durations = Array.isArray(snapshot.durations) ? snapshot.durations : [];
  ex.steps = snapshot.steps.map((s, i) => {
    /** @type {Omit<StepRecord, 'durationMs'> & { durationMs?: number }} */
    const record = { ...s };
    if (Array.isArray(s.branches)) record.branches = /** @type {BranchRecord[]} frozen */ (Object.freeze(s.branches.map((b) => Object.freeze({ ...b }))));
    if (typeof s.subgraph === 'object' && s.subgraph !== null) record.subgraph = Object.freeze({ ...s.subgraph });
    record.durationMs = durations[i] ?? 0;
    return /** @type {StepRecord} */ (Object.freeze(record));
  });
  restoreOutputs(ex, snapshot);
  // Taken while a fan-out's branches ran: the core restored the step under way and which
  // branches completed; their updates are the snapshot's (branchOutputs).
  const under = native.fanOutUnderWay();
  if (under !== null) ex.resumedFanOut = { under, outputs: /** @type {Update[]} checked by restoreExecution */ (snapshot.branchOutputs) };
  const inSubgraph = native.subgraphUnderWay();
  if (inSubgraph !== null) ex.resumedSubgraph = { under: inSubgraph, snapshot: /** @type {ExecutionSnapshot} checked by restoreExecution */ (snapshot.subgraph) };
}

// Every visit's update from the snapshot's `outputs`. A snapshot written before outputs were
// kept holds only each state's latest update (`updates`): that one goes to its last visit,
// and the earlier visits, unknown, read null.
/**
 * @param {ExecutionRecord} ex
 * @param {ExecutionSnapshot} snapshot
 * @returns {void}
 */
function restoreOutputs(ex, snapshot) {
  // (A snapshot's updates are taken as it holds them: the core checks its routing part only.)
  /** @type {Record<string, Update[]> | null} */
  const known = typeof snapshot.outputs === 'object' && snapshot.outputs !== null ? /** @type {Record<string, Update[]>} */ (snapshot.outputs) : null;
  /** @type {Record<string, Update>} */
  const latest = typeof snapshot.updates === 'object' && snapshot.updates !== null ? /** @type {Record<string, Update>} */ (snapshot.updates) : {};
  /** @type {Array<{ state: string, visit: number }>} */
  const visits = [];
  for (const { state, visit, branches } of ex.steps) {
    visits.push({ state, visit });
    if (branches !== undefined) visits.push(...branches);
  }
  for (const { state, visit } of visits) {
    const list = ex.outputs.get(state) ?? [];
    ex.outputs.set(state, list);
    const saved = known !== null && Object.hasOwn(known, state) && Array.isArray(known[state]) ? known[state] : null;
    if (saved !== null && visit - 1 < saved.length) list[visit - 1] = saved[visit - 1];
    else list[visit - 1] = null;
  }
  for (const [name, list] of ex.outputs) {
    if (known === null && Object.hasOwn(latest, name)) list[list.length - 1] = latest[name];
    for (let i = 0; i < list.length; i++) if (list[i] === undefined) list[i] = null;
    ex.updates.set(name, Object.hasOwn(latest, name) ? latest[name] : /** @type {Update} */ (list.at(-1)));
  }
}

/**
 * Plain JSON that machine.resume() continues exactly (taken between steps).
 * @param {ExecutionRecord} ex
 * @returns {ExecutionSnapshot}
 */
export function takeSnapshot(ex) {
  if (ex.running && ex.fanOut === null && ex.child === null) {
    throw new Error("snapshot() is taken between steps (or while a fan-out's branches or a subgraph run); a step is running");
  }
  if (ex.child !== null && ex.child.latest === null) throw new Error('the subgraph under way has no snapshot (its state is not JSON)');
  if (ex.failed !== null && !(ex.failed instanceof NoEdgeMatchedError)) {
    throw new Error('this execution failed in a handler; there is no consistent state to snapshot', { cause: ex.failed });
  }
  /** @type {ExecutionSnapshot} the core's part, completed here */
  const saved = JSON.parse(live(ex).snapshot());
  saved.state = clone(ex.state);
  saved.updates = clone(Object.fromEntries(ex.updates));
  saved.outputs = clone(outputsOf(ex));
  saved.durations = ex.steps.map((s) => s.durationMs);
  // The updates of the fan-out's branches completed so far (null for the others), by branch.
  const fanOut = ex.fanOut;
  if (fanOut !== null) saved.branchOutputs = clone(fanOut.updates.map((u, i) => (fanOut.done[i] ? u : null)));
  else if (ex.resumedFanOut !== null) saved.branchOutputs = clone(ex.resumedFanOut.outputs);
  // The subgraph under way: its own snapshot, as of its last step (the one it is in reruns).
  if (ex.child !== null) saved.subgraph = /** @type {ExecutionSnapshot} checked above */ (ex.child.latest);
  else if (ex.resumedSubgraph !== null) saved.subgraph = ex.resumedSubgraph.snapshot;
  // What each subgraph step's child did: the core does not know it; a resumed execution shows it.
  ex.steps.forEach((s, i) => {
    if (s.subgraph !== undefined) saved.steps[i].subgraph = { ...s.subgraph };
  });
  return saved;
}
