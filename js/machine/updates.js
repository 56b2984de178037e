// @ts-check
// What becomes of a handler's update: checked (an object or nothing), merged into the state with
// the per-key reducers (the state is the host's JavaScript object, so merging happens here), and
// kept as the visit's output (run.outputs) and its state's latest update (a revisit's
// revision.previous).
import { REDUCERS } from '../reducers.js';
import { describe } from '../text.js';
import { isRecord, put } from '../values.js';

/**
 * @import { ReducerFunction } from './definition.js'
 * @import { ExecutionRecord, Update } from './run-state.js'
 * @import { Revision } from '../index.js'
 */

// Updates (a step's one, or a fan-out's branches' in branch order) merged into one new state (one
// copy of the state for the whole join, not one per branch); `null` entries are visits without
// update. Own enumerable keys are read once, in order; each goes through its key's reducer.
/**
 * @param {Record<string, unknown>} state
 * @param {readonly Update[]} updates
 * @param {Map<string, ReducerFunction>} reducers
 * @returns {Record<string, unknown>}
 */
export function merge(state, updates, reducers) {
  /** @type {Record<string, unknown> | null} */
  let next = null;
  for (const update of updates) {
    if (update === null) continue;
    next ??= { ...state };
    for (const key of Object.keys(update)) {
      const reducer = reducers.get(key) ?? REDUCERS.replace;
      put(next, key, reducer(Object.hasOwn(next, key) ? next[key] : undefined, update[key], key));
    }
  }
  return next ?? state;
}

// What a handler returned, checked: the update (an object) or null; anything else is a TypeError.
/**
 * @param {unknown} update
 * @param {string} stateName
 * @returns {Update}
 */
export function checkedUpdate(update, stateName) {
  if (update === undefined || update === null) return null;
  if (!isRecord(update)) {
    throw new TypeError(`the handler of state '${stateName}' returned ${describe(update)}; return an object (a partial state update) or nothing`);
  }
  return update;
}

/** @type {(value: unknown) => value is PromiseLike<unknown>} */
export const isThenable = (value) => value !== null && typeof value === 'object' && typeof (/** @type {{ then?: unknown }} */ (value)).then === 'function';

// The update of a visit that ran: the state's latest (revision.previous) and one more output.
/**
 * @param {ExecutionRecord} ex
 * @param {string} name
 * @param {Update} output
 * @returns {void}
 */
export function keepOutput(ex, name, output) {
  ex.updates.set(name, output);
  let visits = ex.outputs.get(name);
  if (visits === undefined) {
    visits = [];
    ex.outputs.set(name, visits);
  }
  visits.push(output);
}

// What a revisit with feedback tells its handler: the visit, its state's latest update, the core's feedback text.
/**
 * @param {ExecutionRecord} ex
 * @param {string} name
 * @param {number} visit
 * @param {string} feedback
 * @returns {Readonly<Revision>}
 */
export function revisionOf(ex, name, visit, feedback) {
  return Object.freeze({ visit, previous: ex.updates.get(name) ?? null, feedback });
}
