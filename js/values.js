// @ts-check
// Small value helpers shared by the API classes: what counts as a plain object, how a key is set
// as data, how a value is copied, and how a caught error is named in a message.

/**
 * An object that is not null and not an array: an options object, an update, a record.
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets `key` as an own data property, so that a name such as __proto__ is data, never the prototype.
 * @param {object} object
 * @param {PropertyKey} key
 * @param {unknown} value
 * @returns {void}
 */
export function put(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A deep copy of a JSON value: plain data, sharing nothing with the original.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

/**
 * What a caught value says: an Error's message, anything else as text.
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
