// @ts-check
// Fan-out and map steps: a fan-out state runs each of its branch states (a map state, its one
// state once per item of a list) as a visit of its own, at most `concurrency` at once, joins them,
// merges their updates in branch order and routes by the fan-out's own edges. The core numbers
// the branches and their visits; a snapshot taken meanwhile keeps the completed branches' updates
// (snapshot.js), and a resumed execution continues the branches left (beginResumedFanOut).
import { Branch, BranchesHeader } from '../contract.js';
import { resolvePath } from '../paths.js';
import { requireRuntime } from '../runtime.js';
import { describe } from '../text.js';
import { HandlerContext } from './handler-context.js';
import { recordStep } from './routing.js';
import { failStep, live, taskOf } from './run-state.js';
import { runSubgraph } from './subgraph.js';
import { checkedUpdate, isThenable, keepOutput, merge, revisionOf } from './updates.js';

/**
 * @import { BranchRecord, StepRecord } from '../index.js'
 * @import { NativeFanOut, PreparedState } from './definition.js'
 * @import { BranchBegun, ExecutionRecord, FanOutStep, NativeExecution } from './run-state.js'
 */

// A fan-out step begun: for a map, the core counts the list's items (marshalled at its path);
// then the core's branches. `resumed`: the step was restored from a snapshot, the list counted.
/**
 * @param {ExecutionRecord} ex
 * @param {number} index
 * @param {PreparedState} state a fan-out or map state
 * @param {number} step
 * @param {number} visit
 * @param {AbortSignal | undefined} signal
 * @param {boolean} resumed
 * @returns {FanOutStep}
 */
export function beginFanOut(ex, index, state, step, visit, signal, resumed) {
  const runtime = requireRuntime();
  const { map, overPath } = /** @type {NativeFanOut} */ (state.fanOut);
  /** @type {unknown} */
  let items = null;
  if (map !== undefined) {
    items = resolvePath(ex.state, overPath[0]);
    /** @type {number} */
    const count = resumed ? 0 : runtime.writer.callEager(ex.state, overPath, ex.prepared.ids, runtime.execItems, ex.address);
    if (count < 0) {
      throw failStep(ex, new TypeError(`map state '${state.name}' maps over '${map.over}', which is not a list: it holds ${describe(items)}`));
    }
  }
  // A fan-out or map step under way has its branches (null is for no fan-out step).
  const words = /** @type {Int32Array} */ (runtime.execBranches(ex.address));
  const count = words[BranchesHeader.count];
  /** @type {BranchBegun[]} */
  const branches = new Array(count);
  for (let i = 0, at = BranchesHeader.length; i < count; i++, at += Branch.length) {
    branches[i] = { index: words[at + Branch.state], visit: words[at + Branch.visit], revision: words[at + Branch.revision] === 1 };
  }
  return {
    index, state, step, visit, finished: false, ctx: null, signal, branches, items,
    concurrency: words[BranchesHeader.concurrency],
    updates: new Array(count).fill(null),
    done: new Array(count).fill(false),
  };
}

/**
 * @param {ExecutionRecord} ex
 * @param {AbortSignal | undefined} signal
 * @returns {FanOutStep}
 */
export function beginResumedFanOut(ex, signal) {
  const resumed = /** @type {NonNullable<ExecutionRecord['resumedFanOut']>} the caller checked */ (ex.resumedFanOut);
  const { under, outputs } = resumed;
  ex.resumedFanOut = null;
  const begun = beginFanOut(ex, under.state, ex.prepared.states[under.state], under.step, under.visit, signal, true);
  begun.resumed = resumed;  // put back if the step is abandoned before its branches run
  begun.done = under.done.slice();
  begun.updates = begun.done.map((done, i) => (done && outputs[i] !== undefined ? outputs[i] : null));
  return begun;
}

// What a branch's handler gets: a handler context for a visit of the branch state, with the
// branch's `index` (and, in a map, its `item`) and the fan-out's shared signal.
/**
 * @param {ExecutionRecord} ex
 * @param {FanOutStep} begun
 * @param {number} i
 * @param {AbortSignal} signal
 */
function branchContext(ex, begun, i, signal) {
  const branch = begun.branches[i];
  const state = ex.prepared.states[branch.index];
  const revision = branch.revision ? revisionOf(ex, state.name, branch.visit, /** @type {NativeExecution} live */ (ex.handle.native).feedbackOf(branch.index)) : null;
  const ctx = /** @type {HandlerContext & { index: number, item?: unknown }} */ (
    new HandlerContext(ex.state, begun.step, branch.visit, state.name, signal, revision, taskOf(ex, branch.index), requireRuntime().module));
  ctx.index = i;
  if (begun.items !== null) ctx.item = Array.isArray(begun.items) ? begun.items[i] : undefined;
  return ctx;
}

