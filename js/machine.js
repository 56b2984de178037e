// @ts-check
// StateMachine: a bounded state machine whose handlers are JavaScript functions (api.md
// "StateMachine"). The C++ executor (src/machine/) owns the bookkeeping (steps, visits, routing,
// termination, history, task templates, feedback texts); the package's JavaScript runs handlers,
// merges their updates into the state with the per-key reducers (the state is the host's
// JavaScript object, so merging happens here), keeps each visit's update (run.outputs), answers
// the core when its routing reaches an edge decided by a JavaScript function, and adapts the
// result to JavaScript idioms: promises, AbortSignal, events, errors, disposal.
//
// This file is the entry: the public classes and names. The work is in js/machine/, one job per
// file (docs/architecture.md "A machine run, file by file"): definition.js (states, edges,
// reducers), load.js (fromJSON), prepare.js (what the first run fixes; start), execution.js (the
// Execution class), run-loop.js (run to the end), events.js (stream), step.js (one step: the
// handler called), fan-out.js (fan-out and map steps), subgraph.js (subgraph steps),
// handler-context.js (ctx, transfers), updates.js (reducers, outputs), routing.js (edges, edge
// functions, step records), snapshot.js (snapshot and resume), run-state.js (an execution's record).
import { checkReport } from './check-symbol.js';
import { exportOf } from './export.js';
import { disposable, inspection, inspectSymbol, release } from './lifetime.js';
import { markStateMachine } from './machine-brand.js';
import { checkOptions } from './options.js';
import { TWIN } from './recording.js';
import { replayMachine } from './replay.js';
import { requireRuntime } from './runtime.js';
import { describe } from './text.js';
import { isRecord } from './values.js';
import { checkDurable, RunCheckpoints } from './durable.js';
import {
  addEdge, addFanOut, addMap, addState, addSubgraph, adoptNative, live, machineRecord, nativeMachine, validate,
} from './machine/definition.js';
import { driveExecution, Execution, newExecution } from './machine/execution.js';
import { loadMachine } from './machine/load.js';
import { prepare, startNative } from './machine/prepare.js';
import { RUN_OPTIONS, TRACE_OPTIONS } from './machine/run-loop.js';
import { restoreExecution } from './machine/snapshot.js';

export { END } from './machine/routing.js';
export { Execution };

/**
 * @import {
 *   AgentEnsembleDagModel, CheckReport, DagModel, DagOptions, EdgePredicate, ExecutionSnapshot, ExportOptions, FanOutOptions, Handler,
 *   MachineDefinition, MachineEvent, MachineReplayReport, MachineRunOptions, MapOptions, MermaidOptions, RecordingLine,
 *   ResumeRunOptions, Run, StateMachineOptions, StreamOptions, SubgraphOptions,
 * } from './index.js'
 * @import { RecordOf } from './machine/definition.js'
 * @import { NativeExecution } from './machine/run-state.js'
 */

// A machine's record (for addSubgraph and fromJSON, which read other machines').
/** @type {RecordOf} */
let recordOf;

/**
 * A bounded state machine whose handlers are JavaScript functions; `S` is the type of its state.
 * @template {Record<string, unknown>} [S=Record<string, unknown>]
 */
export class StateMachine {
  // The machine's record (js/machine/definition.js): its native machine, name, handlers,
  // subgraphs, edge functions, reducers, the state table of its runs, its executions alive.
  #m = machineRecord();

