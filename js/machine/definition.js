// @ts-check
// Building a StateMachine's definition: its options, its states (plain, fan-out, map, subgraph),
// its edges (conditions, functions, transfers) and its reducers. Each addition goes to the core,
// which checks it (GraphValidationError, ConditionSyntaxError); what JavaScript keeps is what the
// core cannot hold: the handlers, the edge functions, the subgraphs' machines, the reducer
// functions. All of it lives in the machine's record (its one private field), built here.
import { ConditionSyntaxError, GraphValidationError } from '../errors.js';
import { isStateMachine } from '../machine-brand.js';
import { adopt, disposedError } from '../lifetime.js';
import { checkOptions, edgeArguments, requireArguments } from '../options.js';
import { REDUCER_CHOICES, REDUCERS } from '../reducers.js';
import { requireRuntime } from '../runtime.js';
import { describe, wellFormed } from '../text.js';
import { isRecord, messageOf } from '../values.js';

/**
 * @import { NativeExecution } from './run-state.js'
 * @import { StateMachine } from '../machine.js'
 * @import { EdgePredicate, FanOutOptions, Handler, MapOptions, StateMachineOptions, SubgraphOptions, ValidationProblem } from '../index.js'
 */

/**
 * What the core says of an addition it refuses, and of each problem validate() finds.
 * @typedef {ValidationProblem} NativeProblem
 */

/**
 * An edge the core refused: a problem with the machine, or a condition that does not parse.
 * @typedef {{ problem: NativeProblem, syntax?: undefined } | { problem?: undefined, syntax: { index: number, message: string } }} EdgeRejection
 */

/**
 * A path read by routing or mapping, as the core describes it: its steps, each
 * [isIndex, key, index] (wasm/js_values.cpp paths_json).
 * @typedef {Array<[isIndex: boolean, key: string, index: number]>} PathSteps
 */

/**
 * A state's outgoing edge as the core lists it (in declaration order).
 * @typedef {{ to: string, when: string | null, description: string, predicate: boolean, transfer: boolean }} NativeEdge
 */

/**
 * A fan-out state as the core describes it: its branch states, or (a map) its state and the list's path.
 * @typedef {{ branches: string[], map?: undefined, overPath?: undefined, concurrency?: number }
 *   | { branches?: undefined, map: { state: string, over: string }, overPath: PathSteps[], concurrency?: number }} NativeFanOut
 */

/**
 * A subgraph state's mappings as the core describes them: [key, path steps] each; null, the whole state.
 * @typedef {Array<[key: string, steps: PathSteps]> | null} NativeMapping
 */

/**
 * The core's Machine (wasm/machine_bindings.cpp): the definition, checked as it grows. Each
 * addition answers null or the problem that refuses it.
 * @typedef {object} NativeMachine
 * @property {() => number} address
 * @property {(name: string, feedbackOnRevisit: boolean, task: string | undefined) => NativeProblem | null} addState
 * @property {(from: string, to: string, when: string | undefined, description: string) => EdgeRejection | null} addEdge
 * @property {(from: string, to: string, description: string) => { problem: NativeProblem } | null} addPredicateEdge
 * @property {(from: string, to: string, description: string) => { problem: NativeProblem } | null} addTransferEdge
 * @property {(name: string, branches: string[], concurrency: number | undefined) => NativeProblem | null} addFanOut
 * @property {(name: string, state: string, over: string, concurrency: number | undefined) => NativeProblem | null} addMap
 * @property {(name: string, definition: string, input: Array<[string, string]> | undefined, output: Array<[string, string]> | undefined) => NativeProblem | null} addSubgraph
 * @property {(state: string, count: number) => NativeProblem | null} setHandoffs
 * @property {(state: number) => { input: NativeMapping, output: NativeMapping } | null} subgraph
 * @property {(state: number) => NativeFanOut | null} fanOut
 * @property {() => number} edgeCount
 * @property {() => string[]} templateVariables
 * @property {() => NativeProblem[]} validate
 * @property {() => string[]} stateNames
 * @property {(state: number) => PathSteps[]} routePaths
 * @property {(state: number) => string[]} routePathTexts
 * @property {(state: number) => NativeEdge[]} outEdges
 * @property {(from: number) => string[]} stringsSince
 * @property {() => { text: string, error?: undefined } | { text?: undefined, error: string }} toJSON
 * @property {(definition: string) => Array<{ pointer: string, message: string }> | null} loadJSON
 * @property {() => Array<[key: string, reducer: 'replace' | 'append' | 'merge' | 'sum' | 'custom']>} reducers
 * @property {() => { name: string, start?: string, maxSteps: number, onMaxSteps: 'return' | 'throw' | 'return-with-flag', feedbackOnRevisit: boolean, noFeedbackStates: string[] }} options
 * @property {() => void} delete
 */

