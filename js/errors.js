// @ts-check
// The error classes of the public API (api.md). Every error a user can catch is one of these or
// a built-in TypeError / Error with a message that says what to do.

/** @import { DefinitionProblem, EdgeInfo, Run, StepRecord, ValidationProblem } from './index.js' */

// The line of `condition` that holds `index` (at most 80 characters of it around the index),
// with a caret under the offending character.
/**
 * @param {string} condition
 * @param {number} index
 * @returns {string}
 */
function caretSnippet(condition, index) {
  const lineStart = condition.lastIndexOf('\n', index - 1) + 1;
  const newline = condition.indexOf('\n', index);
  const lineEnd = newline < 0 ? condition.length : newline;
  const from = Math.max(lineStart, index - 40);
  const to = Math.min(lineEnd, index + 40);
  const before = from > lineStart ? '…' : '';
  const after = to < lineEnd ? '…' : '';
  // Control characters would move the caret or break the line: each shows as one space.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  const text = condition.slice(from, to).toWellFormed().replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return `  ${before}${text}${after}\n  ${' '.repeat(before.length + index - from)}^`;
}

/**
 * A condition that does not parse. `index` is a UTF-16 offset into `condition`; the message is
 * the reason, then the condition's line with a caret under that character. An error raised by
 * addEdge names the edge first (`triage → billing: …`) and carries it as `edge: { from, to }`.
 */
export class ConditionSyntaxError extends SyntaxError {
  /**
   * @param {string} message
   * @param {{ condition: string, index: number, edge?: { from: string, to: string } }} details
   */
  constructor(message, { condition, index, edge }) {
    const prefix = edge === undefined ? '' : `${edge.from} \u2192 ${edge.to}: `;
    super(typeof condition === 'string' ? `${prefix}${message}\n${caretSnippet(condition, index)}` : `${prefix}${message}`);
    this.name = 'ConditionSyntaxError';
    /**
     * The reason alone, without the condition and caret that `message` adds: the core's sentence,
     * e.g. "expected a value, found end of condition at column 19".
     * @readonly
     */
    this.reason = message;
    /** @readonly */
    this.condition = condition;
    /** 0-based offset of the offending character in `condition`, in UTF-16 code units. @readonly */
    this.index = index;
    // `edge` is set only when there is one: an optional field, which JSDoc cannot declare on a
    // class; js/types.d.ts declares it (declaration merging).
    if (edge !== undefined) Object.assign(this, { edge });
  }
}

/** An edge refused because it would close a cycle in a graph whose policy is `onCycle: 'error'`. */
export class CycleError extends Error {
  /**
   * @param {string} message
   * @param {{ from: string, to: string, cycle: string[] }} details
   */
  constructor(message, { from, to, cycle }) {
    super(message);
    this.name = 'CycleError';
    /** @readonly */
    this.from = from;
    /** @readonly */
    this.to = to;
    /** The node ids of the cycle the edge would close, first and last equal. @readonly */
    this.cycle = cycle;
  }
}

/**
 * A stored definition that cannot be loaded: one `{ pointer, message }` per problem. A problem with
 * the whole document has the JSON Pointer "" (not "/", which names a key ""), shown as `(root)`.
 * Every problem at once: what the loader refuses, and in a definition given as an object, each
 * value JSON cannot hold (NaN, ±Infinity, undefined, a function, a symbol, a BigInt, a class
 * instance, a cycle, nesting deeper than 512 levels).
 */
export class DefinitionError extends Error {
  /** @param {DefinitionProblem[]} problems */
  constructor(problems) {
    const lines = problems.map((p) => `${p.pointer === '' ? '(root)' : p.pointer}: ${p.message}`);
    super(`invalid definition:\n${lines.join('\n')}`);
    this.name = 'DefinitionError';
    /** @readonly */
    this.problems = problems;
  }
}

/** A state machine definition with problems: one `{ code, message }` per problem. */
export class GraphValidationError extends Error {
  /** @param {ValidationProblem[]} problems */
  constructor(problems) {
    super(`invalid state machine:\n${problems.map((p) => `${p.code}: ${p.message}`).join('\n')}`);
    this.name = 'GraphValidationError';
    /** @readonly */
    this.problems = problems;
  }
}

/** A run that reached `maxSteps` with `onMaxSteps: 'throw'`; `run` holds the run so far. */
export class MaxStepsError extends Error {
  /**
   * @param {string} message
   * @param {Run} run
   */
  constructor(message, run) {
    super(message);
    this.name = 'MaxStepsError';
    /** The run so far (reason 'max-steps'). @readonly */
    this.run = run;
  }
}

/**
 * A run whose input lacks variables the states' task templates name (`{topic}`), found before
 * its first step. `missing` lists each as `{ state, variable }`, in state order.
 */
export class MissingVariablesError extends Error {
  /**
   * @param {string} machine
   * @param {Array<{ state: string, variable: string }>} missing
   */
  constructor(machine, missing) {
    const names = [...new Set(missing.map((m) => m.variable))];
    const where = missing.map((m) => `{${m.variable}} in the task of '${m.state}'`).join(', ');
    super(`machine '${machine}' cannot start: its input has no ${names.map((n) => `'${n}'`).join(', ')} (${where}); pass ${names.length === 1 ? 'it' : 'them'} in the initial state`);
    this.name = 'MissingVariablesError';
    /** Each missing variable with the state whose task names it, in state order. @readonly */
    this.missing = missing;
  }
}

/** A state none of whose outgoing edges matched. */
export class NoEdgeMatchedError extends Error {
  // `details` are { stateName, candidates, read, steps }, set as they are given (Object.assign);
  // the bare `this.…;` lines only declare them, for tsc.
  /**
   * @param {string} message
   * @param {Record<string, unknown>} [details]
   */
  constructor(message, details) {
    super(message);
    this.name = 'NoEdgeMatchedError';
    /** The state whose edges did not match. @readonly @type {string} */
    this.stateName;
    /**
     * The state's outgoing edges, in order; an edge decided by a function is
     * `{ to, when: null, predicate: true, description }`.
     * @readonly @type {Array<EdgeInfo & { predicate?: true, description?: string }>}
     */
    this.candidates;
    /** What the conditions read: path → JSON preview of its value. @readonly @type {Record<string, string>} */
    this.read;
    /** The steps run, the failed one last (next and edge null). @readonly @type {StepRecord[]} */
    this.steps;
    Object.assign(this, details);
  }
}

/**
 * A recording that cannot be replayed (docs/replay.md): one `{ pointer, message }` per problem,
 * the pointer into the recording's lines (`/3/input`: the fourth line's `input`).
 */
export class RecordingError extends Error {
  /** @param {DefinitionProblem[]} problems */
  constructor(problems) {
    const lines = problems.map((p) => `${p.pointer === '' ? '(root)' : p.pointer}: ${p.message}`);
    super(`invalid recording:\n${lines.join('\n')}`);
    this.name = 'RecordingError';
    /** @readonly */
    this.problems = problems;
  }
}
