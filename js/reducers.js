// @ts-check
// The built-in reducers: how one key of an update merges into a state (StateMachine states and
// Swarm variables alike).

import { Reducer } from './contract.js';
import { describe } from './text.js';

// The reducer names of the definition format come from the core's contract (core/contract.h):
// every one but `custom` (a host function) is implemented below, and a test holds them equal.
const BUILT_IN = Object.keys(Reducer).filter((name) => name !== 'custom');

/** How a message lists the choices of a reducer: "'replace', 'append', 'merge', 'sum' or a function". */
export const REDUCER_CHOICES = `${BUILT_IN.map((name) => `'${name}'`).join(', ')} or a function`;

/**
 * A built-in reducer: the previous value of `key` and the update's give the next value.
 * @typedef {(previous: unknown, value: unknown, key: string) => unknown} BuiltInReducer
 */

/** The built-in reducers by name. */
export const REDUCERS = Object.freeze(/** @type {Record<'replace' | 'append' | 'merge' | 'sum', BuiltInReducer>} */ ({
  replace: (_previous, value) => value,
  // A previous value that is not an array becomes its first element.
  append: (previous, value) =>
    (previous === undefined || previous === null ? [] : Array.isArray(previous) ? previous : [previous]).concat(Array.isArray(value) ? value : [value]),
  merge: (previous, value, key) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypeError(`the 'merge' reducer of '${key}' needs an object update, got ${describe(value)}`);
    }
    const base = typeof previous === 'object' && previous !== null && !Array.isArray(previous) ? previous : {};
    return { ...base, ...value };
  },
  sum: (previous, value, key) => {
    if (typeof value !== 'number') throw new TypeError(`the 'sum' reducer of '${key}' needs a number update, got ${describe(value)}`);
    return (typeof previous === 'number' ? previous : 0) + value;
  },
}));
