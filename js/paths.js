// @ts-check
// Reading a route's paths on a JavaScript state: own enumerable properties only, nothing through
// the prototype chain, missing is null, and nothing throws (a getter or Proxy trap that throws
// reads as null). docs/conditions.md pins these rules; src/condition/json_state.cpp is the native
// twin. js/state-writer.js writes what these read onto the core's tape.

import { Constants } from './contract.js';

/** @import { PathSteps } from './machine/definition.js' */

/**
 * A value of the user's state, read as it is: anything, whose properties are read only after the
 * checks below (own, enumerable, a getter or Proxy trap that throws caught).
 * @typedef {any} StateValue
 */
/** @typedef {(state: StateValue) => unknown} PathReader a compiled path (compilePath) */

// How much of a path's strings' text the core reads (Condition::text_levels in the core).
const { TextAll: TEXT_ALL } = Constants;

export const MISSING = Symbol('missing');
const INDEX_NAMES = Array.from({ length: 1024 }, (_, i) => String(i));
const { propertyIsEnumerable: isEnumerable } = Object.prototype;
const { isArray } = Array;

/**
 * Reads own enumerable property `key` of `object`, or MISSING, for values written whole (the
 * members of a compared object or array). A getter that throws reads as null; a Proxy trap that
 * throws propagates, so that the caller drops the whole Proxy.
 * @param {StateValue} object
 * @param {string | number} key
 * @returns {unknown}
 */
export function readMember(object, key) {
  // An element index as its string: propertyIsEnumerable converts a number to one on every call.
  const name = typeof key === 'number' && key < INDEX_NAMES.length ? INDEX_NAMES[key] : key;
  if (!isEnumerable.call(object, name)) return MISSING;
  try {
    return object[key];
  } catch (error) {
    return thrownRead(object, key, error);
  }
}

// A read of `key` that threw `error`: null when an own getter threw, else the error propagates
// (a Proxy trap), so that the caller drops the whole Proxy.
/**
 * @param {object} object
 * @param {string | number} key
 * @param {unknown} error
 * @returns {null}
 */
function thrownRead(object, key, error) {
  const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
  if (descriptor !== undefined && typeof descriptor.get === 'function') return null;
  throw error;
}

/**
 * readMember for an element of an array, at a property load of its own (see readKeyAt).
 * @param {StateValue[]} array
 * @param {number} i
 * @returns {unknown}
 */
export function readElement(array, i) {
  if (!isEnumerable.call(array, i < INDEX_NAMES.length ? INDEX_NAMES[i] : i)) return MISSING;
  try {
    return array[i];
  } catch (error) {
    return thrownRead(array, i, error);
  }
}

// Own enumerable key `key` of `object` (not an array), or null; the caller catches. A property
// load's inline cache belongs to its place in the code: one load reading every slot's key sees
// many keys and goes megamorphic (a hash probe per read), so the load is chosen by the path's
// slot, and in a node routed often each sees the one key of its slot (a shape check and a load).
/**
 * @param {number} slot
 * @param {StateValue} object
 * @param {string} key
 * @returns {unknown}
 */
export function readKeyAt(slot, object, key) {
  if (isArray(object) || !isEnumerable.call(object, key)) return null;
  switch (slot) {
    case 0: return object[key];
    case 1: return object[key];
    case 2: return object[key];
    case 3: return object[key];
    case 4: return object[key];
    case 5: return object[key];
    case 6: return object[key];
    case 7: return object[key];
    default: return object[key];
  }
}

/**
 * The value at `steps` (from the core: [isIndex, key, index] each) in `state`, or null. Missing
 * keys, indexes out of range, steps through non-containers and anything that throws (a getter or
 * a Proxy trap on the way) read as null. Routes use the compiled form of the same walk
 * (`compilePaths`); this one serves error messages.
 * @param {unknown} state
 * @param {PathSteps} steps
 * @returns {unknown}
 */
export function resolvePath(state, steps) {
  return compilePath(steps)(state);
}

// Property keys as the engine stores them (internalized): a lookup with a key that is not costs
// a string-table search on every call, and the path keys the core hands over are fresh strings.
/**
 * @param {string} key
 * @returns {string}
 */
function internalize(key) {
  const keys = Object.keys({ [key]: 0 });
  return keys.length === 1 ? keys[0] : key;
}

// An index step reads an array element; on any other object it reads the key of its decimal text,
// which as a number is the same key when it is an array index (cheaper to look up).
const ARRAY_INDEX_LIMIT = 2 ** 32 - 1;
/**
 * @param {boolean} isIndex
 * @param {string} key
 * @param {number} index
 * @returns {string | number}
 */
function objectKey(isIndex, key, index) {
  if (isIndex && index >= 0 && index < ARRAY_INDEX_LIMIT && String(index) === key) return index;
  return internalize(key);
}

// One step on anything: own enumerable properties only, nothing through the prototype chain. The
// caller catches (a revoked Proxy throws in isArray, a trap or getter anywhere).
/**
 * @param {StateValue} value
 * @param {boolean} isIndex
 * @param {string | number} key
 * @param {number} index
 * @returns {unknown}
 */