/**
 * A reducer as the record keeps it: a built-in's function or the user's.
 * @typedef {(previous: unknown, update: unknown, key: string) => unknown} ReducerFunction
 */

/**
 * A handler as the record keeps it: the machine's state type `S` is the user's, not the record's.
 * @typedef {Handler<any>} AnyHandler
 */

/**
 * An edge function as the record keeps it (the state type erased, as for handlers).
 * @typedef {EdgePredicate<any>} AnyPredicate
 */

/**
 * What every step reads of a state, fixed by the first run (prepare.js).
 * @typedef {object} PreparedState
 * @property {string} name
 * @property {AnyHandler | null} handler
 * @property {NativeFanOut | null} fanOut
 * @property {SubgraphState | null} subgraph
 * @property {PathSteps[]} paths What routing reads of the state.
 * @property {string[]} pathTexts
 * @property {Array<{ to: string, when: string | null, description: string, predicate: AnyPredicate | null, transfer: boolean }>} edges
 * @property {boolean} [transfers] Whether the state offers transfers (it has a transfer edge).
 */

/**
 * What a run needs of a subgraph state (subgraph.js): the machine it runs and its mappings.
 * @typedef {{ machine: StateMachine<any>, input: NativeMapping, output: NativeMapping }} SubgraphState
 */

/**
 * A machine's record: what its definition holds on the JavaScript side, and what its runs share.
 * @typedef {object} MachineRecord
 * @property {NativeMachine | null} native null once disposed.
 * @property {string} name
 * @property {'return' | 'throw' | 'return-with-flag'} onMaxSteps
 * @property {Map<string, ReducerFunction>} reducers Key → reducer function.
 * @property {Map<string, AnyHandler | null>} handlers State name → handler.
 * @property {Map<string, StateMachine<any>>} subgraphs Subgraph state name → the StateMachine it runs.
 * @property {StateMachine<any>[]} owned Subgraph machines fromJSON built (this machine disposes them).
 * @property {string | null} sealedBy The machine this one is a subgraph of: its definition is fixed.
 * @property {Map<string, Map<number, AnyPredicate>>} predicates State name → (position among its outgoing edges → function).
 * @property {Map<string, number>} edgeCounts State name → outgoing edges so far.
 * @property {PreparedState[] | null} states State index → what steps read of it: built on first run (prepare.js).
 * @property {string[] | null} variables The input variables the task templates name.
 * @property {Map<string, number>} ids The core's string ids (state-writer.js).
 * @property {Set<{ native: NativeExecution | null }>} executions One { native } per execution alive (see machineRecord).
 */

/**
 * A machine's record (for addSubgraph and fromJSON, which read other machines'): machine.js alone reads the private field.
 * @typedef {(machine: StateMachine<any>) => MachineRecord} RecordOf
 */

const MACHINE_OPTIONS = ['name', 'start', 'maxSteps', 'onMaxSteps', 'feedbackOnRevisit', 'noFeedbackStates', 'reducers'];
const ON_MAX_STEPS = ['return', 'throw', 'return-with-flag'];

/**
 * A machine's record: what its definition holds on the JavaScript side, and what its runs share.
 * `name`, `onMaxSteps` and `reducers` are set by adoptNative, which the constructor calls at once.
 * @returns {MachineRecord}
 */
export function machineRecord() {
  return {
    native: null,
    name: '',
    onMaxSteps: 'return',
    reducers: new Map(),
    handlers: new Map(),    // state name → handler
    subgraphs: new Map(),   // subgraph state name → the StateMachine it runs
    owned: [],              // subgraph machines fromJSON built (this machine disposes them)
    sealedBy: null,         // the machine this one is a subgraph of: its definition is fixed
    predicates: new Map(),  // state name → (position among its outgoing edges → function)
    edgeCounts: new Map(),  // state name → outgoing edges so far
    states: null,           // state index → { name, handler, paths, pathTexts, edges }: built on first run (prepare.js)
    variables: null,        // the input variables the task templates name
    ids: new Map(),
    // One { native } per execution alive, so that dispose() frees them too: not the executions
    // themselves (nor WeakRefs to them, which keep each one alive until the job that made it ends:
    // a loop of awaited runs never ends its job), so that one nobody holds is still collected.
    executions: new Set(),
  };
}

