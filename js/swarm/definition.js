// Reading a swarm definition and the Swarm constructor's options: the definition checked as JSON
// data and loaded by the core (the binding's `load`, which answers the definition's problems with
// their pointers), then the host's functions (context policies, handlers, mocks, instructions,
// reducers, guardrails, workflows, agent tools, MCP clients) checked against it. What this makes
// is the Swarm's internals (SwarmInternals below), which the other files of js/swarm/ take as
// their first argument; the public object (js/swarm.js) holds it in a private field.
import { checkAgentTools, checkWorkflows, workflowProblems } from '../agent-workflows.js';
import { plainDefinition } from '../definition-json.js';
import { DefinitionError } from '../errors.js';
import { checkMcpClients, McpTools, mcpProblems } from '../mcp/consume.js';
import { checkOptions, notInDefinition, rootProblem } from '../options.js';
import { REDUCER_CHOICES, REDUCERS } from '../reducers.js';
import { requireRuntime } from '../runtime.js';
import { describe } from '../text.js';
import { checkTracing } from '../tracing.js';
import { clone, isRecord } from '../values.js';
import { coreJSON } from './core.js';
import { CONTEXT_POLICIES } from './routing.js';

// The UTF-16 index of the first lone surrogate in `s`, or -1 (a Unicode-mode pattern reads a
// well-formed pair as one code point, so only a lone surrogate is one of category Cs).
const loneSurrogate = (s) => s.search(/\p{Cs}/u);

// Ids and names cross into the core as UTF-8, where a lone surrogate cannot exist: it would come
// back as U+FFFD, a different id (session.active !== id, two distinct ids "declared twice"). So
// they are refused, with the pointer of each. Free text (descriptions, instructions, conditions)
// is not an id: its lone surrogates are read as U+FFFD, as conditions read them.
function illFormedNames(document) {
  const problems = [];
  const check = (value, pointer, what) => {
    const at = typeof value === 'string' ? loneSurrogate(value) : -1;
    if (at === -1) return;
    const unit = value.charCodeAt(at).toString(16).toUpperCase();
    problems.push({ pointer, message: `a lone surrogate at index ${at} (U+${unit}): the ${what} is not well-formed Unicode, so it cannot be kept exactly` });
  };
  const list = (value) => (Array.isArray(value) ? value : []);
  const object = (value) => typeof value === 'object' && value !== null;
  check(document.name, '/name', 'swarm name');
  check(document.context, '/context', 'context policy name');
  list(document.agents).forEach((agent, i) => {
    if (object(agent)) check(agent.id, `/agents/${i}/id`, 'agent id');
  });
  list(document.edges).forEach((edge, i) => {
    if (!object(edge)) return;
    check(edge.from, `/edges/${i}/from`, 'agent id');
    check(edge.to, `/edges/${i}/to`, 'agent id');
    list(edge.requires).forEach((variable, k) => {
      if (object(variable)) check(variable.name, `/edges/${i}/requires/${k}/name`, 'variable name');
      else check(variable, `/edges/${i}/requires/${k}`, 'variable name');
    });
    check(edge.context, `/edges/${i}/context`, 'context policy name');
  });
  return problems;
}

const SWARM_OPTIONS = ['contexts', 'handlers', 'mocks', 'instructions', 'reducers', 'state', 'extractVariables', 'extractIntents', 'inputGuardrails', 'outputGuardrails', 'tracing', 'traceLogPath', 'workflows', 'agentTools', 'mcp'];
const STATE_HOOKS = ['normalize', 'validate'];

function bindFunctions(kind, given, known) {
  const out = new Map();
  const problems = [];
  for (const [name, fn] of Object.entries(given)) {
    if (!known.has(name)) problems.push(notInDefinition(`options.${kind}.${name}`, kind === 'instructions' ? 'agent' : 'tool', name));
    else out.set(name, fn);
  }
  return { out, problems };
}

// Guardrails by agent id: a function or an array of functions each. Checked for types here; the
// agent ids against the definition once it is loaded. js/swarm/guardrails.js runs them.
function checkGuardrails(kind, given) {
  if (given === undefined) return new Map();
  if (!isRecord(given)) throw new TypeError(`options.${kind} must be an object of guardrails by agent id, got ${describe(given)}`);
  const out = new Map();
  for (const [agent, value] of Object.entries(given)) {
    const list = Array.isArray(value) ? value : [value];
    list.forEach((fn, i) => {
      if (typeof fn !== 'function') throw new TypeError(`options.${kind}.${agent}${Array.isArray(value) ? `[${i}]` : ''} must be a function (text, ctx) => { tripped, reason? }, got ${describe(fn)}`);
    });
    out.set(agent, list.slice());
  }
  return out;
}