function step(value, isIndex, key, index) {
  if (typeof value !== 'object' || value === null) return MISSING;
  if (isArray(value)) {
    if (!isIndex) return MISSING;
    const length = value.length;
    const i = index < 0 ? index + length : index;
    if (i < 0 || i >= length || !isEnumerable.call(value, i < INDEX_NAMES.length ? INDEX_NAMES[i] : i)) return MISSING;
    return value[i];
  }
  return isEnumerable.call(value, key) ? value[key] : MISSING;
}

/**
 * Compiles a path into a reader: `state` → the value at the path, or null. The per-route hot
 * loop: no allocation, one try for the whole walk, keys prepared once.
 * @param {PathSteps} steps
 * @returns {PathReader}
 */
export function compilePath(steps) {
  const n = steps.length;
  const isIndex = steps.map((s) => s[0]);
  const keys = steps.map((s) => objectKey(s[0], s[1], s[2]));
  const indexes = steps.map((s) => s[2]);
  if (n === 1 && !isIndex[0]) {
    // The commonest path, `category`: a top-level key.
    const key = keys[0];
    return (/** @type {StateValue} */ state) => {
      if (typeof state !== 'object' || state === null) return null;
      try {
        if (isArray(state) || !isEnumerable.call(state, key)) return null;
        return state[key];
      } catch {
        return null;
      }
    };
  }
  if (n === 2 && !isIndex[0] && !isIndex[1]) {
    // `user.tier`: two keys, two loads of their own (see readKeyAt).
    const [outer, inner] = keys;
    return (/** @type {StateValue} */ state) => {
      if (typeof state !== 'object' || state === null) return null;
      try {
        if (isArray(state) || !isEnumerable.call(state, outer)) return null;
        const value = state[outer];
        if (typeof value !== 'object' || value === null || isArray(value) || !isEnumerable.call(value, inner)) return null;
        return value[inner];
      } catch {
        return null;
      }
    };
  }
  if (!isIndex.includes(true)) {
    // A path of keys only (`user.tier`): step() without its array-index branch.
    return (/** @type {StateValue} */ state) => {
      let value = state;
      try {
        for (let s = 0; s < n; s++) {
          if (typeof value !== 'object' || value === null || isArray(value)) return null;
          const key = keys[s];
          if (!isEnumerable.call(value, key)) return null;
          value = value[key];
        }
      } catch {
        return null;
      }
      return value;
    };
  }
  return (/** @type {StateValue} */ state) => {
    let value = state;
    try {
      for (let s = 0; s < n; s++) {
        value = step(value, isIndex[s], keys[s], indexes[s]);
        if (value === MISSING) return null;
      }
    } catch {
      return null;
    }
    return value;
  };
}

/** The readers of a node's or condition's paths, compiled once; what `StateWriter.callLazy` takes. */
export class PathReaders {
  /**
   * @param {PathSteps[]} paths the core's path steps
   * @param {readonly number[] | null} [levels] per path, how much of its strings' text the core may read (0 none, 1 the value's
   *   own string, 2 every string in it); by default all of it.
   */
  constructor(paths, levels = null) {
    this.count = paths.length;
    this.levels = paths.map((_, i) => (levels === null ? TEXT_ALL : levels[i]));
    this.read = paths.map(compilePath);
    // For a path that is one key (`category`), the key itself: the writer reads it inline.
    this.keys = paths.map((steps) => (steps.length === 1 && !steps[0][0] ? internalize(steps[0][1]) : null));
  }

  /**
   * The value at path `i` of `state`, or null (a one-key path read inline, at its slot's load).
   * @param {number} i
   * @param {unknown} state
   * @returns {unknown}
   */
  value(i, state) {
    const key = this.keys[i];
    if (key === null) return this.read[i](state);
    if (typeof state !== 'object' || state === null) return null;
    try {
      return readKeyAt(i, state, key);
    } catch {
      return null;
    }
  }
}

/**
 * Own enumerable key `key` of `state` (a path of that one key, `category`), or null; never throws.
 * @param {StateValue} state
 * @param {string} key
 * @returns {unknown}
 */
export function readTopKey(state, key) {
  if (typeof state !== 'object' || state === null) return null;
  try {
    return isArray(state) || !isEnumerable.call(state, key) ? null : state[key];
  } catch {
    return null;
  }
}

/**
 * The strings a core string table knows → their ids, as js/state-writer.js reads them: a
 * StringIds, or a state machine's map, which keeps no `replacementFree`.
 * @typedef {Map<string, number> & { replacementFree?: boolean }} KnownStrings
 */

/**
 * The strings a core string table knows → their ids (marshalled state strings equal to one of them
 * travel as an integer), learnt in the table's order. Also whether any of them holds U+FFFD: while
 * none does, a state string with lone surrogates (read as U+FFFD) equals none of them either, so
 * the writer need not test unknown strings for lone surrogates.
 * @extends {Map<string, number>}
 */
export class StringIds extends Map {
  replacementFree = true;

  /**
   * Appends `strings`, the table's next entries.
   * @param {Iterable<string>} strings
   */
  learn(strings) {
    for (const s of strings) {
      // Internalized, as string literals and property names are: a lookup of one of those then
      // matches by pointer, and a miss against it needs no character comparison.
      this.set(internalize(s), this.size);
      if (this.replacementFree && s.includes('\uFFFD')) this.replacementFree = false;
    }
  }

  clear() {
    super.clear();
    this.replacementFree = true;
  }
}

