// Small text helpers shared by the API classes: how a wrong argument is named in a message, and
// strings made fit for the core, which reads UTF-8.

/** "null", "an array", "an object", "number 5": a value as an error message names it. */
export function describe(value) {
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

/**
 * The third argument of addEdge on graphs and machines: a condition string, null/undefined (the
 * edge always matches) or { when, description }. Returns { source, description }.
 */
export function edgeArguments(when) {
  let source = when;
  let description = '';
  if (typeof when === 'object' && when !== null) {
    source = when.when;
    description = when.description ?? '';
    if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
  }
  if (source !== undefined && source !== null && typeof source !== 'string') {
    throw new TypeError(`a condition must be a string, null or undefined, got ${describe(source)}`);
  }
  return { source, description };
}
