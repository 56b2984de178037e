// The error classes of the public API (api.md). Every error a user can catch is one of these or
// a built-in TypeError / Error with a message that says what to do.

/** A condition that does not parse. `index` is a UTF-16 offset into `condition`. */
export class ConditionSyntaxError extends SyntaxError {
  constructor(message, { condition, index }) {
    super(message);
    this.name = 'ConditionSyntaxError';
    this.condition = condition;
    this.index = index;
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

/** A stored definition that cannot be loaded: one `{ pointer, message }` per problem. */
export class DefinitionError extends Error {
  constructor(problems) {
    const lines = problems.map((p) => `${p.pointer || '/'}: ${p.message}`);
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

/** A state none of whose outgoing edges matched. */
export class NoEdgeMatchedError extends Error {
  constructor(message, details) {
    super(message);
    this.name = 'NoEdgeMatchedError';
    Object.assign(this, details);
  }
}
