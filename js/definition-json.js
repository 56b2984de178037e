// @ts-check
// Definitions given as objects cross into the core as JSON text. JSON.stringify alone would change
// what JSON cannot hold without a word (NaN and Infinity become null, an undefined member
// disappears, a Map becomes {}, a cycle or a deep nest is a TypeError or RangeError from deep
// inside), so a definition could load meaning something else than what was written: an agent's
// `handoffs: NaN` would read as "no handoffs". So a definition is first copied here as plain JSON
// data, and every value JSON cannot hold is a DefinitionError problem at its JSON pointer; the
// callers serialize the copy, which JSON.stringify writes as it is.
import { DefinitionError } from './errors.js';
import { describe, wellFormed } from './text.js';
import { put } from './values.js';

/** @import { DefinitionProblem } from './index.js' */

/**
 * How deep arrays and objects may nest in a definition given as an object (`[[1]]` is two levels):
 * the limit of the other JSON values the library reads (docs/limits.md), far beyond any real
 * definition, and shallow enough for JSON.stringify to write the copy without exhausting the stack.
 */
export const MAX_DEFINITION_DEPTH = 512;

// RFC 6901: `~` and `/` in a key are written `~0` and `~1`.
/** @type {(parent: string, key: string | number) => string} */
const pointerTo = (parent, key) => `${parent}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

// Plain data: an object whose prototype is Object.prototype (of any realm: its own prototype is
// null) or null. Anything else is an instance of a class, which JSON.stringify would write as its
// toJSON() or its own members (a Map or a Set as {}), not as what it holds.
/** @param {object} object */
function isPlainObject(object) {
  const prototype = Object.getPrototypeOf(object);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** @param {object} object */
function instanceName(object) {
  const maker = Object.getPrototypeOf(object)?.constructor;
  return typeof maker === 'function' && maker.name !== '' ? maker.name : 'a class';
}

// Why `value` (not an array or object) cannot be in a definition, or null if it can.
// `inArray`: JSON.stringify writes an undefined item as null, but leaves an undefined member out.
/**
 * @param {unknown} value
 * @param {boolean} inArray
 * @returns {string | null}
 */
function scalarProblem(value, inArray) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'object':  // null: arrays and objects are copied, not judged here
      return null;
    case 'number':
      return Number.isFinite(value) ? null : `${value} is not a JSON number (JSON.stringify would write null)`;
    case 'undefined':
      return inArray
        ? 'undefined is not a JSON value (JSON.stringify would write null)'
        : 'undefined is not a JSON value (JSON.stringify would drop the member): leave the member out';
    case 'function':
      return 'a function is not a JSON value: a definition holds data only; functions (handlers, reducers, instructions) go in the options';
    case 'symbol':
      return `a symbol (${String(value)}) is not a JSON value`;
    default:  // bigint, the last type there is
      return `a BigInt (${/** @type {bigint} */ (value)}n) is not a JSON value: give a number`;
  }
}

/**
 * A copy of `definition` as plain JSON data (arrays, plain objects, strings, finite numbers,
 * booleans, null) sharing nothing with it, read once: own enumerable members only, each key set as
 * data (an own `__proto__` stays a member, never the prototype), an array as its items 0 to
 * length − 1. Every value JSON cannot hold is a problem at its JSON pointer, thrown together as one
 * DefinitionError: NaN, ±Infinity, undefined (an item, a hole or a member), a function, a symbol, a
 * BigInt, an instance of a class (Date, Map, …), a member keyed by a symbol, an object that contains
 * itself, and arrays and objects nested deeper than MAX_DEFINITION_DEPTH. Iterative: no definition
 * can exhaust the stack. Getters and Proxy traps run as reading runs them; what they throw is thrown.
 *
 * @param {unknown} definition
 * @returns {unknown}
 */
export function plainDefinition(definition) {
  /** @type {DefinitionProblem[]} */
  const problems = [];
  /** @type {Map<object, string>} */
  const open = new Map();  // each array or object being copied → its pointer: one met again is a cycle
  /** @type {Array<{ source: any, target: any, keys: string[] | null, length: number, next: number, pointer: string, depth: number }>} */
  const pending = [];      // containers entered and not yet copied in full: { source, target, keys, next, pointer }
  // The copy of `value` at `pointer`, depth levels inside the root's containers; undefined after a problem.
  /** @type {(value: unknown, pointer: string, depth: number, inArray: boolean) => unknown} */
  const copy = (value, pointer, depth, inArray) => {
    if (typeof value !== 'object' || value === null) {
      const problem = scalarProblem(value, inArray);
      if (problem === null) return value;
      problems.push({ pointer, message: problem });
      return undefined;
    }
    if (open.has(value)) {
      const at = open.get(value);
      problems.push({ pointer, message: `a cycle: the ${Array.isArray(value) ? 'array' : 'object'} at ${at === '' ? '(root)' : at} contains itself here` });
      return undefined;
    }
    if (depth > MAX_DEFINITION_DEPTH) {
      problems.push({ pointer, message: `arrays and objects nested more than ${MAX_DEFINITION_DEPTH} levels deep` });
      return undefined;
    }
    if (Array.isArray(value)) {
      open.set(value, pointer);
      /** @type {unknown[]} */
      const target = [];
      pending.push({ source: value, target, keys: null, length: value.length, next: 0, pointer, depth });
      return target;
    }
    if (!isPlainObject(value)) {
      problems.push({ pointer, message: `an instance of ${instanceName(value)} is not plain data: give its JSON value (a string, number, array or plain object)` });
      return undefined;
    }
    for (const symbol of Object.getOwnPropertySymbols(value)) {
      if (Object.prototype.propertyIsEnumerable.call(value, symbol)) {
        problems.push({ pointer, message: `a member keyed by ${String(symbol)}: JSON keys are strings` });
      }
    }
    open.set(value, pointer);
    /** @type {Record<string, unknown>} */
    const target = {};
    const keys = Object.keys(value);
    pending.push({ source: value, target, keys, length: keys.length, next: 0, pointer, depth });
    return target;
  };
  const root = copy(definition, '', 1, false);
  while (pending.length > 0) {
    const frame = pending[pending.length - 1];
    if (frame.next === frame.length) {
      open.delete(frame.source);
      pending.pop();
      continue;
    }
    const index = frame.next++;
    if (frame.keys === null) {
      frame.target.push(copy(frame.source[index], pointerTo(frame.pointer, index), frame.depth + 1, true));
    } else {
      const key = frame.keys[index];
      put(frame.target, key, copy(frame.source[key], pointerTo(frame.pointer, key), frame.depth + 1, false));
    }
  }
  if (problems.length > 0) throw new DefinitionError(problems);
  return root;
}

/**
 * The JSON text of a graph or machine definition given to fromJSON: text as it is (the core reads
 * it; lone surrogates as U+FFFD), anything else checked and copied by plainDefinition() first.
 *
 * @param {unknown} definition
 * @returns {string}
 */
export function definitionText(definition) {
  // Lone surrogates become U+FFFD, as in every string that crosses (js/text.js).
  if (typeof definition === 'string') return wellFormed(definition);
  if (definition === undefined || typeof definition === 'function' || typeof definition === 'symbol') {
    throw new TypeError(`fromJSON takes a definition object or JSON text, got ${describe(definition)}`);
  }
  return JSON.stringify(plainDefinition(definition));
}
