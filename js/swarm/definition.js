// @ts-check
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

/**
 * @import { CheckedWorkflow } from '../agent-workflows.js'
 * @import { CheckReport, ContextPolicy, DefinitionProblem, Guardrail, Session, SwarmAgent, SwarmDefinition, SwarmEdge, SwarmOptions, ToolContext, TracingOptions } from '../index.js'
 */

/**
 * The core's Swarm (wasm/swarm_bindings.cpp): the definition, and the routing decisions. Values
 * cross as JSON text both ways (js/swarm/core.js); each answer is the core's record.
 * @typedef {object} NativeSwarm
 * @property {(definition: string) => DefinitionProblem[] | null} load
 * @property {() => string} toJSON The definition text, in the core's normal form.
 * @property {() => CheckReport | null} check
 * @property {() => string} start The routing core of a new session: { active, hops, selections }.
 * @property {(session: string, format: string, mcp: string) => string} tools
 * @property {(session: string) => string} applyRules
 * @property {(session: string, name: string, args: string, approved: boolean, mcp: string) => string} applyToolCall
 * @property {(edge: number, variable: string, message: string) => string} refuseHandoff
 * @property {(outcome: string) => string} toolResult
 * @property {(session: string, format: string, kind: string, direction: string) => { text: string, error?: undefined } | { text?: undefined, error: string }} export
 * @property {() => void} delete
 */

/**
 * The definition as the core wrote it back (toJSON): every default filled in, every tool name resolved.
 * @typedef {SwarmDefinition & { name?: string, context?: string, agents: LoadedAgent[], edges: SwarmEdge[] }} LoadedDefinition
 */

/**
 * An agent of the loaded definition.
 * @typedef {SwarmAgent & { tools?: Array<{ name: string }> }} LoadedAgent
 */

/**
 * The context of the state hooks (options.state): the session, its active agent, where the change comes from.
 * @typedef {{ session: Session, agent: string, source: string }} StateHookContext
 */

/** @typedef {import('../tracing.js').TraceSettings} TracingSettings The tracing settings (js/tracing.js checkTracing). */

// The UTF-16 index of the first lone surrogate in `s`, or -1 (a Unicode-mode pattern reads a
// well-formed pair as one code point, so only a lone surrogate is one of category Cs).
/** @type {(s: string) => number} */
const loneSurrogate = (s) => s.search(/\p{Cs}/u);

// Ids and names cross into the core as UTF-8, where a lone surrogate cannot exist: it would come
// back as U+FFFD, a different id (session.active !== id, two distinct ids "declared twice"). So
// they are refused, with the pointer of each. Free text (descriptions, instructions, conditions)
// is not an id: its lone surrogates are read as U+FFFD, as conditions read them.
/**
 * @param {Record<string, unknown>} document plain JSON data, not yet checked: any member may be anything
 * @returns {DefinitionProblem[]}
 */