// The types of the constructor's options, checked before anything is allocated.
function checkSwarmOptions({ contexts, handlers, mocks, instructions, reducers, state, extractVariables, extractIntents }) {
  for (const [kind, value] of Object.entries({ contexts, handlers, mocks, instructions, reducers })) {
    if (!isRecord(value)) throw new TypeError(`options.${kind} must be an object, got ${describe(value)}`);
  }
  for (const [kind, functions] of Object.entries({ contexts, handlers, instructions })) {
    for (const [name, fn] of Object.entries(functions)) {
      if (typeof fn !== 'function') throw new TypeError(`options.${kind}.${name} must be a function, got ${describe(fn)}`);
    }
  }
  checkOptions(state, STATE_HOOKS, 'Swarm options.state');
  for (const hook of STATE_HOOKS) {
    if (state[hook] !== undefined && typeof state[hook] !== 'function') throw new TypeError(`options.state.${hook} must be a function, got ${describe(state[hook])}`);
  }
  if (extractVariables !== undefined && typeof extractVariables !== 'function') throw new TypeError(`options.extractVariables must be a function, got ${describe(extractVariables)}`);
  if (extractIntents !== undefined && typeof extractIntents !== 'function') throw new TypeError(`options.extractIntents must be a function, got ${describe(extractIntents)}`);
}

/**
 * new Swarm(definition, options)'s work: the options checked, the definition loaded by the core
 * and the host's functions checked against it (a DefinitionError lists every problem). Returns
 * the embind object (`native`, which the Swarm owns: js/lifetime.js) and the Swarm's internals.
 * `live()` gives the embind object while the Swarm is not disposed, and throws after.
 */
