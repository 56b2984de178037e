// @ts-check
// What callers pass, checked the same way everywhere. Options objects: every key must be one the
// callee knows. A typo ({ whn: … } for { when: … }) must never change behaviour silently, so an
// unknown key is a TypeError that names it, lists the allowed keys and suggests the closest one.
// Missing arguments are named too, and so are the options that name what a definition lacks.
import { describe } from './text.js';

/**
 * Edit distance with adjacent transpositions (optimal string alignment), for suggestions only.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function distance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The allowed name closest to `key` (case-insensitively), when it is close enough to be a typo.
 * @param {string} key
 * @param {Iterable<string>} allowed
 * @returns {string | undefined}
 */
export function closest(key, allowed) {
  /** @type {string | undefined} */
  let best;
  let bestDistance = Infinity;
  const folded = key.toLowerCase();
  for (const name of allowed) {
    const d = distance(folded, name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

/**
 * Checks an options argument: `undefined` is `{}`; anything but a plain object is a TypeError;
 * an own key not in `allowed` is a TypeError such as
 * "addEdge options: unknown option 'whn' (did you mean 'when'?); allowed: when, description".
 * Returns the options object.
 *
 * @template {object} T
 * @param {T | undefined} options
 * @param {readonly string[]} allowed
 * @param {string} what how the message names the options, e.g. "addEdge options"
 * @returns {T}
 */
export function checkOptions(options, allowed, what) {
  if (options === undefined) return /** @type {T} */ ({});
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${what} must be an object, got ${describe(options)}`);
  }
  for (const key of Reflect.ownKeys(options)) {
    if (typeof key === 'string' && allowed.includes(key)) continue;
    const name = typeof key === 'symbol' ? key.toString() : `'${key}'`;
    const suggestion = typeof key === 'string' ? closest(key, allowed) : undefined;
    const hint = suggestion === undefined ? '' : ` (did you mean '${suggestion}'?)`;
    const list = allowed.length === 0 ? 'it takes no options' : `allowed: ${allowed.join(', ')}`;
    throw new TypeError(`${what}: unknown option ${name}${hint}; ${list}`);
  }
  return options;
}

const EDGE_OPTIONS = ['when', 'description'];

/**
 * Throws a TypeError naming what is missing when a call got fewer than `names.length` arguments:
 * "addEdge(from, to, when?) is missing 'to' (got 1 argument)".
 * @param {number} count the arguments given (arguments.length)
 * @param {readonly string[]} names the required parameters' names
 * @param {string} signature how the message writes the call, e.g. "addEdge(from, to, when?)"
 * @returns {void}
 */
export function requireArguments(count, names, signature) {
  if (count >= names.length) return;
  const missing = names.slice(count).map((n) => `'${n}'`).join(' and ');
  throw new TypeError(`${signature} is missing ${missing} (got ${count} argument${count === 1 ? '' : 's'})`);
}

/**
 * The third argument of addEdge on graphs and machines: a condition string, null/undefined (the
 * edge always matches) or { when, description }. Returns { source, description }.
 * @param {unknown} when
 * @returns {{ source: string | null | undefined, description: string }}
 */
export function edgeArguments(when) {
  /** @type {unknown} */
  let source = when;
  let description = '';
  if (typeof when === 'object' && when !== null) {
    const options = checkOptions(/** @type {{ when?: unknown, description?: unknown }} */ (when), EDGE_OPTIONS, 'addEdge options');
    source = options.when;
    const given = options.description ?? '';
    if (typeof given !== 'string') throw new TypeError(`description must be a string, got ${describe(given)}`);
    description = given;
  }
  if (source === undefined || source === null || typeof source === 'string') {
    return { source: /** @type {string | null | undefined} */ (source), description };
  }
  throw new TypeError(`a condition must be a string, null or undefined, got ${describe(source)}`);
}

/**
 * A DefinitionError problem with the whole document (its pointer is "").
 * @param {string} message
 * @returns {{ pointer: string, message: string }}
 */
export function rootProblem(message) {
  return { pointer: '', message };
}

/**
 * The problem of an option that names what the definition lacks: "options.mocks.x: no tool 'x' in the definition".
 * @param {string} option
 * @param {string} kind
 * @param {string} name
 */
export function notInDefinition(option, kind, name) {
  return rootProblem(`${option}: no ${kind} '${name}' in the definition`);
}
