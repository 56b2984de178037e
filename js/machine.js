// StateMachine: a bounded state machine whose handlers are JavaScript functions (api.md
// "StateMachine"). The C++ executor (src/machine/) owns the bookkeeping (steps, visits, routing,
// termination, history); this file runs handlers, merges their updates into the state with the
// per-key reducers (the state is the host's JavaScript object, so merging happens here), and
// adapts the result to JavaScript idioms: promises, AbortSignal, events, errors.
import { ConditionSyntaxError, GraphValidationError, MaxStepsError, NoEdgeMatchedError } from './errors.js';
import { resolvePath } from './marshal.js';
import { requireRuntime } from './runtime.js';

/** The terminal pseudo-state: an edge to END finishes the run. */
export const END = '__end__';

const disposeSymbol = Symbol.dispose ?? Symbol.for('nodejs.dispose');
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((native) => {
        try {
          native.delete();
        } catch {
          // already gone
        }
      })
    : null;

// src/machine/execution.h Status
const STATUS_END = 2;
const MAX_STEPS = 3;
const NO_EDGE = 4;
const ABORTED = 5;
const NEXT_END = -1;
const SNAPSHOT_FORMAT = 'handoff-graph/execution';

const REDUCERS = {
  replace: (_previous, value) => value,
  append: (previous, value) => (Array.isArray(previous) ? previous : []).concat(Array.isArray(value) ? value : [value]),
  merge: (previous, value, key) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypeError(`the 'merge' reducer of '${key}' needs an object update, got ${describe(value)}`);
    }
    return { ...(typeof previous === 'object' && previous !== null ? previous : {}), ...value };
  },
  sum: (previous, value, key) => {
    if (typeof value !== 'number') throw new TypeError(`the 'sum' reducer of '${key}' needs a number update, got ${describe(value)}`);
    return (typeof previous === 'number' ? previous : 0) + value;
  },
};

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

function wellFormed(s) {
  return s.isWellFormed() ? s : s.toWellFormed();
}