/**
 * The StateMachine constructor's options, checked, as the core's Machine: the native machine and
 * the reducer functions by key.
 * @param {StateMachineOptions | undefined} options
 * @returns {{ native: NativeMachine, reducers: Map<string, ReducerFunction> }}
 */
export function nativeMachine(options) {
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
  /** @type {NativeMachine} */
  const native = new Machine(wellFormed(name), start === undefined ? undefined : wellFormed(start), maxSteps, onMaxSteps, feedbackOnRevisit,
    noFeedbackStates.map(wellFormed), names.map(([key, reducer]) => [wellFormed(key), reducer]));
  return { native, reducers: functions };
}

/**
 * `owner` (the StateMachine) takes `native` and the reducer functions into its record `m`.
 * @param {StateMachine<any>} owner
 * @param {MachineRecord} m
 * @param {NativeMachine} native
 * @param {Map<string, ReducerFunction>} reducers
 * @returns {void}
 */
export function adoptNative(owner, m, native, reducers) {
  m.native = native;
  const options = native.options();
  m.name = options.name;
  m.onMaxSteps = options.onMaxSteps;
  m.reducers = reducers;
  adopt(owner, native);
}

/**
 * The native machine; throws once the machine is disposed.
 * @param {MachineRecord} m
 * @returns {NativeMachine}
 */
export function live(m) {
  if (m.native === null) throw disposedError('StateMachine');
  return m.native;
}

// What adds states and edges: refused once this machine is another's subgraph, whose
// definition holds a copy of this one's.
/**
 * @param {MachineRecord} m
 * @returns {NativeMachine}
 */
