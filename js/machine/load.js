// @ts-check
// Loading a machine from a definition document (StateMachine.fromJSON, docs/format.md): the core
// reads the document (DefinitionError listing its problems); JavaScript binds what the document
// names but cannot hold: handlers by state name ('research/web': state 'web' of subgraph
// 'research'), the subgraphs' machines (loaded the same way), and the 'custom' reducers.
import { DefinitionError } from '../errors.js';
import { definitionText } from '../definition-json.js';
import { checkOptions, notInDefinition } from '../options.js';
import { REDUCERS } from '../reducers.js';
import { adoptNative } from './definition.js';

/**
 * @import { DefinitionProblem, MachineDefinition } from '../index.js'
 * @import { StateMachine } from '../machine.js'
 * @import { AnyHandler, NativeMachine, RecordOf, ReducerFunction } from './definition.js'
 */

/** @typedef {(previous: unknown, update: unknown, key: string) => unknown} UserReducer A 'custom' reducer (StateMachine.fromJSON's options). */

/**
 * Builds a machine from a definition. `handlers` maps state names to handler functions (a state
 * without one passes the state on unchanged); `reducers` supplies the 'custom' ones.
 * (`StateMachine` and `recordOf`, a machine's record, come from machine.js.)
 * @template {StateMachine<any>} M
 * @param {{ new(): M, fromJSON(definition: MachineDefinition, options: { handlers: Record<string, AnyHandler>, reducers: Record<string, UserReducer> }): StateMachine<any> }} StateMachine
 * @param {RecordOf} recordOf
 * @param {MachineDefinition | string} definition
 * @param {{ handlers?: Record<string, AnyHandler>, reducers?: Record<string, UserReducer> } | undefined} options
 * @returns {M}
 */
export function loadMachine(StateMachine, recordOf, definition, options) {
  const { handlers = {}, reducers = {} } = checkOptions(options, ['handlers', 'reducers'], 'StateMachine.fromJSON options');
  const text = definitionText(definition);
  const machine = new StateMachine();
  const m = recordOf(machine);
  const problems = /** @type {NativeMachine} a new machine's */ (m.native).loadJSON(text);
  if (problems !== null) {
    machine.dispose();
    throw new DefinitionError(problems);
  }
  const native = /** @type {NativeMachine} */ (m.native);
  const names = native.stateNames();
  /** @type {(name: string) => boolean} */
  const isSubgraph = (name) => names.includes(name) && native.subgraph(names.indexOf(name)) !== null;
  /** @type {Map<string, AnyHandler>} */
  const bound = new Map();
  /** @type {Map<string, Record<string, AnyHandler>>} */
  const nested = new Map();  // subgraph state → its machine's handlers ('research/web' is 'web' of 'research')
  /** @type {DefinitionProblem[]} */
  const errors = [];
  for (const [name, handler] of Object.entries(handlers)) {
    const index = names.indexOf(name);
    const slash = name.indexOf('/');
    if (index < 0 && slash > 0 && isSubgraph(name.slice(0, slash))) {
      const owner = name.slice(0, slash);
      let inner = nested.get(owner);
      if (inner === undefined) {
        inner = {};
        nested.set(owner, inner);
      }
      inner[name.slice(slash + 1)] = handler;
    } else if (index < 0) errors.push(notInDefinition(`handlers.${name}`, 'state', name));
    else if (typeof handler !== 'function') errors.push({ pointer: `/states/${index}`, message: `the handler of '${name}' is not a function` });
    else bound.set(name, handler);
  }
  /** @type {MachineDefinition} the core loaded it */
  const document = JSON.parse(text);
  for (const [index, name] of names.entries()) {
    if (!isSubgraph(name)) continue;
    try {
      const child = StateMachine.fromJSON(/** @type {MachineDefinition} a subgraph state's */ (document.states[index].subgraph), { handlers: nested.get(name) ?? {}, reducers });
      recordOf(child).sealedBy = native.options().name;
      m.subgraphs.set(name, child);
      m.owned.push(child);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      errors.push(...error.problems.map((p) => ({ pointer: `/states/${index}/subgraph${p.pointer}`, message: `in subgraph '${name}': ${p.message}` })));
    }
  }
  /** @type {Map<string, ReducerFunction>} */
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
  adoptNative(machine, m, native, functions);
  for (const name of names) m.handlers.set(name, bound.get(name) ?? null);
  return machine;
}
