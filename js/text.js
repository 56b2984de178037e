// Small helpers shared by the API classes: how a wrong argument (or a caught error) is named in a
// message, what counts as a plain object, how a key is set as data, and strings made fit for the
// core, which reads UTF-8.

/** "null", "an array", "an object", "number 5": a value as an error message names it. */
export function describe(value) {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/**
 * Lone surrogates become U+FFFD before crossing into C++, one for one, so UTF-16 positions the
 * core reports back stay valid in the original string.
 */
export function wellFormed(s) {
  return s.isWellFormed() ? s : s.toWellFormed();
}

/** What a caught value says: an Error's message, anything else as text. */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** An object that is not null and not an array: an options object, an update, a record. */
export function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets `key` as an own data property, so that a name such as __proto__ is data, never the prototype. */
export function put(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}