export function loadSwarm(definition, options, live) {
  const { contexts = {}, handlers = {}, mocks = {}, instructions = {}, reducers = {}, state = {}, extractVariables, extractIntents, inputGuardrails, outputGuardrails, tracing, traceLogPath, workflows, agentTools, mcp } = checkOptions(options, SWARM_OPTIONS, 'Swarm options');
  checkSwarmOptions({ contexts, handlers, mocks, instructions, reducers, state, extractVariables, extractIntents });
  const tracingSettings = checkTracing(tracing, traceLogPath, 'Swarm options');
  const guardrails = { input: checkGuardrails('inputGuardrails', inputGuardrails), output: checkGuardrails('outputGuardrails', outputGuardrails) };
  const workflowsByAgent = checkWorkflows(workflows);
  const agentsByTool = checkAgentTools(agentTools);
  const mcpClients = checkMcpClients(mcp);
  if (typeof definition === 'string') {
    try {
      definition = JSON.parse(definition);
    } catch (error) {
      throw new DefinitionError([rootProblem(error instanceof RangeError ? 'the definition nests too deeply to read' : 'not valid JSON')]);
    }
  }
  if (typeof definition !== 'object' || definition === null) throw new TypeError(`a swarm definition must be an object, got ${describe(definition)}`);
  // Copied as plain JSON data first: what JSON cannot hold is a DefinitionError at its pointer
  // (definition-json.js), never written as null or left out.
  const document = { format: 'handoff-graph/swarm', version: 1, .../** @type {object} */ (plainDefinition(definition)) };
  const illFormed = illFormedNames(document);
  if (illFormed.length > 0) throw new DefinitionError(illFormed);
  const { Swarm: NativeSwarm } = requireRuntime().module;
  const native = new NativeSwarm();
  let text;
  try {
    text = coreJSON(document);
  } catch (error) {
    native.delete();
    throw error;
  }
  const loadProblems = native.load(text);
  if (loadProblems !== null) {
    native.delete();
    throw new DefinitionError(loadProblems);
  }
  const loaded = JSON.parse(native.toJSON());
  const agents = new Map();
  for (const agent of loaded.agents) agents.set(agent.id, agent);
  const allContexts = Object.assign(Object.create(null), CONTEXT_POLICIES, contexts);
  const missing = [loaded.context, ...loaded.edges.map((e) => e.context)].filter((c) => c !== undefined && !(c in allContexts));
  const problems = missing.map((c) => rootProblem(`context policy '${c}' is neither full, last-user, none nor given in options.contexts`));
  const toolNames = new Set(loaded.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
  const bound = [bindFunctions('handlers', handlers, toolNames), bindFunctions('mocks', mocks, toolNames), bindFunctions('instructions', instructions, new Set(agents.keys()))];
  const [boundHandlers, boundMocks, boundInstructions] = bound.map((b) => b.out);
  problems.push(...bound.flatMap((b) => b.problems));
  problems.push(...workflowProblems(loaded, workflowsByAgent, agentsByTool, { handlers: boundHandlers, mocks: boundMocks }));
  problems.push(...mcpProblems(loaded, mcpClients));
  for (const [kind, byAgent] of Object.entries(guardrails)) {
    for (const agent of byAgent.keys()) {
      if (!agents.has(agent)) problems.push(notInDefinition(`options.${kind}Guardrails.${agent}`, 'agent', agent));
    }
  }
  const reducersByKey = new Map();
  for (const [key, reducer] of Object.entries(reducers)) {
    if (typeof reducer === 'function') reducersByKey.set(key, reducer);
    else if (Object.hasOwn(REDUCERS, reducer)) reducersByKey.set(key, REDUCERS[reducer]);
    else problems.push(rootProblem(`options.reducers.${key} must be ${REDUCER_CHOICES}`));
  }
  if (problems.length > 0) {
    native.delete();
    throw new DefinitionError(problems);
  }
  /** @type {SwarmInternals} */
  const internals = {
    live,
    definition: loaded,
    agents,
    contexts: allContexts,
    handlers: boundHandlers,
    mocks: boundMocks,
    instructions: boundInstructions,
    reducers: reducersByKey,
    hooks: { normalize: state.normalize, validate: state.validate },
    extract: extractVariables,
    extractIntents,
    guardrails,
    tracing: tracingSettings,
    workflows: workflowsByAgent,
    agentTools: agentsByTool,
    mcp: mcpClients.size > 0 || loaded.agents.some((a) => a.mcpServers !== undefined) ? new McpTools(mcpClients) : null,
    options: options ?? {},
  };
  return { native, internals };
}

/**
 * The Swarm's internals: made once by loadSwarm, held in the Swarm's one private field (nothing of
 * them shows on the public object), and passed first, as `sw`, to each function of js/swarm/ that
 * reads them.
 * @typedef {object} SwarmInternals
 * @property {() => any} live the embind Swarm (wasm/swarm_bindings.cpp); throws once the Swarm is disposed
 * @property {any} definition the definition as the core wrote it back (toJSON), every tool name resolved
 * @property {Map<string, any>} agents the definition's agents by id
 * @property {Record<string, Function>} contexts context policies by name: full, last-user, none and options.contexts
 * @property {Map<string, Function>} handlers tool handlers by tool name
 * @property {Map<string, unknown>} mocks tool mocks by tool name (a value, or a function)
 * @property {Map<string, Function>} instructions instructions functions by agent id
 * @property {Map<string, Function>} reducers reducers by variable
 * @property {{ normalize?: Function, validate?: Function }} hooks the state hooks (options.state)
 * @property {Function | undefined} extract options.extractVariables
 * @property {Function | undefined} extractIntents options.extractIntents
 * @property {{ input: Map<string, Function[]>, output: Map<string, Function[]> }} guardrails by kind, then by agent id
 * @property {ReturnType<typeof checkTracing>} tracing the tracing settings (js/tracing.js)
 * @property {ReturnType<typeof checkWorkflows>} workflows the workflow agents' machines by agent id
 * @property {ReturnType<typeof checkAgentTools>} agentTools the agent asked by each agent tool, by tool name
 * @property {McpTools | null} mcp the MCP clients and their last listings (js/mcp/consume.js), or null without MCP
 * @property {object} options the constructor's options as given: a replay runs with the same routing code (js/replay.js)
 */

/**
 * The swarm's name ('' for none).
 * @param {SwarmInternals} sw
 */
export function nameOf(sw) {
  return sw.definition.name ?? '';
}

/**
 * A copy of the agent `id` (id, name, description, instructions, entry, handoffs, tools), or undefined.
 * @param {SwarmInternals} sw
 */
export function agentCopy(sw, id) {
  const agent = sw.agents.get(id);
  return agent === undefined ? undefined : clone(agent);
}
