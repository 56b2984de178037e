// @ts-check
// JSON text that crosses into the core: a run's input variables (prepare.js) and a handler's
// update for the revision feedback (handler-context.js).
import { describe } from '../text.js';
import { messageOf } from '../values.js';

// JSON.stringify writes a lone surrogate as an escape (`\ud800`), which the core's JSON reader
// refuses; like every string that crosses into C++ (text.js wellFormed), it becomes U+FFFD. An
// escape is one only after an even number of backslashes.
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;
/** @type {(text: string) => string} */
export const wellFormedJSON = (text) => text.replace(LONE_SURROGATE_ESCAPE, '$1\\ufffd');

// JSON text of a value a handler returned, for the core's revision text; what JSON cannot hold
// is named instead of failing the step that shows it.
/**
 * @param {unknown} value
 * @returns {string}
 */
export function jsonText(value) {
  try {
    const text = JSON.stringify(value ?? null);
    if (text !== undefined) return wellFormedJSON(text);
  } catch (error) {
    return `[an update JSON cannot hold: ${messageOf(error)}]`;
  }
  return `[an update JSON cannot hold: ${describe(value)}]`;
}
