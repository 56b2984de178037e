// @ts-check
// Before a run: the first run validates the machine and fixes, per state, what every step reads
// (its handler, fan-out, subgraph, routing paths and edges with their functions): the definition
// is frozen from then on. start() then makes the core's execution and fills the task templates
// from the initial state (MissingVariablesError before any step).
import { MissingVariablesError } from '../errors.js';
import { requireRuntime } from '../runtime.js';
import { messageOf } from '../values.js';
import { validate } from './definition.js';
import { wellFormedJSON } from './json-text.js';
import { subgraphOf } from './subgraph.js';

/**
 * @import { AnyPredicate, MachineRecord, NativeMachine, PreparedState } from './definition.js'
 * @import { NativeExecution, Prepared } from './run-state.js'
 */

// Validates, then fixes what runs need per state (the definition is frozen by the first run).
/**
 * @param {MachineRecord} m
 * @returns {Prepared}
 */
export function prepare(m) {
  // Once prepared, the machine is frozen (an execution exists), so it stays valid.
  if (m.states === null || m.native === null) validate(m);
  if (m.states === null) {
    const native = /** @type {NativeMachine} validate() checked it */ (m.native);
    /** @type {PreparedState[]} */
    const states = native.stateNames().map((name, index) => ({
      name,
      handler: m.handlers.get(name) ?? null,
      fanOut: native.fanOut(index),
      subgraph: subgraphOf(native.subgraph(index), m.subgraphs.get(name)),
      paths: native.routePaths(index),
      pathTexts: native.routePathTexts(index),
      edges: native.outEdges(index).map(({ to, when, description, predicate, transfer }, position) => ({
        // (The core lists an edge as a function's only where addEdge was given one.)
        to, when, description, predicate: predicate ? /** @type {AnyPredicate} */ (m.predicates.get(name)?.get(position)) : null, transfer,
      })),
    }));
    m.states = states;
    for (const state of m.states) state.transfers = state.edges.some((e) => e.transfer);
    for (const s of native.stringsSince(0)) m.ids.set(s, m.ids.size);
    m.variables = native.templateVariables();
  }
  return {
    name: m.name, native: /** @type {NativeMachine} */ (m.native), states: m.states, ids: m.ids, reducers: m.reducers,
    onMaxSteps: m.onMaxSteps, executions: m.executions, variables: /** @type {string[]} set with states */ (m.variables),
  };
}

/**
 * The core's execution of a `prepared` machine (prepare()) from `state`, its task templates
 * filled from `state`'s top-level keys: a missing one throws MissingVariablesError.
 */
/**
 * @param {Prepared} prepared
 * @param {unknown} state
 * @returns {NativeExecution}
 */
export function startNative(prepared, state) {
  const { Execution: NativeExecutionClass } = requireRuntime().module;
  /** @type {NativeExecution} */
  const native = new NativeExecutionClass(prepared.native);
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
  return native;
}

// The run's input variables the task templates name, as the JSON text of an object: the initial
// state's own enumerable keys (an undefined value counts as missing, as an absent key does).
/**
 * @param {unknown} state
 * @param {string[]} names
 * @returns {string}
 */
function inputVariables(state, names) {
  const members = [];
  /** @type {Record<string, unknown>} */
  const source = typeof state === 'object' && state !== null ? /** @type {Record<string, unknown>} */ (state) : {};
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