  /**
   * @param {StateMachineOptions} [options]
   */
  constructor(options) {
    const { native, reducers } = nativeMachine(options);
    markStateMachine(this);
    adoptNative(this, this.#m, native, reducers);
  }

  static {
    recordOf = (machine) => machine.#m;
  }

  /** @returns {string} */
  get name() {
    return this.#m.name;
  }

  /**
   * Declares a state. `handler(ctx)` returns a partial state update (or nothing, or a promise of
   * either). Throws GraphValidationError at once for a blank, duplicate or END name, or a `task`
   * template that does not parse. `task` is the state's task text; its `{name}` placeholders are
   * filled from the run's input variables and handed to the handler as `ctx.task`.
   * `handoffs`: the state is handoff-enabled (MAG's handoffs in a workflow) with this many choices per run.
   * @overload
   * @param {string} name
   * @param {Handler<S> | null} [handler]
   * @param {{ feedbackOnRevisit?: boolean, task?: string, handoffs?: number }} [options]
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, to tell an argument left out from one passed as
   * undefined, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} name
   * @param {Handler<S> | null} [handler]
   * @param {{ feedbackOnRevisit?: boolean, task?: string, handoffs?: number }} [options]
   * @returns {this}
   */
  addState(name, handler, options) {
    addState(this.#m, arguments.length, name, handler, options);
    return this;
  }

  /**
   * Declares a fan-out state: on each visit it runs every state of `branches` at once (each a
   * visit of that state, with its own handler), waits for all of them, merges their updates in
   * the order of `branches`, then routes by its own edges. `concurrency` caps how many run at once.
   * @overload
   * @param {string} name
   * @param {string[]} branches
   * @param {FanOutOptions} [options]
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, to tell an argument left out from one passed as
   * undefined, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} name
   * @param {string[]} branches
   * @param {FanOutOptions} [options]
   * @returns {this}
   */
  addFanOut(name, branches, options) {
    addFanOut(this.#m, arguments.length, name, branches, options);
    return this;
  }

  /**
   * Declares a map state (LangGraph's Send): on each visit it runs `state` once per item of the
   * list at `over` (a path such as 'docs' or 'plan.tasks'), each with `ctx.item` and `ctx.index`,
   * at most `concurrency` at once; the updates merge in list order, then it routes by its edges.
   * @overload
   * @param {string} name
   * @param {string} state
   * @param {MapOptions} options
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, to tell an argument left out from one passed as
   * undefined, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} name
   * @param {string} state
   * @param {MapOptions} options
   * @returns {this}
   */
  addMap(name, state, options) {
    addMap(this.#m, arguments.length, name, state, options);
    return this;
  }

  /**
   * Declares a subgraph state: each visit runs `machine` (another StateMachine, with its own
   * maxSteps) to its end, from `input` ({ childKey: 'parent.path' }; default: a copy of the whole
   * state), and merges `output` ({ parentKey: 'child.path' }; default: the child's whole final
   * state) as the step's update. The child's definition is copied now, and fixed from now on.
   * @overload
   * @param {string} name
   * @param {StateMachine<any>} machine
   * @param {SubgraphOptions} [options]
   * @returns {this}
   */
  /**
   * (One signature: it reads `arguments.length`, to tell an argument left out from one passed as
   * undefined, which tsc would otherwise declare as `...args: any[]`.)
   * @param {string} name
   * @param {StateMachine<any>} machine
   * @param {SubgraphOptions} [options]
   * @returns {this}
   */
  addSubgraph(name, machine, options) {
    addSubgraph(this, this.#m, arguments.length, name, machine, options, recordOf);
    return this;
  }

  /**
   * Adds an edge; `when` is a condition, null/undefined (always), `{ when, description }`, or a
   * function `(ctx) => boolean` (then `options` may give its `{ description }`). A function is
   * called when routing reaches its edge, in declaration order with the conditions: never after
   * the edge that won.
   * @overload
   * @param {string} from
   * @param {string} to
   * @param {string | null | { when?: string | null, description?: string }} [when]
   * @returns {this}
   */
  /**
   * A transfer edge of a handoff-enabled state: offered as ctx.transfers, taken when the handler calls ctx.transfer.
   * @overload
   * @param {string} from
   * @param {string} to
   * @param {{ transfer: true, description?: string }} transfer
   * @returns {this}
   */
  /**
   * An edge decided by a function, called in declaration order with the conditions (never after
   * the edge that won). Such a machine has no definition: toJSON() throws.
   * @overload
   * @param {string} from
   * @param {string} to
   * @param {EdgePredicate<S>} predicate
   * @param {{ description?: string }} [options]
   * @returns {this}
   */
  /**
   * @param {string} from
   * @param {string} to
   * @param {string | null | { when?: string | null, description?: string } | { transfer: true, description?: string } | EdgePredicate<S>} [when]
   * @param {{ description?: string }} [options]
   * @returns {this}
   */
  addEdge(from, to, when, options) {
    addEdge(this.#m, arguments.length, from, to, when, options);
    return this;
  }

  /**
   * Throws GraphValidationError listing every problem; returns this when there is none.
   * @returns {this}
   */
  validate() {
    validate(this.#m);
    return this;
  }

  /**
   * A step-wise execution from `state`, for hosts that drive and persist runs themselves. The
   * task templates are filled from `state`'s top-level keys now: a missing one throws
   * MissingVariablesError before any step.
   * @param {S} [state]
   * @returns {Execution<S>}
   */
  start(state = /** @type {S} */ ({})) {
    const prepared = prepare(this.#m);
    return newExecution(prepared, startNative(prepared, state), state, null);
  }

  /**
   * Continues an execution from `exec.snapshot()` (after JSON.stringify/parse, or from storage).
   * With options, `resume(runId, { store })` continues the durable run `runId` from its last
   * checkpoint in `store` (on any process) to its end: a promise of the run's result.
   * @overload
   * @param {ExecutionSnapshot | string} snapshot
   * @returns {Execution<S>}
   */
  /**
   * Continues the durable run `runId` from its last checkpoint in `store` to its end, on any
   * process. Rejects with code ERR_RUN_NOT_FOUND for an id the store does not have.
   * @overload
   * @param {string} runId
   * @param {ResumeRunOptions} options
   * @returns {Promise<Run<S>>}
   */
  /**
   * @param {ExecutionSnapshot | string} snapshot
   * @param {ResumeRunOptions} [options]
   * @returns {Execution<S> | Promise<Run<S>>}
   */
  resume(snapshot, options) {
    if (options !== undefined) return this.#resumeRun(/** @type {string} a run id */ (snapshot), options);
    const prepared = prepare(this.#m);
    const { native, snapshot: saved } = restoreExecution(prepared, snapshot);
    // (A snapshot's state is the run's: taken as it holds it.)
    return newExecution(prepared, native, /** @type {S} */ (saved.state ?? {}), saved);
  }

  /**
   * Runs to the end: resolves { reason, stepsRun, state, steps }; every failure is a rejection.
   * With `{ store, runId }` the run is durable: checkpointed into the store after every step, and
   * resumable with resume(runId, { store }) (js/durable.js). `tracing`, `traceLogPath`: js/tracing.js.
   * @param {S} [state]
   * @param {MachineRunOptions} [options]
   * @returns {Promise<Run<S>>}
   */
  async run(state = /** @type {S} */ ({}), options) {
    const { store, runId, ...rest } = checkOptions(options, [...RUN_OPTIONS, 'store', 'runId'], 'run options');
    const durable = checkDurable(store, runId, 'run options');
    const execution = this.start(state);
    try {
      if (durable === null) return await execution.run(rest);
      const checkpoints = await RunCheckpoints.begin(durable, this.#m.name, execution);
      return /** @type {Run<S>} */ (await driveExecution(execution, rest, 'run options', checkpoints));
    } finally {
      execution.dispose();
    }
  }

  /**
   * @param {string} runId
   * @param {ResumeRunOptions} options
   * @returns {Promise<Run<S>>}
   */
  async #resumeRun(runId, options) {
    const { store, ...rest } = checkOptions(options, [...RUN_OPTIONS, 'store'], 'resume options');
    const durable = checkDurable(store, runId, 'resume options', 'resume(runId, { store })');
    // (Never null: a runId is given.)
    const checkpoints = await RunCheckpoints.load(/** @type {NonNullable<typeof durable>} */ (durable), this.#m.name);
    const execution = this.resume(checkpoints.snapshot);
    try {
      return /** @type {Run<S>} */ (await driveExecution(execution, rest, 'resume options', checkpoints));
    } finally {
      execution.dispose();
    }
  }

  /**
   * Runs, yielding typed events: step:start, step:end (with the fired edge), end.
   * @param {S} [state]
   * @param {StreamOptions} [options]
   * @returns {AsyncGenerator<MachineEvent<S>, void, undefined>}
   */
  async *stream(state = /** @type {S} */ ({}), options) {
    checkOptions(options, ['signal', ...TRACE_OPTIONS], 'stream options');
    const execution = this.start(state);
    try {
      yield* execution.stream(options);
    } finally {
      execution.dispose();
    }
  }

  /**
   * check()'s report (js/check.js).
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @returns {CheckReport}
   */
  [checkReport]() {
    return requireRuntime().module.checkMachine(live(this.#m));
  }

  /**
   * The definition (docs/format.md): structure only; handlers are bound by name in fromJSON.
   * A machine with an edge decided by a function has none: that throws a TypeError.
   * @returns {MachineDefinition}
   */
  toJSON() {
    const out = live(this.#m).toJSON();
    if (out.error !== undefined) throw new TypeError(`toJSON(): ${out.error}`);
    return JSON.parse(/** @type {string} */ (out.text));
  }

  /**
   * Builds a machine from a definition. `handlers` maps state names to handler functions (a state
   * without one passes the state on unchanged); `reducers` supplies the 'custom' ones.
   * @template {Record<string, unknown>} [T=Record<string, unknown>]
   * @param {MachineDefinition | string} definition
   * @param {{ handlers?: Record<string, Handler<T>>, reducers?: Record<string, (previous: unknown, update: unknown, key: string) => unknown> }} [options]
   * @returns {StateMachine<T>}
   */
  static fromJSON(definition, options) {
    return /** @type {StateMachine<T>} */ (loadMachine(StateMachine, recordOf, definition, options));
  }

  /**
   * Replays a recorded run (docs/replay.md): its trace log lines (or their JSONL text), its result
   * or its durable record, on this machine's definition with handlers that return the recorded
   * updates; compares each step's route. `options.state`: the initial state, when the recording
   * does not hold it. Resolves swarm.replay's report, the run counting as one turn:
   * { same, turns: 1, decisions, divergence: null | { turn: 1, index, kind, recorded, replayed } }.
   * @param {RecordingLine[] | string | { steps: readonly unknown[], outputs: Record<string, unknown[]> } | { format: 'handoff-graph/run', snapshot: unknown }} recording
   * @param {{ state?: Record<string, unknown> }} [options]
   * @returns {Promise<MachineReplayReport>}
   */
  async replay(recording, options) {
    const { state } = checkOptions(options, ['state'], 'replay options');
    if (state !== undefined && !isRecord(state)) throw new TypeError(`replay options.state must be the run's initial state (an object), got ${describe(state)}`);
    return replayMachine(this, recording, state);
  }

  /**
   * For a replay (js/replay.js): a machine of this one's definition and reducers, with `handlers`.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {Record<string, Handler<S>>} handlers
   * @returns {StateMachine<S>}
   */
  [TWIN](handlers) {
    // (The record's reducers are called with the key as a third argument, as every reducer is.)
    const reducers = /** @type {Record<string, (previous: unknown, update: unknown, key: string) => unknown>} */ (Object.fromEntries(this.#m.reducers));
    return StateMachine.fromJSON(this.toJSON(), { handlers, reducers });
  }

  /**
   * The DAG model; `run` (a result or an execution's steps) marks fired edges and visits.
   * `format: 'agentensemble'` gives AgentEnsemble's DagModel 1.3 (graph mode) instead.
   * @overload
   * @param {DagOptions & { format?: 'handoff-graph' }} [options]
   * @returns {DagModel}
   */
  /**
   * @overload
   * @param {DagOptions & { format: 'agentensemble' }} options
   * @returns {AgentEnsembleDagModel}
   */
  /**
   * @param {DagOptions & { format?: 'handoff-graph' | 'agentensemble' }} [options]
   * @returns {DagModel | AgentEnsembleDagModel}
   */
  toDag(options = {}) {
    return JSON.parse(exportOf(live(this.#m), 'dag', options));
  }

  /**
   * Mermaid text: `kind` 'flowchart' (default) or 'state', `direction`, `highlight` (a run).
   * @param {MermaidOptions} [options]
   * @returns {string}
   */
  toMermaid(options = {}) {
    return exportOf(live(this.#m), 'mermaid', options);
  }

  /**
   * Graphviz DOT text; `highlight` (a run) marks fired edges.
   * @param {ExportOptions} [options]
   * @returns {string}
   */
  toDot(options = {}) {
    return exportOf(live(this.#m), 'dot', options);
  }

  /**
   * Frees the WebAssembly side, and every execution of this machine still alive.
   * @returns {void}
   */
  dispose() {
    const m = this.#m;
    if (m.native === null) return;
    for (const handle of m.executions) {
      /** @type {NativeExecution} in the list while alive */ (handle.native).delete();
      handle.native = null;  // its execution now reads as disposed
    }
    m.executions.clear();
    for (const child of m.owned) child.dispose();
    release(this, m.native);
    m.native = null;
  }

  /**
   * What console.log and util.inspect show: name, states, edge count, start, or that it is disposed.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {number} _depth
   * @param {object} options
   * @param {(value: unknown, options: object) => string} inspect
   * @returns {string}
   */
  [inspectSymbol](_depth, options, inspect) {
    const m = this.#m;
    if (m.native === null) return `StateMachine '${m.name}' <disposed>`;
    const native = m.native;
    const { start, maxSteps } = native.options();
    const summary = { states: native.stateNames(), edges: native.edgeCount(), start, maxSteps };
    return inspection(`StateMachine '${m.name}'`, summary, options, inspect);
  }
}
disposable(StateMachine);