export function mutable(m) {
  const native = live(m);
  if (m.sealedBy !== null) {
    throw new Error(`machine '${m.name}' is a subgraph of machine '${m.sealedBy}', so its states and edges are fixed; build a new machine`);
  }
  return native;
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
export function requireName(value, what) {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${describe(value)}`);
  return wellFormed(value);
}

// A concurrency option: absent, or a number, passed on as it is. Which numbers are concurrencies
// (integers from 1 to 1,000,000) is the core's decision, `bad-concurrency` as for a definition's.
/**
 * @param {unknown} concurrency
 * @param {string} what
 * @returns {number | undefined}
 */
function concurrencyArgument(concurrency, what) {
  if (concurrency !== undefined && typeof concurrency !== 'number') {
    throw new TypeError(`the concurrency of ${what} must be a number, got ${describe(concurrency)}`);
  }
  return /** @type {number | undefined} */ (concurrency);
}

// Map key → reducer function, and the names the definition format records ('custom' for functions).
/**
 * @param {unknown} reducers
 * @returns {{ functions: Map<string, ReducerFunction>, names: Array<[string, string]> }}
 */
function toReducers(reducers) {
  if (typeof reducers !== 'object' || reducers === null) throw new TypeError(`reducers must be an object, got ${describe(reducers)}`);
  /** @type {Map<string, ReducerFunction>} */
  const functions = new Map();
  /** @type {Array<[string, string]>} */
  const names = [];
  for (const [key, reducer] of Object.entries(reducers)) {
    if (typeof reducer === 'function') {
      functions.set(key, reducer);
      names.push([key, 'custom']);
    } else if (typeof reducer === 'string' && Object.hasOwn(REDUCERS, reducer)) {
      functions.set(key, REDUCERS[/** @type {keyof typeof REDUCERS} */ (reducer)]);
      names.push([key, reducer]);
    } else {
      throw new TypeError(`the reducer of '${key}' must be ${REDUCER_CHOICES}, got ${describe(reducer)}`);
    }
  }
  return { functions, names };
}

/**
 * @param {NativeProblem} problem
 * @returns {Error}
 */
function rejectAddition(problem) {
  // A definition that cannot change any more is a usage error, not an invalid machine.
  if (problem.code === 'frozen') return new Error(problem.message);
  return new GraphValidationError([problem]);
}

/**
 * Throws GraphValidationError listing every problem of the definition.
 * @param {MachineRecord} m
 * @returns {void}
 */
export function validate(m) {
  const problems = live(m).validate();
  if (problems.length > 0) throw new GraphValidationError(problems);
}

// addState (machine.js): a state, its handler, its task template, its handoffs.
/**
 * @param {MachineRecord} m
 * @param {number} count the arguments given
 * @param {string} name
 * @param {AnyHandler | null | undefined} handler
 * @param {{ feedbackOnRevisit?: boolean, task?: string, handoffs?: number } | undefined} options
 * @returns {void}
 */
export function addState(m, count, name, handler, options) {
  const native = mutable(m);
  requireArguments(count, ['name'], 'addState(name, handler?, options?)');
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
  m.handlers.set(name, handler ?? null);
}

// addFanOut (machine.js): a state whose visit runs its branch states at once (fan-out.js).
/**
 * @param {MachineRecord} m
 * @param {number} count the arguments given
 * @param {string} name
 * @param {string[]} branches
 * @param {FanOutOptions | undefined} options
 * @returns {void}
 */
export function addFanOut(m, count, name, branches, options) {
  const native = mutable(m);
  requireArguments(count, ['name', 'branches'], 'addFanOut(name, branches, options?)');
  name = requireName(name, 'addFanOut(name)');
  if (!Array.isArray(branches)) throw new TypeError(`the branches of fan-out state '${name}' must be an array of state names, got ${describe(branches)}`);
  const names = branches.map((b, i) => requireName(b, `addFanOut('${name}', branches[${i}])`));
  const { concurrency } = checkOptions(options, ['concurrency'], 'addFanOut options');
  concurrencyArgument(concurrency, `fan-out state '${name}'`);
  const problem = native.addFanOut(wellFormed(name), names.map(wellFormed), concurrency);
  if (problem !== null) throw rejectAddition(problem);
  m.handlers.set(name, null);
}

// addMap (machine.js): a state whose visit runs one state per item of a list (fan-out.js).
/**
 * @param {MachineRecord} m
 * @param {number} count the arguments given
 * @param {string} name
 * @param {string} state
 * @param {MapOptions} options
 * @returns {void}
 */
export function addMap(m, count, name, state, options) {
  const native = mutable(m);
  requireArguments(count, ['name', 'state', 'options'], 'addMap(name, state, { over, concurrency? })');
  name = requireName(name, 'addMap(name)');
  state = requireName(state, 'addMap(…, state)');
  const { over, concurrency } = checkOptions(options, ['over', 'concurrency'], 'addMap options');
  if (typeof over !== 'string') throw new TypeError(`map state '${name}' needs { over }: the path of a list in the state, got ${describe(over)}`);
  concurrencyArgument(concurrency, `map state '${name}'`);
  const problem = native.addMap(wellFormed(name), wellFormed(state), wellFormed(over), concurrency);
  if (problem !== null) throw rejectAddition(problem);
  m.handlers.set(name, null);
}

// Whether `target` is `machine` or a machine `machine` runs as a subgraph, at any depth
// (`recordOf`: a StateMachine's record, which machine.js alone reads).
/**
 * @param {StateMachine<any>} machine
 * @param {StateMachine<any>} target
 * @param {RecordOf} recordOf
 * @returns {boolean}
 */
function runs(machine, target, recordOf) {
  if (machine === target) return true;
  for (const child of recordOf(machine).subgraphs.values()) if (runs(child, target, recordOf)) return true;
  return false;
}

// addSubgraph (machine.js): a state whose visit runs another StateMachine (subgraph.js). `owner`
// is the StateMachine whose record `m` is; the child's definition is copied now, and sealed.
/**
 * @param {StateMachine<any>} owner
 * @param {MachineRecord} m
 * @param {number} count the arguments given
 * @param {string} name
 * @param {StateMachine<any>} machine
 * @param {SubgraphOptions | undefined} options
 * @param {RecordOf} recordOf
 * @returns {void}
 */
export function addSubgraph(owner, m, count, name, machine, options, recordOf) {
  const native = mutable(m);
  requireArguments(count, ['name', 'machine'], 'addSubgraph(name, machine, { input?, output? })');
  name = requireName(name, 'addSubgraph(name)');
  if (!isStateMachine(machine)) throw new TypeError(`the machine of subgraph state '${name}' must be a StateMachine, got ${describe(machine)}`);
  const child = recordOf(machine);
  if (runs(machine, owner, recordOf)) throw new TypeError(`subgraph state '${name}': machine '${child.name}' is this machine or runs it, so the run would never end`);
  const { input, output } = checkOptions(options, ['input', 'output'], 'addSubgraph options');
  /** @type {(mapping: unknown, what: string) => Array<[string, string]> | undefined} */
  const pairs = (mapping, what) => {
    if (mapping === undefined) return undefined;
    if (!isRecord(mapping)) {
      throw new TypeError(`the ${what} of subgraph state '${name}' must be an object of paths ({ key: 'path' }), got ${describe(mapping)}`);
    }
    return Object.entries(mapping).map(([key, path]) => /** @type {[string, string]} */ {
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
  m.subgraphs.set(name, machine);
  m.handlers.set(name, null);
  child.sealedBy ??= m.name;
}

// addEdge (machine.js): an edge decided by a condition (or always), by a function, or a transfer.
/**
 * @param {MachineRecord} m
 * @param {number} count the arguments given
 * @param {string} from
 * @param {string} to
 * @param {string | null | undefined | { when?: string | null, description?: string } | { transfer: true, description?: string } | AnyPredicate} when
 * @param {{ description?: string } | undefined} options
 * @returns {void}
 */
export function addEdge(m, count, from, to, when, options) {
  const native = mutable(m);
  requireArguments(count, ['from', 'to'], 'addEdge(from, to, when?, options?)');
  from = requireName(from, 'addEdge(from)');
  to = requireName(to, 'addEdge(…, to)');
  if (typeof when === 'function') return addPredicateEdge(m, native, from, to, when, options);
  if (options !== undefined) {
    throw new TypeError('addEdge(from, to, when, options): options ({ description }) go with a function; for a condition pass { when, description } as the third argument');
  }
  // (What plain JavaScript may pass: a function inside the object.)
  if (typeof when === 'object' && when !== null && typeof (/** @type {{ when?: unknown }} */ (when)).when === 'function') {
    throw new TypeError('addEdge: pass a function as the third argument itself: addEdge(from, to, (ctx) => …, { description })');
  }
  if (typeof when === 'object' && when !== null && Object.hasOwn(when, 'transfer')) {
    return addTransferEdge(m, native, from, to, /** @type {{ transfer: true, description?: string }} */ (when));
  }
  const { source, description } = edgeArguments(when);
  const conditional = typeof source === 'string';
  const rejected = native.addEdge(wellFormed(from), wellFormed(to), conditional ? wellFormed(source) : undefined, wellFormed(description));
  if (rejected !== null) {
    if (rejected.syntax) {
      // (A syntax error comes only with a condition.)
      throw new ConditionSyntaxError(rejected.syntax.message, { condition: /** @type {string} */ (source), index: rejected.syntax.index, edge: { from, to } });
    }
    throw rejectAddition(rejected.problem);
  }
  countEdge(m, from);
}

/**
 * @param {MachineRecord} m
 * @param {NativeMachine} native
 * @param {string} from
 * @param {string} to
 * @param {AnyPredicate} predicate
 * @param {{ description?: string } | undefined} options
 * @returns {void}
 */
function addPredicateEdge(m, native, from, to, predicate, options) {
  const { description = '' } = checkOptions(options, ['description'], 'addEdge options');
  if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
  const rejected = native.addPredicateEdge(wellFormed(from), wellFormed(to), wellFormed(description));
  if (rejected !== null) throw rejectAddition(rejected.problem);
  let positions = m.predicates.get(from);
  if (positions === undefined) {
    positions = new Map();
    m.predicates.set(from, positions);
  }
  positions.set(countEdge(m, from), predicate);
}

// A handoff-enabled state's transfer edge: offered to its handler as a transfer tool, taken
// when the handler chooses it (ctx.transfer), never by routing.
/**
 * @param {MachineRecord} m
 * @param {NativeMachine} native
 * @param {string} from
 * @param {string} to
 * @param {{ transfer: true, description?: string }} options
 * @returns {void}
 */
function addTransferEdge(m, native, from, to, options) {
  const { transfer, description = '' } = checkOptions(options, ['transfer', 'description'], 'addEdge options');
  if (transfer !== true) throw new TypeError(`addEdge options.transfer must be true (a transfer edge), got ${describe(transfer)}`);
  if (typeof description !== 'string') throw new TypeError(`description must be a string, got ${describe(description)}`);
  const rejected = native.addTransferEdge(wellFormed(from), wellFormed(to), wellFormed(description));
  if (rejected !== null) throw rejectAddition(rejected.problem);
  countEdge(m, from);
}

// The new edge's position among `from`'s outgoing edges (the core numbers them the same way).
/**
 * @param {MachineRecord} m
 * @param {string} from
 * @returns {number}
 */
function countEdge(m, from) {
  const position = m.edgeCounts.get(from) ?? 0;
  m.edgeCounts.set(from, position + 1);
  return position;
}
