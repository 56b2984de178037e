// StateMachine: a bounded state machine whose handlers are JavaScript functions (api.md
// "StateMachine"). The C++ executor (src/machine/) owns the bookkeeping (steps, visits, routing,
// termination, history, task templates, feedback texts); this file runs handlers, merges their
// updates into the state with the per-key reducers (the state is the host's JavaScript object, so
// merging happens here), keeps each visit's update (run.outputs), answers the core when its
// routing reaches an edge decided by a JavaScript function, and adapts the result to JavaScript
// idioms: promises, AbortSignal, events, errors, disposal.
import {
  ConditionSyntaxError, DefinitionError, GraphValidationError, MaxStepsError, MissingVariablesError, NoEdgeMatchedError,
} from './errors.js';
import { Branch, BranchesHeader, Constants, ExecStatus, StepInfo } from './contract.js';
import { checkReport } from './check-symbol.js';
import { definitionText } from './definition-json.js';
import { exportOf } from './export.js';
import { adopt, disposable, disposedError, inspection, inspectSymbol, release } from './lifetime.js';
import { isStateMachine, markStateMachine } from './machine-brand.js';
import { resolvePath } from './paths.js';
import { checkOptions, edgeArguments, notInDefinition, requireArguments } from './options.js';
import { RECORDING_VERSION, TWIN } from './recording.js';
import { REDUCER_CHOICES, REDUCERS } from './reducers.js';
import { replayMachine } from './replay.js';
import { requireRuntime } from './runtime.js';
import { describe, wellFormed } from './text.js';
import { clone, isRecord, messageOf, put } from './values.js';
import { checkDurable, RunCheckpoints } from './durable.js';
import { checkTracing, endRoute, NO_MACHINE_TRACE, openRunTrace } from './tracing.js';

/** The terminal pseudo-state: an edge to END finishes the run. */
export const END = '__end__';

const SNAPSHOT_FORMAT = 'handoff-graph/execution';
const REASONS = new Map([
  [ExecStatus.End, 'end'],
  [ExecStatus.MaxSteps, 'max-steps'],
  [ExecStatus.Aborted, 'aborted'],
  [ExecStatus.NoEdgeMatched, 'no-edge-matched'],
]);
const MACHINE_OPTIONS = ['name', 'start', 'maxSteps', 'onMaxSteps', 'feedbackOnRevisit', 'noFeedbackStates', 'reducers'];
const ON_MAX_STEPS = ['return', 'throw', 'return-with-flag'];
const TRACE_OPTIONS = ['tracing', 'traceLogPath'];
const RUN_OPTIONS = ['onStep', 'signal', ...TRACE_OPTIONS];
// Runs an execution to its end (Execution's private loop, for StateMachine's run and resume).
let drive;
const NO_TRANSFERS = Object.freeze([]);

// JSON.stringify writes a lone surrogate as an escape (`\ud800`), which the core's JSON reader
// refuses; like every string that crosses into C++ (text.js wellFormed), it becomes U+FFFD. An
// escape is one only after an even number of backslashes.
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;
const wellFormedJSON = (text) => text.replace(LONE_SURROGATE_ESCAPE, '$1\\ufffd');

// JSON text of a value a handler returned, for the core's revision text; what JSON cannot hold
// is named instead of failing the step that shows it.
function jsonText(value) {
  try {
    const text = JSON.stringify(value ?? null);
    if (text !== undefined) return wellFormedJSON(text);
  } catch (error) {
    return `[an update JSON cannot hold: ${messageOf(error)}]`;
  }
  return `[an update JSON cannot hold: ${describe(value)}]`;
}