// Runs a fan-out's branches (at most `concurrency` at once, started in branch order), each
// completion told to the core; the first failure aborts the others' signal and, once every
// started branch has settled, fails the step. Then merges the updates in branch order and routes.
/**
 * @param {ExecutionRecord} ex
 * @param {FanOutStep} begun
 * @returns {Promise<{ record: StepRecord, error: Error | null }>}
 */
export async function finishFanOut(ex, begun) {
  const { state, branches } = begun;
  begun.finished = true;
  // One span for the step; the branches' handlers run inside it.
  const span = ex.trace.step(begun);
  const started = performance.now();
  const states = ex.prepared.states;
  const controller = new AbortController();
  const outer = begun.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer !== undefined && outer !== null) {
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener('abort', forward, { once: true });
  }
  if (ex.abortRequested) controller.abort();
  ex.branchController = controller;
  ex.fanOut = begun;
  /** @type {{ error: unknown, i: number } | null} */
  let failure = null;
  /** @type {(error: unknown, i: number) => void} */
  const fail = (error, i) => {
    if (failure !== null) return;
    failure = { error, i };
    controller.abort(error);
  };
  /** @type {(i: number, update: unknown) => void} */
  const accept = (i, update) => {
    try {
      begun.updates[i] = checkedUpdate(update, states[branches[i].index].name);
    } catch (error) {
      fail(error, i);
      return;
    }
    begun.done[i] = true;
    if (ex.handle.native !== null) ex.handle.native.branchDone(i);
  };
  // Settles once every started branch has (a count, not Promise.all: no array of promises).
  let unsettled = 1;
  /** @type {(value?: unknown) => void} */
  let allSettled = () => {};
  const joined = new Promise((resolve) => {
    allSettled = resolve;
  });
  const settled = () => {
    if (--unsettled === 0) allSettled();
  };
  /** @type {(i: number) => Promise<void> | null} */
  const start = (i) => {
    const { handler, subgraph } = states[branches[i].index];
    /** @type {unknown} */
    let result;
    try {
      if (subgraph !== null) {
        // A branch that is a subgraph: its machine runs as the branch (no snapshot of it is kept).
        result = span.run(() => runSubgraph(ex, states[branches[i].index], controller.signal, null, null)).then((ran) => ran.update);
      } else if (handler !== null) {
        const ctx = branchContext(ex, begun, i, controller.signal);
        result = span.run(() => handler(ctx));
      }
    } catch (error) {
      fail(error, i);
      return null;
    }
    if (isThenable(result)) {
      unsettled++;
      return Promise.resolve(result).then(
        (update) => {
          accept(i, update);
          settled();
        },
        (error) => {
          fail(error, i);
          settled();
        },
      );
    }
    accept(i, result);
    return null;
  };
  /** @type {Promise<unknown>[]} */
  const pending = [];
  const limit = begun.concurrency > 0 ? begun.concurrency : branches.length;
  if (limit >= branches.length) {
    for (let i = 0; i < branches.length && failure === null; i++) {
      if (!begun.done[i]) start(i);
    }
    settled();
    if (unsettled > 0) pending.push(joined);
  } else {
    let next = 0;
    const worker = async () => {
      while (next < branches.length && failure === null) {
        const i = next++;
        if (begun.done[i]) continue;
        const promise = start(i);
        if (promise !== null) await promise;
      }
    };
    for (let w = 0; w < limit; w++) pending.push(worker());
  }
  try {
    if (pending.length > 0) await Promise.all(pending);
  } finally {
    outer?.removeEventListener?.('abort', forward);
    ex.branchController = null;
    ex.fanOut = null;
  }
  // (Set by the branches' callbacks, which the type checker does not follow.)
  const failed = /** @type {{ error: unknown, i: number } | null} */ (failure);
  if (failed !== null) {
    const error = failStep(ex, failed.error);
    if (typeof error === 'object' && error !== null) {
      const branch = branches[failed.i];
      /** @type {{ branch?: unknown }} */ (error).branch = Object.freeze({ state: states[branch.index].name, visit: branch.visit, index: failed.i });
    }
    span.fail(error);
    throw error;
  }
  try {
    live(ex);  // a branch may have disposed this execution or its machine
    ex.state = merge(ex.state, begun.updates, ex.prepared.reducers);
  } catch (error) {
    span.fail(failStep(ex, error));
    throw error;
  }
  const durationMs = performance.now() - started;
  /** @type {BranchRecord[]} */
  const records = new Array(branches.length);
  for (let i = 0; i < branches.length; i++) {
    const name = states[branches[i].index].name;
    keepOutput(ex, name, begun.updates[i]);
    records[i] = Object.freeze({ state: name, visit: branches[i].visit });
  }
  keepOutput(ex, state.name, null);
  return recordStep(ex, begun, null, durationMs, Object.freeze(records), span);
}
