// @ts-check
// Small text helpers shared by the API classes: how a wrong argument is named in a message, and
// strings made fit for the core, which reads UTF-8.

/**
 * "null", "an array", "an object", "number 5": a value as an error message names it.
 * @param {unknown} value
 * @returns {string}
 */
export function describe(value) {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * describe(), with a missing argument called 'nothing': "got nothing".
 * @param {unknown} value
 * @returns {string}
 */
export function describeGiven(value) {
  return value === undefined ? 'nothing' : describe(value);
}

/**
 * Lone surrogates become U+FFFD before crossing into C++, one for one, so UTF-16 positions the
 * core reports back stay valid in the original string.
 * @param {string} s
 * @returns {string}
 */
export function wellFormed(s) {
  return s.isWellFormed() ? s : s.toWellFormed();
}