function requireName(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${describe(value)}`);
  return wellFormed(value);
}

// Updates (a step's one, or a fan-out's branches' in branch order) merged into one new state (one
// copy of the state for the whole join, not one per branch); `null` entries are visits without
// update. Own enumerable keys are read once, in order; each goes through its key's reducer.
function merge(state, updates, reducers) {
  let next = null;
  for (const update of updates) {
    if (update === null) continue;
    next ??= { ...state };
    for (const key of Object.keys(update)) {
      const reducer = reducers.get(key) ?? REDUCERS.replace;
      put(next, key, reducer(Object.hasOwn(next, key) ? next[key] : undefined, update[key], key));
    }
  }
  return next ?? state;
}

// What a handler returned, checked: the update (an object) or null; anything else is a TypeError.
function checkedUpdate(update, stateName) {
  if (update === undefined || update === null) return null;
  if (!isRecord(update)) {
    throw new TypeError(`the handler of state '${stateName}' returned ${describe(update)}; return an object (a partial state update) or nothing`);
  }
  return update;
}

const isThenable = (value) => value !== null && typeof value === 'object' && typeof value.then === 'function';

// A concurrency option: absent, or a number, passed on as it is. Which numbers are concurrencies
// (integers from 1 to 1,000,000) is the core's decision, `bad-concurrency` as for a definition's.
function concurrencyArgument(concurrency, what) {
  if (concurrency !== undefined && typeof concurrency !== 'number') {
    throw new TypeError(`the concurrency of ${what} must be a number, got ${describe(concurrency)}`);
  }
  return concurrency;
}

// Map key → reducer function, and the names the definition format records ('custom' for functions).
function toReducers(reducers) {
  if (typeof reducers !== 'object' || reducers === null) throw new TypeError(`reducers must be an object, got ${describe(reducers)}`);
  const functions = new Map();
  const names = [];
  for (const [key, reducer] of Object.entries(reducers)) {
    if (typeof reducer === 'function') {
      functions.set(key, reducer);
      names.push([key, 'custom']);
    } else if (typeof reducer === 'string' && Object.hasOwn(REDUCERS, reducer)) {
      functions.set(key, REDUCERS[reducer]);
      names.push([key, reducer]);
    } else {
      throw new TypeError(`the reducer of '${key}' must be ${REDUCER_CHOICES}, got ${describe(reducer)}`);
    }
  }
  return { functions, names };
}

function rejectAddition(problem) {
  // A definition that cannot change any more is a usage error, not an invalid machine.
  if (problem.code === 'frozen') return new Error(problem.message);
  return new GraphValidationError([problem]);
}

export class StateMachine {
  #native;
  #name;
  #onMaxSteps;
  #reducers;
  #handlers = new Map();  // state name → handler
  #subgraphs = new Map();  // subgraph state name → the StateMachine it runs
  #owned = [];             // subgraph machines fromJSON built (this machine disposes them)
  #sealedBy = null;        // the machine this one is a subgraph of: its definition is fixed
  #predicates = new Map();  // state name → (position among its outgoing edges → function)
  #edgeCounts = new Map();  // state name → outgoing edges so far
  #states = null;         // state index → { name, handler, paths, pathTexts, edges }: built on first run
  #variables = null;      // the input variables the task templates name
  #ids = new Map();
  // One { native } per execution alive, so that dispose() frees them too: not the executions
  // themselves (nor WeakRefs to them, which keep each one alive until the job that made it ends:
  // a loop of awaited runs never ends its job), so that one nobody holds is still collected.
  #executions = new Set();

  /**
   * @param {{ name?: string, start?: string, maxSteps?: number, onMaxSteps?: 'return' | 'throw' | 'return-with-flag',
   *           feedbackOnRevisit?: boolean, noFeedbackStates?: string[], reducers?: Record<string, string | Function> }} [options]
   */
  constructor(options) {
    const {
      name = 'machine', start, maxSteps = 50, onMaxSteps = 'return', feedbackOnRevisit = true, noFeedbackStates = [], reducers = {},
    } = checkOptions(options, MACHINE_OPTIONS, 'StateMachine options');
    if (typeof name !== 'string') throw new TypeError(`name must be a string, got ${describe(name)}`);
    if (start !== undefined && typeof start !== 'string') throw new TypeError(`start must be a state name, got ${describe(start)}`);
    if (typeof maxSteps !== 'number') throw new TypeError(`maxSteps must be a number, got ${describe(maxSteps)}`);
    if (!ON_MAX_STEPS.includes(onMaxSteps)) {
      throw new TypeError(`onMaxSteps must be 'return', 'throw' or 'return-with-flag', got ${describe(onMaxSteps)}`);
    }
    if (typeof feedbackOnRevisit !== 'boolean') throw new TypeError(`feedbackOnRevisit must be a boolean, got ${describe(feedbackOnRevisit)}`);
    if (!Array.isArray(noFeedbackStates) || !noFeedbackStates.every((n) => typeof n === 'string')) {
      throw new TypeError(`noFeedbackStates must be an array of state names, got ${describe(noFeedbackStates)}`);
    }
    const { functions, names } = toReducers(reducers);
    const { Machine } = requireRuntime().module;
    markStateMachine(this);
    this.#adopt(
      new Machine(wellFormed(name), start === undefined ? undefined : wellFormed(start), maxSteps, onMaxSteps, feedbackOnRevisit,
        noFeedbackStates.map(wellFormed), names.map(([key, reducer]) => [wellFormed(key), reducer])),
      functions,
    );
  }

  #adopt(native, reducers) {
    this.#native = native;
    const options = native.options();
    this.#name = options.name;
    this.#onMaxSteps = options.onMaxSteps;
    this.#reducers = reducers;
    adopt(this, native);
  }

  get #live() {
    if (this.#native === null) throw disposedError('StateMachine');
    return this.#native;
  }

  // What adds states and edges: refused once this machine is another's subgraph, whose
  // definition holds a copy of this one's.
  get #mutable() {
    const native = this.#live;
    if (this.#sealedBy !== null) {
      throw new Error(`machine '${this.#name}' is a subgraph of machine '${this.#sealedBy}', so its states and edges are fixed; build a new machine`);
    }
    return native;
  }

  // Whether `machine` is this one or runs it as a subgraph, at any depth.
  #runs(machine) {
    if (machine === this) return true;
    for (const child of this.#subgraphs.values()) if (child.#runs(machine)) return true;
    return false;
  }

  get name() {
    return this.#name;
  }

  /**
   * Declares a state. `handler(ctx)` returns a partial state update (or nothing, or a promise of
   * either). Throws GraphValidationError at once for a blank, duplicate or END name, or a `task`
   * template that does not parse. `task` is the state's task text; its `{name}` placeholders are
   * filled from the run's input variables and handed to the handler as `ctx.task`.
   */
  addState(name, handler, options) {
    const native = this.#mutable;
    requireArguments(arguments.length, ['name'], 'addState(name, handler?, options?)');
    name = requireName(name, 'addState(name)');
    if (handler !== undefined && handler !== null && typeof handler !== 'function') {
      throw new TypeError(`the handler of state '${name}' must be a function, got ${describe(handler)}`);
    }
    const { feedbackOnRevisit = true, task, handoffs } = checkOptions(options, ['feedbackOnRevisit', 'task', 'handoffs'], 'addState options');
    if (typeof feedbackOnRevisit !== 'boolean') throw new TypeError(`feedbackOnRevisit must be a boolean, got ${describe(feedbackOnRevisit)}`);
    if (task !== undefined && typeof task !== 'string') throw new TypeError(`the task of state '${name}' must be a string, got ${describe(task)}`);
    if (handoffs !== undefined && typeof handoffs !== 'number') throw new TypeError(`the handoffs of state '${name}' must be a number, got ${describe(handoffs)}`);
    const problem = native.addState(wellFormed(name), feedbackOnRevisit, task === undefined ? undefined : wellFormed(task));
    if (problem !== null) throw rejectAddition(problem);
    if (handoffs !== undefined) {
      const refused = native.setHandoffs(wellFormed(name), handoffs);
      if (refused !== null) throw rejectAddition(refused);
    }
    this.#handlers.set(name, handler ?? null);
    return this;
  }

  /**
   * Declares a fan-out state: on each visit it runs every state of `branches` at once (each a
   * visit of that state, with its own handler), waits for all of them, merges their updates in
   * the order of `branches`, then routes by its own edges. `concurrency` caps how many run at once.
   */
  addFanOut(name, branches, options) {
    const native = this.#mutable;
    requireArguments(arguments.length, ['name', 'branches'], 'addFanOut(name, branches, options?)');
    name = requireName(name, 'addFanOut(name)');
    if (!Array.isArray(branches)) throw new TypeError(`the branches of fan-out state '${name}' must be an array of state names, got ${describe(branches)}`);
    const names = branches.map((b, i) => requireName(b, `addFanOut('${name}', branches[${i}])`));
    const { concurrency } = checkOptions(options, ['concurrency'], 'addFanOut options');
    concurrencyArgument(concurrency, `fan-out state '${name}'`);
    const problem = native.addFanOut(wellFormed(name), names.map(wellFormed), concurrency);
    if (problem !== null) throw rejectAddition(problem);
    this.#handlers.set(name, null);
    return this;
  }

  /**
   * Declares a map state (LangGraph's Send): on each visit it runs `state` once per item of the
   * list at `over` (a path such as 'docs' or 'plan.tasks'), each with `ctx.item` and `ctx.index`,
   * at most `concurrency` at once; the updates merge in list order, then it routes by its edges.
   */
  addMap(name, state, options) {
    const native = this.#mutable;
    requireArguments(arguments.length, ['name', 'state', 'options'], 'addMap(name, state, { over, concurrency? })');
    name = requireName(name, 'addMap(name)');
    state = requireName(state, 'addMap(…, state)');
    const { over, concurrency } = checkOptions(options, ['over', 'concurrency'], 'addMap options');
    if (typeof over !== 'string') throw new TypeError(`map state '${name}' needs { over }: the path of a list in the state, got ${describe(over)}`);
    concurrencyArgument(concurrency, `map state '${name}'`);
    const problem = native.addMap(wellFormed(name), wellFormed(state), wellFormed(over), concurrency);
    if (problem !== null) throw rejectAddition(problem);
    this.#handlers.set(name, null);
    return this;
  }

  /**
   * Declares a subgraph state: each visit runs `machine` (another StateMachine, with its own
   * maxSteps) to its end, from `input` ({ childKey: 'parent.path' }; default: a copy of the whole
   * state), and merges `output` ({ parentKey: 'child.path' }; default: the child's whole final
   * state) as the step's update. The child's definition is copied now, and fixed from now on.
   */
  addSubgraph(name, machine, options) {
    const native = this.#mutable;
    requireArguments(arguments.length, ['name', 'machine'], 'addSubgraph(name, machine, { input?, output? })');
    name = requireName(name, 'addSubgraph(name)');
    if (!isStateMachine(machine)) throw new TypeError(`the machine of subgraph state '${name}' must be a StateMachine, got ${describe(machine)}`);
    if (machine.#runs(this)) throw new TypeError(`subgraph state '${name}': machine '${machine.#name}' is this machine or runs it, so the run would never end`);
    const { input, output } = checkOptions(options, ['input', 'output'], 'addSubgraph options');
    const pairs = (mapping, what) => {
      if (mapping === undefined) return undefined;
      if (!isRecord(mapping)) {
        throw new TypeError(`the ${what} of subgraph state '${name}' must be an object of paths ({ key: 'path' }), got ${describe(mapping)}`);
      }
      return Object.entries(mapping).map(([key, path]) => {
        if (typeof path !== 'string') throw new TypeError(`the ${what} '${key}' of subgraph state '${name}' must be a path (a string), got ${describe(path)}`);
        return [wellFormed(key), wellFormed(path)];
      });
    };
    const inputPairs = pairs(input, 'input');
    const outputPairs = pairs(output, 'output');
    let definition;
    try {
      definition = JSON.stringify(machine.toJSON());
    } catch (error) {
      throw new TypeError(`subgraph state '${name}': its machine has no definition: ${messageOf(error)}`, { cause: error });
    }
    const problem = native.addSubgraph(wellFormed(name), definition, inputPairs, outputPairs);
    if (problem !== null) throw rejectAddition(problem);
    this.#subgraphs.set(name, machine);
    this.#handlers.set(name, null);
    machine.#sealedBy ??= this.#name;
    return this;
  }

  /**
   * Adds an edge; `when` is a condition, null/undefined (always), `{ when, description }`, or a
   * function `(ctx) => boolean` (then `options` may give its `{ description }`). A function is
   * called when routing reaches its edge, in declaration order with the conditions: never after
   * the edge that won.
   */
  addEdge(from, to, when, options) {
    const native = this.#mutable;
    requireArguments(arguments.length, ['from', 'to'], 'addEdge(from, to, when?, options?)');
    from = requireName(from, 'addEdge(from)');
    to = requireName(to, 'addEdge(…, to)');
    if (typeof when === 'function') return this.#addPredicateEdge(native, from, to, when, options);
    if (options !== undefined) {
      throw new TypeError('addEdge(from, to, when, options): options ({ description }) go with a function; for a condition pass { when, description } as the third argument');
    }
    if (typeof when === 'object' && when !== null && typeof when.when === 'function') {
      throw new TypeError('addEdge: pass a function as the third argument itself: addEdge(from, to, (ctx) => …, { description })');
    }
    if (typeof when === 'object' && when !== null && Object.hasOwn(when, 'transfer')) return this.#addTransferEdge(native, from, to, when);
    const { source, description } = edgeArguments(when);
    const conditional = typeof source === 'string';
    const rejected = native.addEdge(wellFormed(from), wellFormed(to), conditional ? wellFormed(source) : undefined, wellFormed(description));
    if (rejected !== null) {
      if (rejected.syntax) {
        throw new ConditionSyntaxError(rejected.syntax.message, { condition: source, index: rejected.syntax.index, edge: { from, to } });
      }
      throw rejectAddition(rejected.problem);
    }
    this.#countEdge(from);
    return this;
  }

  #addPredicateEdge(native, from, to, predicate, options) {
    const { description = '' } = checkOptions(options, ['description'], 'addEdge options');
    if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
    const rejected = native.addPredicateEdge(wellFormed(from), wellFormed(to), wellFormed(description));
    if (rejected !== null) throw rejectAddition(rejected.problem);
    if (!this.#predicates.has(from)) this.#predicates.set(from, new Map());
    this.#predicates.get(from).set(this.#countEdge(from), predicate);
    return this;
  }

  // A handoff-enabled state's transfer edge: offered to its handler as a transfer tool, taken
  // when the handler chooses it (ctx.transfer), never by routing.
  #addTransferEdge(native, from, to, options) {
    const { transfer, description = '' } = checkOptions(options, ['transfer', 'description'], 'addEdge options');
    if (transfer !== true) throw new TypeError(`addEdge options.transfer must be true (a transfer edge), got ${describe(transfer)}`);
    if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
    const rejected = native.addTransferEdge(wellFormed(from), wellFormed(to), wellFormed(description));
    if (rejected !== null) throw rejectAddition(rejected.problem);
    this.#countEdge(from);
    return this;
  }

  // The new edge's position among `from`'s outgoing edges (the core numbers them the same way).
  #countEdge(from) {
    const position = this.#edgeCounts.get(from) ?? 0;
    this.#edgeCounts.set(from, position + 1);
    return position;
  }

  /** Throws GraphValidationError listing every problem; returns this when there is none. */
  validate() {
    const problems = this.#live.validate();
    if (problems.length > 0) throw new GraphValidationError(problems);
    return this;
  }

  // Validates, then fixes what runs need per state (the definition is frozen by the first run).
  #prepare() {
    // Once prepared, the machine is frozen (an execution exists), so it stays valid.
    if (this.#states === null || this.#native === null) this.validate();
    if (this.#states === null) {
      const native = this.#native;
      this.#states = native.stateNames().map((name, index) => ({
        name,
        handler: this.#handlers.get(name) ?? null,
        fanOut: native.fanOut(index),
        subgraph: subgraphOf(native.subgraph(index), this.#subgraphs.get(name)),
        paths: native.routePaths(index),
        pathTexts: native.routePathTexts(index),
        edges: native.outEdges(index).map(({ to, when, description, predicate, transfer }, position) => ({
          to, when, description, predicate: predicate ? this.#predicates.get(name).get(position) : null, transfer,
        })),
      }));
      for (const state of this.#states) state.transfers = state.edges.some((e) => e.transfer);
      for (const s of native.stringsSince(0)) this.#ids.set(s, this.#ids.size);
      this.#variables = native.templateVariables();
    }
    return {
      name: this.#name, native: this.#native, states: this.#states, ids: this.#ids, reducers: this.#reducers,
      onMaxSteps: this.#onMaxSteps, executions: this.#executions, variables: this.#variables,
    };
  }

  /**
   * A step-wise execution from `state`, for hosts that drive and persist runs themselves. The
   * task templates are filled from `state`'s top-level keys now: a missing one throws
   * MissingVariablesError before any step.
   */
  start(state = {}) {
    const prepared = this.#prepare();
    const { Execution: NativeExecution } = requireRuntime().module;
    const native = new NativeExecution(prepared.native);
    if (prepared.variables.length > 0) {
      let missing;
      try {
        missing = native.bindVariables(inputVariables(state, prepared.variables));
      } catch (error) {
        native.delete();
        throw error;
      }
      if (missing !== null) {
        native.delete();
        if (missing.problem !== undefined) throw new RangeError(`machine '${prepared.name}' cannot start: ${missing.problem}`);
        throw new MissingVariablesError(prepared.name, missing.missing.map(([stateName, variable]) => ({ state: stateName, variable })));
      }
    }
    return new Execution(prepared, native, state, null);
  }

  /**
   * Continues an execution from `exec.snapshot()` (after JSON.stringify/parse, or from storage).
   * With options, `resume(runId, { store })` continues the durable run `runId` from its last
   * checkpoint in `store` (on any process) to its end: a promise of the run's result.
   */
  resume(snapshot, options) {
    if (options !== undefined) return this.#resumeRun(snapshot, options);
    const prepared = this.#prepare();
    if (typeof snapshot === 'string') {
      try {
        snapshot = JSON.parse(snapshot);
      } catch (error) {
        throw new TypeError(`resume() takes a snapshot from exec.snapshot() (an object or its JSON text), got text that is not JSON (${error.message}); to continue a durable run by its id, pass the store: resume(runId, { store })`, { cause: error });
      }
    }
    if (typeof snapshot !== 'object' || snapshot === null || snapshot.format !== SNAPSHOT_FORMAT) {
      throw new TypeError(`resume() takes a snapshot from exec.snapshot(), got ${describe(snapshot)}`);
    }
    const { Execution: NativeExecution } = requireRuntime().module;
    const native = new NativeExecution(prepared.native);
    let why = native.restore(prepared.native, JSON.stringify(snapshot)) ?? branchOutputsProblem(native.fanOutUnderWay(), snapshot.branchOutputs);
    if (why === null && native.subgraphUnderWay() !== null && (typeof snapshot.subgraph !== 'object' || snapshot.subgraph === null)) {
      why = "cannot resume: 'subgraph' must hold the snapshot of the subgraph under way";
    }
    if (why !== null) {
      native.delete();
      throw new Error(why);
    }
    return new Execution(prepared, native, snapshot.state ?? {}, snapshot);
  }

  /**
   * Runs to the end: resolves { reason, stepsRun, state, steps }; every failure is a rejection.
   * With `{ store, runId }` the run is durable: checkpointed into the store after every step, and
   * resumable with resume(runId, { store }) (js/durable.js). `tracing`, `traceLogPath`: js/tracing.js.
   */
  async run(state = {}, options) {
    const { store, runId, ...rest } = checkOptions(options, [...RUN_OPTIONS, 'store', 'runId'], 'run options');
    const durable = checkDurable(store, runId, 'run options');
    const execution = this.start(state);
    try {
      if (durable === null) return await execution.run(rest);
      const checkpoints = await RunCheckpoints.begin(durable, this.#name, execution);
      return await drive(execution, rest, 'run options', checkpoints);
    } finally {
      execution.dispose();
    }
  }

  async #resumeRun(runId, options) {
    const { store, ...rest } = checkOptions(options, [...RUN_OPTIONS, 'store'], 'resume options');
    const durable = checkDurable(store, runId, 'resume options', 'resume(runId, { store })');
    const checkpoints = await RunCheckpoints.load(durable, this.#name);
    const execution = this.resume(checkpoints.snapshot);
    try {
      return await drive(execution, rest, 'resume options', checkpoints);
    } finally {
      execution.dispose();
    }
  }

  /** Runs, yielding typed events: step:start, step:end (with the fired edge), end. */
  async *stream(state = {}, options) {
    checkOptions(options, ['signal', ...TRACE_OPTIONS], 'stream options');
    const execution = this.start(state);
    try {
      yield* execution.stream(options);
    } finally {
      execution.dispose();
    }
  }

  /**
   * The definition (docs/format.md): structure only; handlers are bound by name in fromJSON.
   * A machine with an edge decided by a function has none: that throws a TypeError.
   */
  /** check()'s report (js/check.js). */
  [checkReport]() {
    return requireRuntime().module.checkMachine(this.#live);
  }

  toJSON() {
    const out = this.#live.toJSON();
    if (out.error !== undefined) throw new TypeError(`toJSON(): ${out.error}`);
    return JSON.parse(out.text);
  }

  /**
   * Builds a machine from a definition. `handlers` maps state names to handler functions (a state
   * without one passes the state on unchanged); `reducers` supplies the 'custom' ones.
   */
  static fromJSON(definition, options) {
    const { handlers = {}, reducers = {} } = checkOptions(options, ['handlers', 'reducers'], 'StateMachine.fromJSON options');
    const text = definitionText(definition);
    const machine = new StateMachine();
    const problems = machine.#native.loadJSON(text);
    if (problems !== null) {
      machine.dispose();
      throw new DefinitionError(problems);
    }
    const native = machine.#native;
    const names = native.stateNames();
    const isSubgraph = (name) => names.includes(name) && native.subgraph(names.indexOf(name)) !== null;
    const bound = new Map();
    const nested = new Map();  // subgraph state → its machine's handlers ('research/web' is 'web' of 'research')
    const errors = [];
    for (const [name, handler] of Object.entries(handlers)) {
      const index = names.indexOf(name);
      const slash = name.indexOf('/');
      if (index < 0 && slash > 0 && isSubgraph(name.slice(0, slash))) {
        const owner = name.slice(0, slash);
        if (!nested.has(owner)) nested.set(owner, {});
        nested.get(owner)[name.slice(slash + 1)] = handler;
      } else if (index < 0) errors.push(notInDefinition(`handlers.${name}`, 'state', name));
      else if (typeof handler !== 'function') errors.push({ pointer: `/states/${index}`, message: `the handler of '${name}' is not a function` });
      else bound.set(name, handler);
    }
    const document = JSON.parse(text);
    for (const [index, name] of names.entries()) {
      if (!isSubgraph(name)) continue;
      try {
        const child = StateMachine.fromJSON(document.states[index].subgraph, { handlers: nested.get(name) ?? {}, reducers });
        child.#sealedBy = native.options().name;
        machine.#subgraphs.set(name, child);
        machine.#owned.push(child);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        errors.push(...error.problems.map((p) => ({ pointer: `/states/${index}/subgraph${p.pointer}`, message: `in subgraph '${name}': ${p.message}` })));
      }
    }
    const functions = new Map();
    for (const [key, reducer] of native.reducers()) {
      if (reducer !== 'custom') functions.set(key, REDUCERS[reducer]);
      else if (Object.hasOwn(reducers, key) && typeof reducers[key] === 'function') functions.set(key, reducers[key]);
      else errors.push({ pointer: `/reducers/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: `'${key}' needs a custom reducer: pass it in options.reducers` });
    }
    if (errors.length > 0) {
      machine.dispose();
      throw new DefinitionError(errors);
    }
    machine.#adopt(native, functions);
    for (const name of names) machine.#handlers.set(name, bound.get(name) ?? null);
    return machine;
  }

  /**
   * Replays a recorded run (docs/replay.md): its trace log lines (or their JSONL text), its result
   * or its durable record, on this machine's definition with handlers that return the recorded
   * updates; compares each step's route. `options.state`: the initial state, when the recording
   * does not hold it. Resolves swarm.replay's report, the run counting as one turn:
   * { same, turns: 1, decisions, divergence: null | { turn: 1, index, kind, recorded, replayed } }.
   */
  async replay(recording, options) {
    const { state } = checkOptions(options, ['state'], 'replay options');
    if (state !== undefined && !isRecord(state)) throw new TypeError(`replay options.state must be the run's initial state (an object), got ${describe(state)}`);
    return replayMachine(this, recording, state);
  }

  /** For a replay (js/replay.js): a machine of this one's definition and reducers, with `handlers`. */
  [TWIN](handlers) {
    return StateMachine.fromJSON(this.toJSON(), { handlers, reducers: Object.fromEntries(this.#reducers) });
  }

  /**
   * The DAG model; `run` (a result or an execution's steps) marks fired edges and visits.
   * `format: 'agentensemble'` gives AgentEnsemble's DagModel 1.3 (graph mode) instead.
   */
  toDag(options = {}) {
    return JSON.parse(exportOf(this.#live, 'dag', options));
  }

  /** Mermaid text: `kind` 'flowchart' (default) or 'state', `direction`, `highlight` (a run). */
  toMermaid(options = {}) {
    return exportOf(this.#live, 'mermaid', options);
  }

  /** Graphviz DOT text; `highlight` (a run) marks fired edges. */
  toDot(options = {}) {
    return exportOf(this.#live, 'dot', options);
  }

  /** Frees the WebAssembly side, and every execution of this machine still alive. */
  dispose() {
    if (this.#native === null) return;
    for (const handle of this.#executions) {
      handle.native.delete();
      handle.native = null;  // its execution now reads as disposed
    }
    this.#executions.clear();
    for (const child of this.#owned) child.dispose();
    release(this, this.#native);
    this.#native = null;
  }

  /** What console.log and util.inspect show: name, states, edge count, start, or that it is disposed. */
  [inspectSymbol](_depth, options, inspect) {
    if (this.#native === null) return `StateMachine '${this.#name}' <disposed>`;
    const native = this.#native;
    const { start, maxSteps } = native.options();
    const summary = { states: native.stateNames(), edges: native.edgeCount(), start, maxSteps };
    return inspection(`StateMachine '${this.#name}'`, summary, options, inspect);
  }
}
disposable(StateMachine);

// The run's input variables the task templates name, as the JSON text of an object: the initial
// state's own enumerable keys (an undefined value counts as missing, as an absent key does).
function inputVariables(state, names) {
  const members = [];
  const source = typeof state === 'object' && state !== null ? state : {};
  for (const name of names) {
    if (!Object.prototype.propertyIsEnumerable.call(source, name)) continue;
    let value;
    try {
      value = source[name];
    } catch (error) {
      throw new TypeError(`the input variable '${name}' could not be read`, { cause: error });
    }
    if (value === undefined) continue;
    let text;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new TypeError(`the input variable '${name}' cannot be shown in a task: ${messageOf(error)}`, { cause: error });
    }
    if (text === undefined) throw new TypeError(`the input variable '${name}' cannot be shown in a task: it is a ${typeof value}`);
    members.push(`${JSON.stringify(name)}:${wellFormedJSON(text)}`);
  }
  return `{${members.join(',')}}`;
}

// What a run needs of a subgraph state: the JavaScript machine it runs, and its mappings
// ([key, path steps] each, from the core; null: the whole state).
function subgraphOf(described, machine) {
  if (described === null || machine === undefined) return null;
  return { machine, input: described.input, output: described.output };
}

// A new object holding, under each key, the value at its path in `state` (null where none).
function mapped(state, pairs) {
  const out = {};
  for (const [key, steps] of pairs) put(out, key, resolvePath(state, steps));
  return out;
}

// Why a snapshot's fan-out under way cannot continue: the core says which branches completed, and
// `branchOutputs` must hold each one's update (an object, or null for none). null when it fits.
function branchOutputsProblem(under, outputs) {
  if (under === null) return null;
  if (!Array.isArray(outputs) || outputs.length !== under.done.length) {
    return `cannot resume: 'branchOutputs' must list an update (or null) for each of the fan-out's ${under.done.length} branches`;
  }
  for (let i = 0; i < outputs.length; i++) {
    const update = outputs[i];
    if (update !== null && !isRecord(update)) return `cannot resume: branchOutputs[${i}] is not an update (an object or null)`;
    if (!under.done[i] && update !== null) return `cannot resume: branchOutputs[${i}] holds an update, but that branch had not completed`;
  }
  return null;
}

/**
 * What a handler gets. Its own members are plain values fixed when the step begins; `feedback`
 * (the revision text for a model) is a getter, so that the core writes it only for handlers that
 * read it: it is made from values fixed then (the state's name, the visit, the previous update),
 * by the module's free function, which no disposal can free. (A getter on each object would cost
 * half a microsecond per step; on the class it costs nothing.)
 */
class HandlerContext {
  #stateName;
  #visit;
  #previous;
  #module;
  #text;
  #choose;

  constructor(state, step, visit, stateName, signal, revision, task, module, handoff = null) {
    this.state = state;
    this.step = step;
    this.visit = visit;
    this.stateName = stateName;
    this.signal = signal;
    this.revision = revision;
    this.task = task;
    this.#stateName = stateName;
    this.#visit = visit;
    this.#previous = revision?.previous;
    this.#module = revision === null ? null : module;
    // A handoff-enabled state's transfers offered now (the core's list; [] once its handoffs are used up).
    this.transfers = handoff === null ? NO_TRANSFERS : handoff.transfers;
    this.#choose = handoff === null ? null : handoff.choose;
  }

  /**
   * Chooses the next state through a transfer (its tool name, as the model called it, or the
   * state's name): the step goes there instead of along the regular edges. The core refuses
   * (RangeError) a transfer not offered now.
   */
  transfer(choice) {
    if (typeof choice !== 'string') throw new TypeError(`transfer(choice): choice must be a transfer tool's name or a state's, got ${describe(choice)}`);
    if (this.#choose === null) throw new RangeError(`state '${this.stateName}' is not handoff-enabled: it offers no transfers`);
    this.#choose(choice);
  }

  /** On a revisit with feedback: the prior visit's output, then the seed's sentence; else null. */
  get feedback() {
    if (this.#module === null) return null;
    this.#text ??= this.#module.revisionText(this.#stateName, this.#visit, jsonText(this.#previous));
    return this.#text;
  }
}

/** One run of a StateMachine. Created by machine.start() / machine.resume(). */
export class Execution {
  #prepared;
  #handle;  // { native }, in the machine's list of executions; native is null once disposed
  #address;
  #state;
  #steps = [];
  #updates = new Map();  // state name → the update of its latest visit (revision.previous)
  #outputs = new Map();  // state name → every visit's update, in visit order (run.outputs)
  #tasks;                // state index → its task, filled (fixed once the execution exists), read when first needed
  #failed = null;
  #running = false;
  #abortRequested = false;
  #fanOut = null;            // the fan-out step under way (its branches, updates, completions)
  #branchController = null;  // aborts the branches of the fan-out under way
  #resumedFanOut = null;     // a snapshot's fan-out under way, continued by the next step
  #child = null;             // the subgraph step under way: { exec, latest } (its execution, its latest snapshot)
  #resumedSubgraph = null;   // a snapshot's subgraph under way: { under, snapshot }
  #trace = NO_MACHINE_TRACE;  // spans and log lines of the run under way (js/tracing.js)

  constructor(prepared, native, state, snapshot) {
    this.#prepared = prepared;
    const handle = { native };
    this.#handle = handle;
    this.#address = native.address();
    this.#state = state;
    prepared.executions.add(handle);
    // Collected without dispose(): its native side is freed and it leaves the machine's list.
    adopt(this, {
      delete() {
        prepared.executions.delete(handle);
        native.delete();
      },
    });
    // A task is filled before the first step and never changes: read once per state (#task).
    this.#tasks = new Array(prepared.states.length);
    if (snapshot !== null) {
      const durations = Array.isArray(snapshot.durations) ? snapshot.durations : [];
      this.#steps = snapshot.steps.map((s, i) => {
        const record = { ...s };
        if (Array.isArray(s.branches)) record.branches = Object.freeze(s.branches.map((b) => Object.freeze({ ...b })));
        if (typeof s.subgraph === 'object' && s.subgraph !== null) record.subgraph = Object.freeze({ ...s.subgraph });
        record.durationMs = durations[i] ?? 0;
        return Object.freeze(record);
      });
      this.#restoreOutputs(snapshot);
      // Taken while a fan-out's branches ran: the core restored the step under way and which
      // branches completed; their updates are the snapshot's (branchOutputs).
      const under = native.fanOutUnderWay();
      if (under !== null) this.#resumedFanOut = { under, outputs: snapshot.branchOutputs };
      const inSubgraph = native.subgraphUnderWay();
      if (inSubgraph !== null) this.#resumedSubgraph = { under: inSubgraph, snapshot: snapshot.subgraph };
    }
  }

  // A state's task, read from the core on its first visit (a machine of many states, such as a
  // fan-out's, would otherwise pay one call per state for every run).
  #task(index) {
    let task = this.#tasks[index];
    if (task === undefined) {
      task = this.#native.task(index);
      this.#tasks[index] = task;
    }
    return task;
  }

  // Every visit's update from the snapshot's `outputs`. A snapshot written before outputs were
  // kept holds only each state's latest update (`updates`): that one goes to its last visit,
  // and the earlier visits, unknown, read null.
  #restoreOutputs(snapshot) {
    const known = typeof snapshot.outputs === 'object' && snapshot.outputs !== null ? snapshot.outputs : null;
    const latest = typeof snapshot.updates === 'object' && snapshot.updates !== null ? snapshot.updates : {};
    const visits = [];
    for (const { state, visit, branches } of this.#steps) {
      visits.push({ state, visit });
      if (branches !== undefined) visits.push(...branches);
    }
    for (const { state, visit } of visits) {
      const list = this.#outputs.get(state) ?? [];
      this.#outputs.set(state, list);
      const saved = known !== null && Object.hasOwn(known, state) && Array.isArray(known[state]) ? known[state] : null;
      if (saved !== null && visit - 1 < saved.length) list[visit - 1] = saved[visit - 1];
      else list[visit - 1] = null;
    }
    for (const [name, list] of this.#outputs) {
      if (known === null && Object.hasOwn(latest, name)) list[list.length - 1] = latest[name];
      for (let i = 0; i < list.length; i++) if (list[i] === undefined) list[i] = null;
      this.#updates.set(name, Object.hasOwn(latest, name) ? latest[name] : list.at(-1));
    }
  }

  get #live() {
    if (this.#native === null) throw disposedError('execution (or its machine)');
    return this.#native;
  }

  /** The current state (the initial state, merged with every update so far). */
  get state() {
    return this.#state;
  }

  /** The steps run so far, { step, state, visit, next, edge, durationMs } each: a new array of frozen records. */
  get steps() {
    return this.#steps.slice();
  }

  get stepsRun() {
    return this.#steps.length;
  }

  /** null while running (or after a handler failed); then 'end', 'max-steps', 'aborted' or 'no-edge-matched'. */
  get reason() {
    this.#live;
    return REASONS.get(this.#native.status()) ?? null;
  }

  get done() {
    return this.#failed !== null || this.reason !== null;
  }

  /**
   * The run as api.md describes it, as it is now: later steps do not change it. `outputs` lists,
   * per state, every visit's update in visit order (null for a visit that returned nothing);
   * with onMaxSteps 'return-with-flag', `maxStepsReached` says whether the run stopped at maxSteps.
   */
  result() {
    const run = { reason: this.reason, stepsRun: this.#steps.length, state: this.#state, steps: this.#steps.slice(), outputs: this.outputs };
    const flag = this.#native.maxStepsFlag();
    if (flag >= 0) run.maxStepsReached = flag === 1;
    return run;
  }

  /** Per state, every visit's update in visit order: a new object of new arrays. */
  get outputs() {
    const outputs = {};
    for (const [name, list] of this.#outputs) {
      // Assignment is the fast path (a fan-out's machine has many states); only __proto__ needs put.
      if (name === '__proto__') put(outputs, name, list.slice());
      else outputs[name] = list.slice();
    }
    return outputs;
  }

  // Starts the next step (sync): the step's number, state and visit, and the handler's context.
  #begin(signal) {
    this.#live;
    if (this.#failed !== null) throw new Error('this execution failed; start a new one or resume a snapshot', { cause: this.#failed });
    const runtime = requireRuntime();
    if (this.#resumedFanOut !== null) return this.#beginResumedFanOut(signal);
    if (this.#resumedSubgraph !== null) {
      const resumed = this.#resumedSubgraph;
      this.#resumedSubgraph = null;
      const { state: index, step, visit } = resumed.under;
      const state = this.#prepared.states[index];
      return { index, state, step, visit, finished: false, ctx: null, signal, childSnapshot: resumed.snapshot, resumedSubgraph: resumed };
    }
    const index = runtime.execBegin(this.#address);
    if (index < 0) throw new Error('this execution has finished');
    const info = runtime.execInfo();
    const state = this.#prepared.states[index];
    const step = info[StepInfo.step];
    const visit = info[StepInfo.visit];
    if (state.fanOut !== null) return this.#beginFanOut(index, state, step, visit, signal, false);
    const revision = info[StepInfo.revision] === 1 ? this.#revision(state.name, visit, this.#native.feedback()) : null;
    let handoff = null;
    if (state.transfers) {
      const native = this.#native;
      const choose = (choice) => {
        this.#live;
        const refused = native.chooseTransfer(wellFormed(choice));
        if (refused !== null) throw new RangeError(refused);
      };
      handoff = { transfers: Object.freeze(JSON.parse(native.transfers()).map(Object.freeze)), choose };
    }
    const ctx = new HandlerContext(this.#state, step, visit, state.name, signal, revision, this.#task(index), runtime.module, handoff);
    return { index, state, step, visit, finished: false, ctx, signal, childSnapshot: null };
  }

  // A fan-out step begun: for a map, the core counts the list's items (marshalled at its path);
  // then the core's branches. `resumed`: the step was restored from a snapshot, the list counted.
  #beginFanOut(index, state, step, visit, signal, resumed) {
    const runtime = requireRuntime();
    const { map, overPath } = state.fanOut;
    let items = null;
    if (map !== undefined) {
      items = resolvePath(this.#state, overPath[0]);
      const count = resumed ? 0 : runtime.writer.callEager(this.#state, overPath, this.#prepared.ids, runtime.execItems, this.#address);
      if (count < 0) {
        throw this.#fail(new TypeError(`map state '${state.name}' maps over '${map.over}', which is not a list: it holds ${describe(items)}`));
      }
    }
    const words = runtime.execBranches(this.#address);
    const count = words[BranchesHeader.count];
    const branches = new Array(count);
    for (let i = 0, at = BranchesHeader.length; i < count; i++, at += Branch.length) {
      branches[i] = { index: words[at + Branch.state], visit: words[at + Branch.visit], revision: words[at + Branch.revision] === 1 };
    }
    return {
      index, state, step, visit, finished: false, ctx: null, signal, branches, items,
      concurrency: words[BranchesHeader.concurrency],
      updates: new Array(count).fill(null),
      done: new Array(count).fill(false),
    };
  }

  #beginResumedFanOut(signal) {
    const resumed = this.#resumedFanOut;
    const { under, outputs } = resumed;
    this.#resumedFanOut = null;
    const begun = this.#beginFanOut(under.state, this.#prepared.states[under.state], under.step, under.visit, signal, true);
    begun.resumed = resumed;  // put back if the step is abandoned before its branches run
    begun.done = under.done.slice();
    begun.updates = begun.done.map((done, i) => (done && outputs[i] !== undefined ? outputs[i] : null));
    return begun;
  }

  // What a branch's handler gets: a handler context for a visit of the branch state, with the
  // branch's `index` (and, in a map, its `item`) and the fan-out's shared signal.
  #branchContext(begun, i, signal) {
    const branch = begun.branches[i];
    const state = this.#prepared.states[branch.index];
    const revision = branch.revision ? this.#revision(state.name, branch.visit, this.#native.feedbackOf(branch.index)) : null;
    const ctx = /** @type {HandlerContext & { index: number, item?: unknown }} */ (
      new HandlerContext(this.#state, begun.step, branch.visit, state.name, signal, revision, this.#task(branch.index), requireRuntime().module));
    ctx.index = i;
    if (begun.items !== null) ctx.item = Array.isArray(begun.items) ? begun.items[i] : undefined;
    return ctx;
  }

  // What a revisit with feedback tells its handler: the visit, its state's latest update, the core's feedback text.
  #revision(name, visit, feedback) {
    return Object.freeze({ visit, previous: this.#updates.get(name) ?? null, feedback });
  }

  // A failed step: the error ends the execution, with the steps before it attached.
  #fail(error) {
    this.#failed = error;
    if (typeof error === 'object' && error !== null) error.steps = this.#steps.slice();
    return error;
  }

  // Runs a fan-out's branches (at most `concurrency` at once, started in branch order), each
  // completion told to the core; the first failure aborts the others' signal and, once every
  // started branch has settled, fails the step. Then merges the updates in branch order and routes.
  async #finishFanOut(begun) {
    const { state, branches } = begun;
    begun.finished = true;
    // One span for the step; the branches' handlers run inside it.
    const span = this.#trace.step(begun);
    const started = performance.now();
    const states = this.#prepared.states;
    const controller = new AbortController();
    const outer = begun.signal;
    const forward = () => controller.abort(outer.reason);
    if (outer !== undefined && outer !== null) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener('abort', forward, { once: true });
    }
    if (this.#abortRequested) controller.abort();
    this.#branchController = controller;
    this.#fanOut = begun;
    let failure = null;
    const fail = (error, i) => {
      if (failure !== null) return;
      failure = { error, i };
      controller.abort(error);
    };
    const accept = (i, update) => {
      try {
        begun.updates[i] = checkedUpdate(update, states[branches[i].index].name);
      } catch (error) {
        fail(error, i);
        return;
      }
      begun.done[i] = true;
      if (this.#native !== null) this.#native.branchDone(i);
    };
    // Settles once every started branch has (a count, not Promise.all: no array of promises).
    let unsettled = 1;
    let allSettled;
    const joined = new Promise((resolve) => {
      allSettled = resolve;
    });
    const settled = () => {
      if (--unsettled === 0) allSettled();
    };
    const start = (i) => {
      const { handler, subgraph } = states[branches[i].index];
      let result;
      try {
        if (subgraph !== null) {
          // A branch that is a subgraph: its machine runs as the branch (no snapshot of it is kept).
          result = span.run(() => this.#runSubgraph(states[branches[i].index], controller.signal, null, null)).then((ran) => ran.update);
        } else if (handler !== null) {
          const ctx = this.#branchContext(begun, i, controller.signal);
          result = span.run(() => handler(ctx));
        }
      } catch (error) {
        fail(error, i);
        return null;
      }
      if (isThenable(result)) {
        unsettled++;
        return Promise.resolve(result).then(
          (update) => {
            accept(i, update);
            settled();
          },
          (error) => {
            fail(error, i);
            settled();
          },
        );
      }
      accept(i, result);
      return null;
    };
    const pending = [];
    const limit = begun.concurrency > 0 ? begun.concurrency : branches.length;
    if (limit >= branches.length) {
      for (let i = 0; i < branches.length && failure === null; i++) {
        if (!begun.done[i]) start(i);
      }
      settled();
      if (unsettled > 0) pending.push(joined);
    } else {
      let next = 0;
      const worker = async () => {
        while (next < branches.length && failure === null) {
          const i = next++;
          if (begun.done[i]) continue;
          const promise = start(i);
          if (promise !== null) await promise;
        }
      };
      for (let w = 0; w < limit; w++) pending.push(worker());
    }
    try {
      if (pending.length > 0) await Promise.all(pending);
    } finally {
      outer?.removeEventListener?.('abort', forward);
      this.#branchController = null;
      this.#fanOut = null;
    }
    // (Set by the branches' callbacks, which the type checker does not follow.)
    const failed = /** @type {{ error: any, i: number } | null} */ (failure);
    if (failed !== null) {
      const error = this.#fail(failed.error);
      if (typeof error === 'object' && error !== null) {
        const branch = branches[failed.i];
        error.branch = Object.freeze({ state: states[branch.index].name, visit: branch.visit, index: failed.i });
      }
      span.fail(error);
      throw error;
    }
    try {
      this.#live;  // a branch may have disposed this execution or its machine
      this.#state = merge(this.#state, begun.updates, this.#prepared.reducers);
    } catch (error) {
      span.fail(this.#fail(error));
      throw error;
    }
    const durationMs = performance.now() - started;
    const records = new Array(branches.length);
    for (let i = 0; i < branches.length; i++) {
      const name = states[branches[i].index].name;
      this.#keepOutput(name, begun.updates[i]);
      records[i] = Object.freeze({ state: name, visit: branches[i].visit });
    }
    this.#keepOutput(state.name, null);
    return this.#record(begun, null, durationMs, Object.freeze(records), span);
  }

  // Runs a subgraph state's machine to its end (or continues it from `childSnapshot`), on the
  // state as it is now; resolves the update its output mapping makes and what the child did.
  // `track` ({ exec, latest }) keeps the child's snapshot after each of its steps, for a snapshot
  // of this execution taken meanwhile. A child's failure is this step's, with `subgraph` attached.
  async #runSubgraph(state, signal, childSnapshot, track) {
    const { machine, input, output } = state.subgraph;
    const exec = childSnapshot !== null ? machine.resume(childSnapshot) : machine.start(input === null ? { ...this.#state } : mapped(this.#state, input));
    try {
      let onStep;
      if (track !== null) {
        const keep = () => {
          try {
            track.latest = exec.snapshot();
          } catch {
            track.latest = null;  // a state JSON cannot hold: this execution's snapshot() says so
          }
        };
        track.exec = exec;
        keep();
        onStep = keep;
      }
      let run;
      try {
        run = await exec.run(signal === undefined || signal === null ? { onStep } : { onStep, signal });
      } catch (error) {
        if (typeof error === 'object' && error !== null) error.subgraph = Object.freeze({ state: state.name, steps: Array.isArray(error.steps) ? error.steps : [] });
        throw error;
      }
      return {
        update: output === null ? run.state : mapped(run.state, output),
        run: Object.freeze({ machine: machine.name, reason: run.reason, stepsRun: run.stepsRun }),
      };
    } finally {
      exec.dispose();
    }
  }

  // The update of a visit that ran: the state's latest (revision.previous) and one more output.
  #keepOutput(name, output) {
    this.#updates.set(name, output);
    let visits = this.#outputs.get(name);
    if (visits === undefined) {
      visits = [];
      this.#outputs.set(name, visits);
    }
    visits.push(output);
  }

  // Runs the handler, merges its update and routes. Returns the step's record and the error the
  // step ends the run with (no edge matched; max steps with onMaxSteps 'throw'), if any.
  async #finish(begun) {
    if (begun.branches !== undefined) return this.#finishFanOut(begun);
    const { state, ctx } = begun;
    begun.finished = true;
    const span = this.#trace.step(begun);
    const started = performance.now();
    let update;
    try {
      if (state.subgraph !== null) {
        this.#child = { exec: null, latest: null };
        const ran = await span.run(() => this.#runSubgraph(state, begun.signal, begun.childSnapshot, this.#child));
        begun.subgraphRun = ran.run;
        update = ran.update;
      } else {
        update = state.handler === null ? undefined : span.run(() => state.handler(ctx));
      }
      if (isThenable(update)) update = await update;
      update = checkedUpdate(update, state.name);
      this.#state = merge(this.#state, [update], this.#prepared.reducers);
    } catch (error) {
      span.fail(this.#fail(error));
      throw error;
    } finally {
      this.#child = null;
    }
    const durationMs = performance.now() - started;
    const output = update;
    this.#keepOutput(state.name, output);
    return this.#record(begun, output, durationMs, null, span);
  }

  // Routes the step and records it (`branches`: a fan-out step's, else null) in its trace span.
  #record(begun, output, durationMs, branches, span) {
    const { state } = begun;
    const runtime = requireRuntime();
    this.#live;
    const route = span.route();
    let status;
    try {
      status = this.#route(begun, output);
    } catch (error) {
      route.end();
      span.fail(error);
      throw error;
    }
    const info = runtime.execInfo();
    const next = info[StepInfo.next];
    const edge = info[StepInfo.edge];
    const fields = {
      step: begun.step,
      state: state.name,
      visit: begun.visit,
      next: next === Constants.NextEnd ? END : next >= 0 ? this.#prepared.states[next].name : null,
      edge: edge === Constants.NoEdge ? null : edge,
    };
    if (branches !== null) fields.branches = branches;
    if (begun.subgraphRun !== undefined) fields.subgraph = begun.subgraphRun;
    fields.durationMs = durationMs;
    const record = Object.freeze(fields);
    this.#steps.push(record);
    endRoute(route, record, record.edge === null ? undefined : state.edges[record.edge]);
    span.end(record);
    this.#trace.event({ type: 'step', ...record, update: output ?? null });
    let error = null;
    if (status === ExecStatus.NoEdgeMatched) {
      error = this.#noEdgeError(state);
      this.#failed = error;
    } else if (status === ExecStatus.MaxSteps && this.#prepared.onMaxSteps === 'throw') {
      const run = this.result();
      error = new MaxStepsError(`machine '${this.#prepared.name}' ran its ${run.stepsRun} steps (maxSteps) without reaching END`, run);
    }
    return { record, error };
  }

  // Routes the step: the core walks the edges; when it reaches one decided by a function it says
  // which (status AwaitingPredicate), this calls the function and answers. A no makes the core
  // continue from the next edge, on the state marshalled again (the function may have run code
  // that used the transfer area). Returns the final status.
  #route(begun, output) {
    const runtime = requireRuntime();
    const { state, step, visit } = begun;
    let status = runtime.writer.callEager(this.#state, state.paths, this.#prepared.ids, runtime.execComplete, this.#address);
    while (status === ExecStatus.AwaitingPredicate) {
      const edge = state.edges[runtime.execInfo()[StepInfo.edge]];
      let verdict;
      try {
        verdict = edge.predicate(Object.freeze({ state: this.#state, step, visit, stateName: state.name, lastOutput: output }));
        if (typeof verdict !== 'boolean') {
          const hint = verdict !== null && typeof verdict === 'object' && typeof verdict.then === 'function' ? ' (edge functions are synchronous)' : '';
          throw new TypeError(`the function of edge '${state.name}' -> '${edge.to}' returned ${describe(verdict)}; return true or false${hint}`);
        }
      } catch (error) {
        throw this.#fail(error);
      }
      this.#live;  // the function may have disposed this execution or its machine
      status = runtime.execVerdict(this.#address, verdict ? 1 : 0);
      if (status === ExecStatus.InStep) status = runtime.writer.callEager(this.#state, state.paths, this.#prepared.ids, runtime.execComplete, this.#address);
    }
    return status;
  }

  // The values routing read come from the core, reserved names ($step, $state, $visits) included.
  #noEdgeError(state) {
    const candidates = state.edges.map(({ to, when, predicate, description }) => {
      if (predicate !== null) return `-> ${to} (a function${description ? `: ${description}` : ''})`;
      return `-> ${to}${when === null ? '' : ` when ${when}`}`;
    });
    const read = {};
    for (const [path, preview] of this.#native.unmatchedReads()) put(read, path, preview);
    const preview = Object.entries(read).map(([path, value]) => `${path} = ${value}`).join(', ');
    return new NoEdgeMatchedError(
      `no edge from state '${state.name}' matched: ${candidates.join('; ')}${preview ? `. The state read: ${preview}` : ''}`,
      {
        stateName: state.name,
        candidates: state.edges.map(({ to, when, predicate, description }) =>
          predicate === null ? { to, when } : { to, when, predicate: true, description }),
        read,
        steps: this.#steps.slice(),
      },
    );
  }

  #guard() {
    if (this.#running) throw new Error('a step of this execution is already running');
    this.#running = true;
  }

  // The step under way is over: an abort() asked for meanwhile takes effect now.
  #endStep() {
    this.#running = false;
    if (this.#abortRequested && this.#native !== null) {
      this.#abortRequested = false;
      this.#native.abort();
    }
  }

  /** Runs one step; resolves its record, or null when the execution has already finished. */
  async step(options) {
    const { signal } = checkOptions(options, ['signal'], 'step options');
    if (this.done) return null;
    this.#guard();
    try {
      const { record, error } = await this.#finish(this.#begin(signal));
      if (error !== null) throw error;
      return record;
    } finally {
      this.#endStep();
    }
  }

  /** Stops the run: at once between steps, or as soon as the step under way finishes. */
  abort() {
    const native = this.#live;
    // A step under way, or a resumed fan-out's (the core is in its step): its branches' signal is
    // aborted, and the run stops once the step is over.
    if (this.#running || this.#resumedFanOut !== null || this.#resumedSubgraph !== null) {
      this.#abortRequested = true;
      this.#branchController?.abort();
      this.#child?.exec?.abort();
    } else {
      native.abort();
    }
  }

  /** Runs to the end. Resolves { reason, stepsRun, state, steps }. */
  async run(options) {
    return this.#drive(options, 'run options', null);
  }

  static {
    drive = (execution, options, where, checkpoints) => execution.#drive(options, where, checkpoints);
  }

  // The run loop, traced per the options; `checkpoints` (a durable run's, or null) saves the
  // snapshot after every step, before onStep hears of it.
  async #drive(options, where, checkpoints) {
    const { onStep, signal, tracing, traceLogPath } = checkOptions(options, RUN_OPTIONS, where);
    if (onStep !== undefined && typeof onStep !== 'function') throw new TypeError(`onStep must be a function, got ${describe(onStep)}`);
    const trace = await openRunTrace(checkTracing(tracing, traceLogPath, where), { machine: this.#prepared.name, runId: checkpoints?.runId, start: this.#startLine });
    this.#trace = trace;
    try {
      while (!this.done) {
        if (signal?.aborted) {
          this.abort();
          break;
        }
        this.#guard();
        let outcome;
        try {
          outcome = await this.#finish(this.#begin(signal));
        } finally {
          this.#endStep();
        }
        if (checkpoints !== null) await checkpoints.save(this);
        if (onStep !== undefined) onStep(outcome.record);
        if (outcome.error !== null) throw outcome.error;
      }
      const result = this.result();
      trace.succeeded(result);
      return result;
    } catch (error) {
      trace.failed(error);
      throw error;
    } finally {
      this.#trace = NO_MACHINE_TRACE;
      await trace.close();
    }
  }

  // The trace log's first line of a run (docs/replay.md): the state and step it starts from.
  #startLine = () => ({ recording: RECORDING_VERSION, state: this.state, step: this.stepsRun });

  /** Runs to the end, yielding { type: 'step:start' | 'step:end' | 'end', ... } events. */
  async *stream(options) {
    const { signal, tracing, traceLogPath } = checkOptions(options, ['signal', ...TRACE_OPTIONS], 'stream options');
    const trace = await openRunTrace(checkTracing(tracing, traceLogPath, 'stream options'), { machine: this.#prepared.name, start: this.#startLine });
    this.#trace = trace;
    try {
      yield* this.#stream(signal);
      trace.succeeded(this.result());
    } catch (error) {
      trace.failed(error);
      throw error;
    } finally {
      this.#trace = NO_MACHINE_TRACE;
      await trace.close();
    }
  }

  async *#stream(signal) {
    while (!this.done) {
      if (signal?.aborted) {
        this.abort();
        break;
      }
      this.#guard();
      let begun = null;
      let outcome;
      try {
        begun = this.#begin(signal);
        const event = { type: 'step:start', step: begun.step, stateName: begun.state.name, visit: begun.visit };
        if (begun.branches !== undefined) {
          event.branches = begun.branches.map((b) => ({ state: this.#prepared.states[b.index].name, visit: b.visit }));
        }
        yield event;
        outcome = await this.#finish(begun);
      } finally {
        // The consumer stopped listening before the handler ran: the step never happened (a
        // resumed fan-out stays as the snapshot left it, its completed branches kept).
        if (begun !== null && !begun.finished && begun.resumed !== undefined) this.#resumedFanOut = begun.resumed;
        else if (begun !== null && !begun.finished && begun.resumedSubgraph !== undefined) this.#resumedSubgraph = begun.resumedSubgraph;
        else if (begun !== null && !begun.finished && this.#native !== null) this.#native.cancelStep();
        this.#endStep();
      }
      yield { type: 'step:end', step: outcome.record };
      if (outcome.error !== null) throw outcome.error;
    }
    yield { type: 'end', run: this.result() };
  }

  /** Plain JSON that machine.resume() continues exactly (taken between steps). */
  snapshot() {
    if (this.#running && this.#fanOut === null && this.#child === null) {
      throw new Error("snapshot() is taken between steps (or while a fan-out's branches or a subgraph run); a step is running");
    }
    if (this.#child !== null && this.#child.latest === null) throw new Error('the subgraph under way has no snapshot (its state is not JSON)');
    if (this.#failed !== null && !(this.#failed instanceof NoEdgeMatchedError)) {
      throw new Error('this execution failed in a handler; there is no consistent state to snapshot', { cause: this.#failed });
    }
    const saved = JSON.parse(this.#live.snapshot());
    saved.state = clone(this.#state);
    saved.updates = clone(Object.fromEntries(this.#updates));
    saved.outputs = clone(this.outputs);
    saved.durations = this.#steps.map((s) => s.durationMs);
    // The updates of the fan-out's branches completed so far (null for the others), by branch.
    const fanOut = this.#fanOut;
    if (fanOut !== null) saved.branchOutputs = clone(fanOut.updates.map((u, i) => (fanOut.done[i] ? u : null)));
    else if (this.#resumedFanOut !== null) saved.branchOutputs = clone(this.#resumedFanOut.outputs);
    // The subgraph under way: its own snapshot, as of its last step (the one it is in reruns).
    if (this.#child !== null) saved.subgraph = this.#child.latest;
    else if (this.#resumedSubgraph !== null) saved.subgraph = this.#resumedSubgraph.snapshot;
    // What each subgraph step's child did: the core does not know it; a resumed execution shows it.
    this.#steps.forEach((s, i) => {
      if (s.subgraph !== undefined) saved.steps[i].subgraph = { ...s.subgraph };
    });
    return saved;
  }

  /** The DAG model of the machine with this execution's steps marked (`format` as machine.toDag). */
  toDag(options) {
    const { format, generatedAt } = checkOptions(options, ['format', 'generatedAt'], 'execution.toDag options');
    const marks = { highlight: this.result() };
    if (format !== undefined) marks.format = format;
    if (generatedAt !== undefined) marks.generatedAt = generatedAt;
    return JSON.parse(exportOf(this.#prepared.native, 'dag', marks));
  }

  // The native execution, or null once this execution or its machine is disposed.
  get #native() {
    return this.#handle.native;
  }

  dispose() {
    if (this.#native === null) return;
    this.#prepared.executions.delete(this.#handle);
    release(this, this.#native);
    this.#handle.native = null;
  }

  /** What console.log and util.inspect show: the machine, where the run is, or that it is disposed. */
  [inspectSymbol](_depth, options, inspect) {
    const machine = `'${this.#prepared.name}'`;
    if (this.#native === null) return `Execution of ${machine} <disposed>`;
    const last = this.#steps.at(-1);
    const summary = { stepsRun: this.#steps.length, lastState: last?.state ?? null, next: last?.next ?? null, reason: this.reason, failed: this.#failed !== null };
    return inspection(`Execution of ${machine}`, summary, options, inspect);
  }
}
disposable(Execution);