function illFormedNames(document) {
  /** @type {DefinitionProblem[]} */
  const problems = [];
  /** @type {(value: unknown, pointer: string, what: string) => void} */
  const check = (value, pointer, what) => {
    const at = typeof value === 'string' ? loneSurrogate(value) : -1;
    if (at === -1) return;
    const unit = /** @type {string} */ (value).charCodeAt(at).toString(16).toUpperCase();
    problems.push({ pointer, message: `a lone surrogate at index ${at} (U+${unit}): the ${what} is not well-formed Unicode, so it cannot be kept exactly` });
  };
  /** @type {(value: unknown) => unknown[]} */
  const list = (value) => (Array.isArray(value) ? value : []);
  /** @type {(value: unknown) => value is Record<string, unknown>} */
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

/**
 * @template T
 * @param {string} kind
 * @param {Record<string, T>} given
 * @param {Set<string>} known
 * @returns {{ out: Map<string, T>, problems: DefinitionProblem[] }}
 */
function bindFunctions(kind, given, known) {
  /** @type {Map<string, T>} */
  const out = new Map();
  /** @type {DefinitionProblem[]} */
  const problems = [];
  for (const [name, fn] of Object.entries(given)) {
    if (!known.has(name)) problems.push(notInDefinition(`options.${kind}.${name}`, kind === 'instructions' ? 'agent' : 'tool', name));
    else out.set(name, fn);
  }
  return { out, problems };
}

// Guardrails by agent id: a function or an array of functions each. Checked for types here; the
// agent ids against the definition once it is loaded. js/swarm/guardrails.js runs them.
/**
 * @param {string} kind
 * @param {unknown} given
 * @returns {Map<string, Guardrail[]>}
 */
function checkGuardrails(kind, given) {
  if (given === undefined) return new Map();
  if (!isRecord(given)) throw new TypeError(`options.${kind} must be an object of guardrails by agent id, got ${describe(given)}`);
  /** @type {Map<string, Guardrail[]>} */
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
/**
 * @param {{ contexts: unknown, handlers: unknown, mocks: unknown, instructions: unknown, reducers: unknown, state: unknown, extractVariables: unknown, extractIntents: unknown }} options
 * @returns {void}
 */
function checkSwarmOptions({ contexts, handlers, mocks, instructions, reducers, state, extractVariables, extractIntents }) {
  for (const [kind, value] of Object.entries({ contexts, handlers, mocks, instructions, reducers })) {
    if (!isRecord(value)) throw new TypeError(`options.${kind} must be an object, got ${describe(value)}`);
  }
  for (const [kind, functions] of Object.entries({ contexts, handlers, instructions })) {
    for (const [name, fn] of Object.entries(/** @type {Record<string, unknown>} checked above */ (functions))) {
      if (typeof fn !== 'function') throw new TypeError(`options.${kind}.${name} must be a function, got ${describe(fn)}`);
    }
  }
  checkOptions(/** @type {object | undefined} checkOptions refuses anything else */ (state), STATE_HOOKS, 'Swarm options.state');
  const hooks = /** @type {Record<string, unknown>} */ (state);
  for (const hook of STATE_HOOKS) {
    if (hooks[hook] !== undefined && typeof hooks[hook] !== 'function') throw new TypeError(`options.state.${hook} must be a function, got ${describe(hooks[hook])}`);
  }
  if (extractVariables !== undefined && typeof extractVariables !== 'function') throw new TypeError(`options.extractVariables must be a function, got ${describe(extractVariables)}`);
  if (extractIntents !== undefined && typeof extractIntents !== 'function') throw new TypeError(`options.extractIntents must be a function, got ${describe(extractIntents)}`);
}

/**
 * new Swarm(definition, options)'s work: the options checked, the definition loaded by the core
 * and the host's functions checked against it (a DefinitionError lists every problem). Returns
 * the embind object (`native`, which the Swarm owns: js/lifetime.js) and the Swarm's internals.
 * `live()` gives the embind object while the Swarm is not disposed, and throws after.
 * @param {SwarmDefinition | string} definition
 * @param {SwarmOptions | undefined} options
 * @param {() => NativeSwarm} live
 * @returns {{ native: NativeSwarm, internals: SwarmInternals }}
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
  const { Swarm: NativeSwarmClass } = requireRuntime().module;
  /** @type {NativeSwarm} */
  const native = new NativeSwarmClass();
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
  /** @type {LoadedDefinition} */
  const loaded = JSON.parse(native.toJSON());
  /** @type {Map<string, LoadedAgent>} */
  const agents = new Map();
  for (const agent of loaded.agents) agents.set(agent.id, agent);
  /** @type {Record<string, ContextPolicy>} */
  const allContexts = Object.assign(Object.create(null), CONTEXT_POLICIES, contexts);
  const missing = [loaded.context, ...loaded.edges.map((e) => e.context)].filter((c) => c !== undefined && !(c in allContexts));
  const problems = missing.map((c) => rootProblem(`context policy '${c}' is neither full, last-user, none nor given in options.contexts`));
  const toolNames = new Set(loaded.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
  const boundHandlers = bindFunctions('handlers', handlers, toolNames);
  const boundMocks = bindFunctions('mocks', mocks, toolNames);
  const boundInstructions = bindFunctions('instructions', instructions, new Set(agents.keys()));
  problems.push(...[boundHandlers, boundMocks, boundInstructions].flatMap((b) => b.problems));
  problems.push(...workflowProblems(loaded, workflowsByAgent, agentsByTool, { handlers: boundHandlers.out, mocks: boundMocks.out }));
  problems.push(...mcpProblems(loaded, mcpClients));
  for (const [kind, byAgent] of Object.entries(guardrails)) {
    for (const agent of byAgent.keys()) {
      if (!agents.has(agent)) problems.push(notInDefinition(`options.${kind}Guardrails.${agent}`, 'agent', agent));
    }
  }
  /** @type {Map<string, (previous: unknown, value: unknown, key: string) => unknown>} */
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
    handlers: boundHandlers.out,
    mocks: boundMocks.out,
    instructions: boundInstructions.out,
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
 * @property {() => NativeSwarm} live the embind Swarm (wasm/swarm_bindings.cpp); throws once the Swarm is disposed
 * @property {LoadedDefinition} definition the definition as the core wrote it back (toJSON), every tool name resolved
 * @property {Map<string, LoadedAgent>} agents the definition's agents by id
 * @property {Record<string, ContextPolicy>} contexts context policies by name: full, last-user, none and options.contexts
 * @property {Map<string, (args: Record<string, unknown>, ctx: ToolContext) => unknown>} handlers tool handlers by tool name
 * @property {Map<string, unknown>} mocks tool mocks by tool name (a value, or a function)
 * @property {Map<string, NonNullable<SwarmOptions['instructions']>[string]>} instructions instructions functions by agent id
 * @property {Map<string, (previous: unknown, value: unknown, key: string) => unknown>} reducers reducers by variable
 * @property {{ normalize?: (key: string, value: unknown, ctx: StateHookContext) => unknown, validate?: (key: string, value: unknown, ctx: StateHookContext) => boolean | string }} hooks the state hooks (options.state)
 * @property {SwarmOptions['extractVariables']} extract options.extractVariables
 * @property {SwarmOptions['extractIntents']} extractIntents options.extractIntents
 * @property {{ input: Map<string, Guardrail[]>, output: Map<string, Guardrail[]> }} guardrails by kind, then by agent id
 * @property {TracingSettings} tracing the tracing settings (js/tracing.js)
 * @property {Map<string, CheckedWorkflow>} workflows the workflow agents' machines by agent id
 * @property {Map<string, string>} agentTools the agent asked by each agent tool, by tool name
 * @property {McpTools | null} mcp the MCP clients and their last listings (js/mcp/consume.js), or null without MCP
 * @property {SwarmOptions} options the constructor's options as given: a replay runs with the same routing code (js/replay.js)
 */

/**
 * The swarm's name ('' for none).
 * @param {SwarmInternals} sw
 * @returns {string}
 */
export function nameOf(sw) {
  return sw.definition.name ?? '';
}

/**
 * A copy of the agent `id` (id, name, description, instructions, entry, handoffs, tools), or undefined.
 * @param {SwarmInternals} sw
 * @param {string} id
 * @returns {LoadedAgent | undefined}
 */
export function agentCopy(sw, id) {
  const agent = sw.agents.get(id);
  return agent === undefined ? undefined : clone(agent);
}