function requireName(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${describe(value)}`);
  return wellFormed(value);
}

// Own enumerable keys are read once, in order; each goes through its key's reducer.
function merge(state, update, reducers) {
  const next = { ...state };
  for (const key of Object.keys(update)) {
    const reducer = Object.hasOwn(reducers, key) ? reducers[key] : REDUCERS.replace;
    const value = reducer(Object.hasOwn(next, key) ? next[key] : undefined, update[key], key);
    // defineProperty, so that a key named __proto__ is data, never the prototype.
    Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return next;
}

function toReducers(reducers) {
  if (typeof reducers !== 'object' || reducers === null) throw new TypeError(`reducers must be an object, got ${describe(reducers)}`);
  const out = Object.create(null);
  for (const [key, reducer] of Object.entries(reducers)) {
    if (typeof reducer === 'function') out[key] = (previous, value) => reducer(previous, value);
    else if (Object.hasOwn(REDUCERS, reducer)) out[key] = REDUCERS[reducer];
    else throw new TypeError(`reducer of '${key}' must be 'replace', 'append', 'merge', 'sum' or a function, got ${describe(reducer)}`);
  }
  return out;
}

export class StateMachine {
  #native;
  #name;
  #onMaxSteps;
  #reducers;
  #handlers = new Map();  // state name → handler
  #states = null;         // state index → { name, handler, paths, edges }: built when first run
  #ids = new Map();

  /**
   * @param {{ name?: string, start?: string, maxSteps?: number, onMaxSteps?: 'return' | 'throw',
   *           feedbackOnRevisit?: boolean, reducers?: Record<string, string | Function> }} options
   */
  constructor(options = {}) {
    if (typeof options !== 'object' || options === null) throw new TypeError(`StateMachine options must be an object, got ${describe(options)}`);
    const { name = 'machine', start, maxSteps = 50, onMaxSteps = 'return', feedbackOnRevisit = true, reducers = {} } = options;
    if (typeof name !== 'string') throw new TypeError(`name must be a string, got ${describe(name)}`);
    if (start !== undefined && typeof start !== 'string') throw new TypeError(`start must be a state name, got ${describe(start)}`);
    if (typeof maxSteps !== 'number') throw new TypeError(`maxSteps must be a number, got ${describe(maxSteps)}`);
    if (onMaxSteps !== 'return' && onMaxSteps !== 'throw') throw new TypeError(`onMaxSteps must be 'return' or 'throw', got ${describe(onMaxSteps)}`);
    if (typeof feedbackOnRevisit !== 'boolean') throw new TypeError(`feedbackOnRevisit must be a boolean, got ${describe(feedbackOnRevisit)}`);
    this.#reducers = toReducers(reducers);
    this.#name = name;
    this.#onMaxSteps = onMaxSteps;
    const { Machine } = requireRuntime().module;
    this.#native = new Machine(wellFormed(name), start !== undefined, wellFormed(start ?? ''), maxSteps, onMaxSteps === 'throw', feedbackOnRevisit);
    registry?.register(this, this.#native, this);
  }

  get #live() {
    if (this.#native === null) throw new Error('this StateMachine has been disposed; create a new one');
    return this.#native;
  }

  get name() {
    return this.#name;
  }

  /**
   * Declares a state. `handler(ctx)` returns a partial state update (or nothing, or a promise of
   * either). Throws GraphValidationError at once for a blank, duplicate or END name.
   */
  addState(name, handler, options = {}) {
    const native = this.#live;
    name = requireName(name, 'addState(name)');
    if (handler !== undefined && handler !== null && typeof handler !== 'function') {
      throw new TypeError(`the handler of state '${name}' must be a function, got ${describe(handler)}`);
    }
    const { feedbackOnRevisit = true } = options ?? {};
    if (typeof feedbackOnRevisit !== 'boolean') throw new TypeError(`feedbackOnRevisit must be a boolean, got ${describe(feedbackOnRevisit)}`);
    const problem = native.addState(name, feedbackOnRevisit);
    if (problem !== null) throw new GraphValidationError([problem]);
    this.#handlers.set(name, handler ?? null);
    return this;
  }

  /** Adds an edge; `when` is a condition, null/undefined (always), or `{ when }`. */
  addEdge(from, to, when) {
    const native = this.#live;
    from = requireName(from, 'addEdge(from)');
    to = requireName(to, 'addEdge(…, to)');
    const source = typeof when === 'object' && when !== null ? when.when : when;
    if (source !== undefined && source !== null && typeof source !== 'string') {
      throw new TypeError(`a condition must be a string, null or undefined, got ${describe(source)}`);
    }
    const conditional = typeof source === 'string';
    const rejected = native.addEdge(from, to, conditional, conditional ? wellFormed(source) : '');
    if (rejected !== null) {
      if (rejected.syntax) throw new ConditionSyntaxError(rejected.syntax.message, { condition: source, index: rejected.syntax.index });
      throw new GraphValidationError([rejected.problem]);
    }
    return this;
  }

  /** Throws GraphValidationError listing every problem; returns this when there is none. */
  validate() {
    const problems = this.#live.validate();
    if (problems.length > 0) throw new GraphValidationError(problems);
    return this;
  }

  // Validates, then fixes what runs need per state (the definition is frozen by the first run).
  #prepare() {
    this.validate();
    if (this.#states === null) {
      const native = this.#native;
      this.#states = native.stateNames().map((name, index) => ({
        name,
        handler: this.#handlers.get(name) ?? null,
        paths: native.routePaths(index),
        pathTexts: native.routePathTexts(index),
        edges: native.outEdges(index).map(({ to, when }) => ({ to, when })),
      }));
      for (const s of native.stringsSince(0)) this.#ids.set(s, this.#ids.size);
    }
    return {
      name: this.#name, native: this.#native, states: this.#states, ids: this.#ids, reducers: this.#reducers, onMaxSteps: this.#onMaxSteps,
    };
  }

  /** A step-wise execution from `state`, for hosts that drive and persist runs themselves. */
  start(state = {}) {
    const prepared = this.#prepare();
    const { Execution: NativeExecution } = requireRuntime().module;
    return new Execution(prepared, new NativeExecution(prepared.native), state, null);
  }

  /** Continues an execution from `exec.snapshot()` (after JSON.stringify/parse, or from storage). */
  resume(snapshot) {
    const prepared = this.#prepare();
    if (typeof snapshot === 'string') snapshot = JSON.parse(snapshot);
    if (typeof snapshot !== 'object' || snapshot === null || snapshot.format !== SNAPSHOT_FORMAT) {
      throw new TypeError(`resume() takes a snapshot from exec.snapshot(), got ${describe(snapshot)}`);
    }
    const { Execution: NativeExecution } = requireRuntime().module;
    const native = new NativeExecution(prepared.native);
    const why = native.restore(prepared.native, JSON.stringify(snapshot));
    if (why !== null) {
      native.delete();
      throw new Error(why);
    }
    return new Execution(prepared, native, snapshot.state ?? {}, snapshot);
  }

  /** Runs to the end: resolves { reason, stepsRun, state, steps }; every failure is a rejection. */
  async run(state = {}, options = {}) {
    const execution = this.start(state);
    try {
      return await execution.run(options);
    } finally {
      execution.dispose();
    }
  }

  /** Runs, yielding typed events: step:start, step:end (with the fired edge), end. */
  async *stream(state = {}, options = {}) {
    const execution = this.start(state);
    try {
      yield* execution.stream(options);
    } finally {
      execution.dispose();
    }
  }

  dispose() {
    if (this.#native === null) return;
    registry?.unregister(this);
    this.#native.delete();
    this.#native = null;
  }

  [disposeSymbol]() {
    this.dispose();
  }
}

/** One run of a StateMachine. Created by machine.start() / machine.resume(). */
export class Execution {
  #prepared;
  #native;
  #address;
  #state;
  #steps = [];
  #updates = new Map();  // state name → the update of its latest visit (revision.previous)
  #failed = null;
  #running = false;

  constructor(prepared, native, state, snapshot) {
    this.#prepared = prepared;
    this.#native = native;
    this.#address = native.address();
    this.#state = state;
    registry?.register(this, native, this);
    if (snapshot !== null) {
      const durations = Array.isArray(snapshot.durations) ? snapshot.durations : [];
      this.#steps = snapshot.steps.map((s, i) => ({ ...s, durationMs: durations[i] ?? 0 }));
      for (const [name, update] of Object.entries(snapshot.updates ?? {})) this.#updates.set(name, update);
    }
  }

  /** The current state (the initial state, merged with every update so far). */
  get state() {
    return this.#state;
  }

  /** The steps run so far: { step, state, visit, next, edge, durationMs }. */
  get steps() {
    return this.#steps;
  }

  get stepsRun() {
    return this.#steps.length;
  }

  /** null while running; then 'end', 'max-steps', 'aborted' or 'no-edge-matched'. */
  get reason() {
    switch (this.#status()) {
      case STATUS_END: return 'end';
      case MAX_STEPS: return 'max-steps';
      case ABORTED: return 'aborted';
      case NO_EDGE: return 'no-edge-matched';
      default: return null;
    }
  }

  get done() {
    return this.#failed !== null || this.reason !== null;
  }

  #status() {
    if (this.#native === null) throw new Error('this execution has been disposed');
    return requireRuntime().execStatus(this.#address);
  }

  /** The run as api.md describes it. */
  result() {
    return { reason: this.reason, stepsRun: this.#steps.length, state: this.#state, steps: this.#steps };
  }

  // Starts the next step (sync): the step's number, state and visit, and the handler's context.
  #begin(signal) {
    if (this.#failed !== null) throw new Error('this execution failed; start a new one or resume a snapshot', { cause: this.#failed });
    const runtime = requireRuntime();
    const index = runtime.execBegin(this.#address);
    if (index < 0) throw new Error('this execution has finished');
    const info = runtime.execInfo();
    const state = this.#prepared.states[index];
    const step = info[1];
    const visit = info[3];
    const revision = info[6] === 1
      ? { visit, previous: this.#updates.has(state.name) ? this.#updates.get(state.name) : null, feedback: this.#native.feedback() }
      : null;
    return { index, state, step, visit, ctx: { state: this.#state, step, visit, stateName: state.name, signal, revision } };
  }

  // Runs the handler, merges its update, routes; returns the step record.
  async #finish(begun) {
    const { state, ctx } = begun;
    const started = performance.now();
    let update;
    try {
      update = state.handler === null ? undefined : state.handler(ctx);
      if (update !== null && typeof update === 'object' && typeof update.then === 'function') update = await update;
      if (update !== undefined && update !== null && (typeof update !== 'object' || Array.isArray(update))) {
        throw new TypeError(`the handler of state '${state.name}' returned ${describe(update)}; return an object (a partial state update) or nothing`);
      }
      this.#state = update === undefined || update === null ? this.#state : merge(this.#state, update, this.#prepared.reducers);
    } catch (error) {
      this.#failed = error;
      if (typeof error === 'object' && error !== null) error.steps = this.#steps;
      throw error;
    }
    const durationMs = performance.now() - started;
    this.#updates.set(state.name, update ?? null);

    const runtime = requireRuntime();
    const cells = state.paths.length === 0 ? 0 : runtime.writer.write(this.#state, state.paths, this.#prepared.ids);
    const status = runtime.execComplete(this.#address, cells);
    const info = runtime.execInfo();
    const next = info[4];
    const record = {
      step: begun.step,
      state: state.name,
      visit: begun.visit,
      next: next === NEXT_END ? END : next >= 0 ? this.#prepared.states[next].name : null,
      edge: info[5] >= 0 ? info[5] : null,
      durationMs,
    };
    this.#steps.push(record);
    if (status === NO_EDGE) {
      const error = this.#noEdgeError(state);
      this.#failed = error;
      throw error;
    }
    if (status === MAX_STEPS && this.#prepared.onMaxSteps === 'throw') {
      const run = this.result();
      throw new MaxStepsError(`machine '${this.#prepared.name}' ran its ${run.stepsRun} steps (maxSteps) without reaching END`, run);
    }
    return record;
  }

  #noEdgeError(state) {
    const candidates = state.edges.map(({ to, when }) => `-> ${to}${when === null ? '' : ` when ${when}`}`);
    const read = {};
    for (const [i, steps] of state.paths.entries()) {
      const path = state.pathTexts[i];
      let value;
      try {
        value = JSON.stringify(resolvePath(this.#state, steps)) ?? 'null';
      } catch {
        value = '(not JSON)';
      }
      read[path] = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    }
    const preview = Object.entries(read).map(([path, value]) => `${path} = ${value}`).join(', ');
    return new NoEdgeMatchedError(
      `no edge from state '${state.name}' matched: ${candidates.join('; ')}${preview ? `. The state read: ${preview}` : ''}`,
      { stateName: state.name, candidates: state.edges, read, steps: this.#steps },
    );
  }

  /** Runs one step; resolves its record, or null when the execution has already finished. */
  async step(options = {}) {
    if (this.done) return null;
    this.#guard();
    try {
      return await this.#finish(this.#begin(options.signal));
    } finally {
      this.#running = false;
    }
  }

  #guard() {
    if (this.#running) throw new Error('a step of this execution is already running');
    this.#running = true;
  }

  /** Stops between steps: the run ends with reason 'aborted'. */
  abort() {
    if (this.#native === null) throw new Error('this execution has been disposed');
    requireRuntime().execAbort(this.#address);
  }

  /** Runs to the end. Resolves { reason, stepsRun, state, steps }. */
  async run(options = {}) {
    const { onStep, signal } = options ?? {};
    if (onStep !== undefined && typeof onStep !== 'function') throw new TypeError(`onStep must be a function, got ${describe(onStep)}`);
    while (!this.done) {
      if (signal?.aborted) {
        this.abort();
        break;
      }
      const record = await this.step({ signal });
      if (onStep !== undefined) onStep(record);
    }
    return this.result();
  }

  /** Runs to the end, yielding { type: 'step:start' | 'step:end' | 'end', ... } events. */
  async *stream(options = {}) {
    const { signal } = options ?? {};
    while (!this.done) {
      if (signal?.aborted) {
        this.abort();
        break;
      }
      this.#guard();
      try {
        const begun = this.#begin(signal);
        yield { type: 'step:start', step: begun.step, stateName: begun.state.name, visit: begun.visit };
        const record = await this.#finish(begun);
        yield { type: 'step:end', step: record };
      } finally {
        this.#running = false;
      }
    }
    yield { type: 'end', run: this.result() };
  }

  /** Plain JSON that machine.resume() continues exactly (taken between steps). */
  snapshot() {
    if (this.#running) throw new Error('snapshot() is taken between steps; a step is running');
    const saved = JSON.parse(this.#native.snapshot());
    saved.state = JSON.parse(JSON.stringify(this.#state));
    saved.updates = JSON.parse(JSON.stringify(Object.fromEntries(this.#updates)));
    saved.durations = this.#steps.map((s) => s.durationMs);
    return saved;
  }

  dispose() {
    if (this.#native === null) return;
    registry?.unregister(this);
    this.#native.delete();
    this.#native = null;
  }

  [disposeSymbol]() {
    this.dispose();
  }
}
