// The error classes of the public API (api.md). Every error a user can catch is one of these or
// a built-in TypeError / Error with a message that says what to do.

// The line of `condition` that holds `index` (at most 80 characters of it around the index),
// with a caret under the offending character.
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
  constructor(message, { condition, index, edge }) {
    const prefix = edge === undefined ? '' : `${edge.from} \u2192 ${edge.to}: `;
    super(typeof condition === 'string' ? `${prefix}${message}\n${caretSnippet(condition, index)}` : `${prefix}${message}`);
    this.name = 'ConditionSyntaxError';
    /** The core's sentence alone, e.g. "expected a value, found end of condition at column 19". */
    this.reason = message;
    this.condition = condition;
    this.index = index;
    if (edge !== undefined) this.edge = edge;
  }
}

/** An edge refused because it would close a cycle in a graph whose policy is `onCycle: 'error'`. */
export class CycleError extends Error {
  constructor(message, { from, to, cycle }) {
    super(message);
    this.name = 'CycleError';
    this.from = from;
    this.to = to;
    this.cycle = cycle;
  }
}

/**
 * A stored definition that cannot be loaded: one `{ pointer, message }` per problem. A problem with
 * the whole document has the JSON Pointer "" (not "/", which names a key ""), shown as `(root)`.
 */
export class DefinitionError extends Error {
  constructor(problems) {
    const lines = problems.map((p) => `${p.pointer === '' ? '(root)' : p.pointer}: ${p.message}`);
    super(`invalid definition:\n${lines.join('\n')}`);
    this.name = 'DefinitionError';
    this.problems = problems;
  }
}

/** A state machine definition with problems: one `{ code, message }` per problem. */
export class GraphValidationError extends Error {
  constructor(problems) {
    super(`invalid state machine:\n${problems.map((p) => `${p.code}: ${p.message}`).join('\n')}`);
    this.name = 'GraphValidationError';
    this.problems = problems;
  }
}

/** A run that reached `maxSteps` with `onMaxSteps: 'throw'`; `run` holds the run so far. */
export class MaxStepsError extends Error {
  constructor(message, run) {
    super(message);
    this.name = 'MaxStepsError';
    this.run = run;
  }
}

/**
 * A run whose input lacks variables the states' task templates name (`{topic}`), found before
 * its first step. `missing` lists each as `{ state, variable }`, in state order.
 */
export class MissingVariablesError extends Error {
  constructor(machine, missing) {
    const names = [...new Set(missing.map((m) => m.variable))];
    const where = missing.map((m) => `{${m.variable}} in the task of '${m.state}'`).join(', ');
    super(`machine '${machine}' cannot start: its input has no ${names.map((n) => `'${n}'`).join(', ')} (${where}); pass ${names.length === 1 ? 'it' : 'them'} in the initial state`);
    this.name = 'MissingVariablesError';
    this.missing = missing;
  }
}

/** A state none of whose outgoing edges matched. */
export class NoEdgeMatchedError extends Error {
  constructor(message, details) {
    super(message);
    this.name = 'NoEdgeMatchedError';
    Object.assign(this, details);
  }
}

/**
 * A recording that cannot be replayed (docs/replay.md): one `{ pointer, message }` per problem,
 * the pointer into the recording's lines (`/3/input`: the fourth line's `input`).
 */
export class RecordingError extends Error {
  constructor(problems) {
    const lines = problems.map((p) => `${p.pointer === '' ? '(root)' : p.pointer}: ${p.message}`);
    super(`invalid recording:\n${lines.join('\n')}`);
    this.name = 'RecordingError';
    this.problems = problems;
  }
}
