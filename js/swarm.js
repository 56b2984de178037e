// Swarm: agents joined by rule edges (taken automatically when their condition holds, zero tokens)
// and LLM edges (offered to the active agent's model as transfer_to_<agent> tools), with limits,
// required variables, context policies and a turn loop (docs/handoffs.md).
//
// The decisions (which tools are offered, which rule fires, what a tool call does, tool names
// and schemas) are the C++ core's (src/handoff/). This file keeps the session, a plain JSON
// object the host can store anywhere, and runs the host's model function in runTurn().
import { checkAgentTools, checkWorkflows, runWorkflow, workflowProblems } from './agent-workflows.js';
import { checkReport } from './check-symbol.js';
import { plainDefinition } from './definition-json.js';
import { DefinitionError } from './errors.js';
import { pictureLayout } from './export.js';
import { adopt, disposable, disposedError, inspection, inspectSymbol, release } from './lifetime.js';
import { copyMessages, readModelAnswer, restoreSession, snapshotSession } from './model-answer.js';
import { checkOptions, notInDefinition, rootProblem } from './options.js';
import { RECORDING_VERSION } from './recording.js';
import { REDUCER_CHOICES, REDUCERS } from './reducers.js';
import { replaySwarm } from './replay.js';
import { requireRuntime } from './runtime.js';
import { describe, describeGiven, wellFormed } from './text.js';
import { clone, isRecord, messageOf, put } from './values.js';
import { checkTracing, NO_TURN_TRACE, traceOutside, traceTurn } from './tracing.js';
import { normalizeToolCall, TOOL_FORMATS } from './tool-calls.js';
import { checkMcpClients, McpTools, mcpProblems } from './mcp/consume.js';
import { hostToolCall, refreshMcpTools, watchMcpTools } from './mcp/host-symbols.js';

export { TOOL_FORMATS };
const SESSION_FORMAT = 'handoff-graph/session';

// JSON text for the core, which reads UTF-8: lone surrogates in strings and keys become U+FFFD
// (JSON.stringify would write them as \ud800 escapes, which are not Unicode). Nesting too deep
// for the engine to serialize is a DefinitionError, not a RangeError from deep inside.
function coreJSON(value) {
  try {
    return JSON.stringify(value, (_key, v) => {
      if (typeof v === 'string') return wellFormed(v);
      if (isRecord(v) && Object.keys(v).some((k) => !k.isWellFormed())) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormed(k), x]));
      }
      return v;
    });
  } catch (error) {
    if (error instanceof RangeError) throw new DefinitionError([rootProblem('the value nests too deeply to read')]);
    throw error;
  }
}

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
const RUN_TURN_OPTIONS = ['model', 'toolFormat', 'jsonSchema', 'maxModelCalls', 'signal', 'store', 'toolState', 'agentConfig', 'statusEvents'];
const RESOLVE_OPTIONS = ['approve', 'reason', ...RUN_TURN_OPTIONS];

// runTurn's options (and resolveApproval's, which continue a turn), checked; defaults filled in.
function checkTurnOptions({ model, toolFormat, jsonSchema, maxModelCalls = 10, signal, store, toolState, agentConfig, statusEvents = false }, where) {
  if (typeof model !== 'function') throw new TypeError(`${where} needs { model }: a function ({ agent, messages, tools }) => { text, toolCalls }`);
  const format = toolFormat ?? model.toolFormat ?? 'openai-chat';
  if (!TOOL_FORMATS.includes(format)) throw new TypeError(`${where} options.toolFormat must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') throw new TypeError(`${where} options.jsonSchema must be the jsonSchema function from 'ai'`);
  if (!Number.isSafeInteger(maxModelCalls) || maxModelCalls < 0) throw new TypeError(`${where} options.maxModelCalls must be an integer >= 0, got ${describe(maxModelCalls)}`);
  if (signal !== undefined && typeof signal?.throwIfAborted !== 'function') throw new TypeError(`${where} options.signal must be an AbortSignal, got ${describe(signal)}`);
  if (store !== undefined && (typeof store?.save !== 'function' || typeof store?.appendCheckpoint !== 'function')) {
    throw new TypeError(`${where} options.store must be a session store (save, appendCheckpoint), such as a MemoryStore`);
  }
  if (agentConfig !== undefined && (typeof agentConfig !== 'object' || agentConfig === null || Array.isArray(agentConfig))) {
    throw new TypeError(`${where} options.agentConfig must be an object of per-agent settings, got ${describe(agentConfig)}`);
  }
  if (typeof statusEvents !== 'boolean') throw new TypeError(`${where} options.statusEvents must be true or false, got ${describe(statusEvents)}`);
  return { model, toolFormat: format, jsonSchema, maxModelCalls, signal, store, toolState, agentConfig, statusEvents };
}

// `tools` (in any format) without the ones named in `names`.
function withoutTools(tools, names) {
  if (!Array.isArray(tools)) return Object.fromEntries(Object.entries(tools).filter(([name]) => !names.has(name)));
  return tools.filter((tool) => !names.has(tool.function?.name ?? tool.name));
}

// A normalized tool call's arguments as JSON text for the core.
function argumentsText(call) {
  const args = call.arguments ?? call.input ?? call.args ?? {};
  let text;
  if (typeof args !== 'string') {
    text = coreJSON(args);
  } else {
    // Models send JSON text; re-serialize what parses, so that \ud800-style escapes become U+FFFD.
    try {
      text = coreJSON(JSON.parse(args));
    } catch {
      text = args;  // not JSON: the core rejects it and says so
    }
  }
  return text === undefined ? 'null' : text;
}

// Yields what `generator` yields, each as `wrap(event)`, and returns what it returns; a consumer
// that stops early closes it (its spans end, its model streams stop).
async function* reported(generator, wrap) {
  let finished = false;
  try {
    for (;;) {
      const next = await generator.next();
      if (next.done) {
        finished = true;
        return next.value;
      }
      yield wrap(next.value);
    }
  } finally {
    if (!finished) await generator.return(undefined);
  }
}

// The trace log lines of changes made between turns, by session, not yet waited for: the next
// turn waits for them before its own (a line that could not be written fails it).
const outsideLines = new WeakMap();

// Where a turn failed (a model call or a tool handler), by session, while the error travels up to
// the turn's guard.
const failedAt = new WeakMap();

// The session's checkpoint log gets an entry: where the session is, and `what` happened.
function checkpoint(session, what) {
  session.checkpoints.push({ turn: session.turn, hops: session.hops, active: session.active, ...what });
}

// A guardrail that tripped: checkpointed, then reported; returns how the conversation ends.
function* tripGuardrail(session, tripped) {
  checkpoint(session, { guardrail: clone(tripped) });
  yield { type: 'guardrail_tripped', ...tripped };
  return { text: '', reason: 'guardrail-tripped' };
}

// The history message that answers a tool call.
function toolMessage(call, content) {
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

const TRANSFERRED = 'the conversation was transferred';

// Answers `skipped` calls in `history` without running them: `Not run: ${why}.`
function answerNotRun(history, skipped, why) {
  for (const call of skipped) history.push(toolMessage(call, `Not run: ${why}.`));
}

// The events of calls answered without being run: a tool_use each (only when the model's stream
// has not announced it already), then a tool_result.
function* notRunEvents(agentId, skipped, why, announced) {
  for (const call of skipped) {
    if (!announced) yield { type: 'tool_use', agent: agentId, call: clone(call) };
    yield { type: 'tool_result', agent: agentId, call: clone(call), result: `Not run: ${why}.`, outcome: { type: 'not_run', reason: why } };
  }
}

// Answers `skipped` calls in `history` without running them, then reports them (notRunEvents).
function* notRun(history, agentId, skipped, why, announced) {
  answerNotRun(history, skipped, why);
  yield* notRunEvents(agentId, skipped, why, announced);
}

// Queued intents: each { text, variables }, or null when the input is one intent.
function checkIntents(given) {
  if (given === undefined || given === null) return null;
  if (!Array.isArray(given)) throw new TypeError(`options.extractIntents must return an array of intents (strings or { text, variables }), null or undefined, got ${describe(given)}`);
  if (given.length === 0) return null;
  return given.map((intent, i) => {
    if (typeof intent === 'string') return { text: intent, variables: {} };
    const { text, variables = {} } = checkOptions(intent, ['text', 'variables'], `intent ${i}`);
    if (typeof text !== 'string') throw new TypeError(`intent ${i}: text must be a string, got ${describe(text)}`);
    if (!isRecord(variables)) throw new TypeError(`intent ${i}: variables must be an object, got ${describe(variables)}`);
    return { text, variables };
  });
}

// The approval the session waits for (at most one: a pause ends the turn), or undefined.
function pendingApproval(session) {
  const approvals = session.approvals;
  if (typeof approvals !== 'object' || approvals === null) return undefined;
  return Object.values(approvals).find((a) => a?.status === 'pending');
}

function checkSession(session, where) {
  if (typeof session !== 'object' || session === null || session.format !== SESSION_FORMAT) {
    throw new TypeError(`${where}: expected a session from swarm.createSession(), got ${describeGiven(session)}`);
  }
  return session;
}

// What the target of a handoff receives of the source's history.
const CONTEXT_POLICIES = {
  full: (messages) => messages,
  'last-user': (messages) => {
    const last = messages.findLast((m) => m.role === 'user');
    return last === undefined ? [] : [last];
  },
  none: () => [],
};

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
// agent ids against the definition once it is loaded.
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

export class Swarm {
  #native;
  #definition;
  #agents = new Map();
  #contexts;
  #handlers;
  #mocks;
  #instructions;
  #reducers = new Map();
  #hooks;
  #extract;
  #extractIntents;
  #guardrails;
  #tracing;
  #workflows;
  #agentTools;
  #mcp = null;
  #options;  // as given: a replay runs with the same routing code (js/replay.js)

  /**
   * @param definition the swarm definition (docs/handoffs.md); `format` and `version` may be omitted
   * @param options `contexts`: custom context policies by name, `(messages, info) => messages`;
   *   `handlers` / `mocks`: by tool name; `instructions`: functions by agent id; `reducers`: by
   *   variable; `state`: { normalize(key, value, ctx), validate(key, value, ctx) };
   *   `extractVariables(input, ctx)`: variables taken from each user input
   */
  constructor(definition, options) {
    if (definition === undefined) throw new TypeError('new Swarm(definition, options): the definition is missing');
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
    this.#native = native;
    this.#definition = JSON.parse(native.toJSON());
    for (const agent of this.#definition.agents) this.#agents.set(agent.id, agent);
    this.#contexts = Object.assign(Object.create(null), CONTEXT_POLICIES, contexts);
    const missing = [this.#definition.context, ...this.#definition.edges.map((e) => e.context)].filter((c) => c !== undefined && !(c in this.#contexts));
    const problems = missing.map((c) => rootProblem(`context policy '${c}' is neither full, last-user, none nor given in options.contexts`));
    const toolNames = new Set(this.#definition.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
    const bound = [bindFunctions('handlers', handlers, toolNames), bindFunctions('mocks', mocks, toolNames), bindFunctions('instructions', instructions, new Set(this.#agents.keys()))];
    [this.#handlers, this.#mocks, this.#instructions] = bound.map((b) => b.out);
    problems.push(...bound.flatMap((b) => b.problems));
    problems.push(...workflowProblems(this.#definition, workflowsByAgent, agentsByTool, { handlers: this.#handlers, mocks: this.#mocks }));
    problems.push(...mcpProblems(this.#definition, mcpClients));
    for (const [kind, byAgent] of Object.entries(guardrails)) {
      for (const agent of byAgent.keys()) {
        if (!this.#agents.has(agent)) problems.push(notInDefinition(`options.${kind}Guardrails.${agent}`, 'agent', agent));
      }
    }
    for (const [key, reducer] of Object.entries(reducers)) {
      if (typeof reducer === 'function') this.#reducers.set(key, reducer);
      else if (Object.hasOwn(REDUCERS, reducer)) this.#reducers.set(key, REDUCERS[reducer]);
      else problems.push(rootProblem(`options.reducers.${key} must be ${REDUCER_CHOICES}`));
    }
    if (problems.length > 0) {
      native.delete();
      throw new DefinitionError(problems);
    }
    this.#hooks = { normalize: state.normalize, validate: state.validate };
    this.#extract = extractVariables;
    this.#extractIntents = extractIntents;
    this.#guardrails = guardrails;
    this.#tracing = tracingSettings;
    this.#workflows = workflowsByAgent;
    this.#agentTools = agentsByTool;
    if (mcpClients.size > 0 || this.#definition.agents.some((a) => a.mcpServers !== undefined)) this.#mcp = new McpTools(mcpClients);
    this.#options = options ?? {};
    adopt(this, native);
  }

  static fromJSON(definition, options) {
    return new Swarm(definition, options);
  }

  get #live() {
    if (this.#native === null) throw disposedError('Swarm');
    return this.#native;
  }

  /** check()'s report (js/check.js). */
  [checkReport]() {
    return this.#live.check();
  }

  /** The definition, with every tool name resolved. */
  toJSON() {
    return JSON.parse(this.#live.toJSON());
  }

  get name() {
    return this.#definition.name ?? '';
  }

  /** A copy of the agent `id` (id, name, description, instructions, entry, handoffs, tools), or undefined. */
  agent(id) {
    const agent = this.#agents.get(id);
    return agent === undefined ? undefined : clone(agent);
  }

  /** A new session: plain JSON, at the entry agent (the core names it). */
  createSession(options) {
    const { id, variables = {} } = checkOptions(options, ['id', 'variables'], 'createSession options');
    if (id !== undefined && (typeof id !== 'string' || id.length === 0)) throw new TypeError(`createSession: id must be a non-empty string, got ${describe(id)}`);
    if (!isRecord(variables)) {
      throw new TypeError(`createSession: variables must be an object, got ${describe(variables)}`);
    }
    const { active, hops, selections } = JSON.parse(this.#live.start());
    return {
      format: SESSION_FORMAT,
      version: 0,
      id: id ?? globalThis.crypto.randomUUID(),
      swarm: this.name,
      active,
      hops,
      turn: 0,
      selections,
      variables: clone(variables),
      histories: Object.fromEntries(this.#definition.agents.map((a) => [a.id, []])),
      checkpoints: [],
    };
  }

  // The core's record for the session's routing core: { session, outcome, result, fromModel, carry, … }
  // (src/handoff/policy.h, host_record).
  #core(session, where, call, ...args) {
    const { active, hops, selections, variables } = checkSession(session, where);
    // Strings (a tool's name, its arguments as the model sent them) well formed, as in all that crosses.
    const texts = args.map((arg) => (typeof arg === 'string' ? wellFormed(arg) : arg));
    const result = JSON.parse(this.#live[call](coreJSON({ active, hops, selections, variables }), ...texts));
    if (result.error !== undefined) throw new TypeError(`${where}: ${result.error}`);
    return result;
  }

  /**
   * Applies a change of variables: each value normalized, merged with its key's reducer, then
   * validated. All or nothing: { ok: true } or { ok: false, key, message } with the session as it was.
   */
  #change(session, updates, source) {
    const next = { ...session.variables };
    const ctx = { session, agent: session.active, source };
    for (const key of Object.keys(updates)) {
      let value = updates[key];
      if (this.#hooks.normalize !== undefined) value = this.#hooks.normalize(key, value, ctx);
      const reducer = this.#reducers.get(key) ?? REDUCERS.replace;
      const merged = reducer(Object.hasOwn(next, key) ? next[key] : undefined, value, key);
      if (this.#hooks.validate !== undefined) {
        const verdict = this.#hooks.validate(key, merged, ctx);
        if (verdict === false || typeof verdict === 'string') {
          return { ok: false, key, message: typeof verdict === 'string' ? verdict : `the value of '${key}' is not valid` };
        }
      }
      put(next, key, clone(merged));
    }
    session.variables = next;
    return { ok: true };
  }

  // Acts on the core's record: merges what the model supplied (a refusal by the state hooks blocks
  // the handoff, in the core's words), writes the core's view of the session back, carries the
  // history by the fired edge's policy, checkpoints. `settle(outcome, result)` runs before the
  // history moves (runTurn adds the tool's result message). Returns the outcome: the caller's
  // own value, sharing nothing with the session.
  #commit(session, record, settle) {
    let { outcome, result } = record;
    if (outcome !== null && outcome.type === 'handoff' && Object.keys(record.fromModel).length > 0) {
      const changed = this.#change(session, record.fromModel, 'tool');
      if (!changed.ok) {
        ({ outcome, result } = JSON.parse(this.#live.refuseHandoff(outcome.edge, wellFormed(changed.key), wellFormed(changed.message))));
        settle?.(outcome, result);
        checkpoint(session, { outcome: clone(outcome) });
        return outcome;
      }
      // Report what was stored: the values after the normalize hook and the reducers.
      for (const key of Object.keys(record.fromModel)) {
        for (const reported of [outcome.variables, outcome.resolvedVariables]) {
          put(reported, key, clone(session.variables[key]));
        }
      }
    }
    Object.assign(session, { active: record.session.active, hops: record.session.hops, selections: record.session.selections });
    settle?.(outcome, result);
    if (outcome !== null && outcome.type === 'handoff') {
      const { context, includeSystem } = record.carry;
      const { from, to } = outcome;
      const source = session.histories[from] ?? [];
      const edge = clone(this.#definition.edges[outcome.edge]);
      const carried = this.#contexts[context](source.map(clone), { from, to, edge, session });
      if (!Array.isArray(carried)) throw new TypeError(`context policy '${context}' must return an array of messages`);
      const agent = this.#agents.get(from);
      session.histories[to] = [
        ...(includeSystem && agent?.instructions ? [{ role: 'system', content: agent.instructions, agent: from }] : []),
        ...carried,
      ];
    }
    if (outcome !== null && outcome.type !== 'tool') checkpoint(session, { outcome: clone(outcome) });
    return outcome;
  }

  /**
   * The tools the active agent is offered now (its own, then the transfers), in an SDK's shape.
   * For 'ai-sdk', pass `{ jsonSchema }` from 'ai' to get a ToolSet-ready object.
   */
  tools(session, format = 'openai-chat', options) {
    const { jsonSchema } = checkOptions(options, ['jsonSchema'], 'tools options');
    if (!TOOL_FORMATS.includes(format)) throw new TypeError(`format must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
    if (jsonSchema !== undefined && typeof jsonSchema !== 'function') throw new TypeError("jsonSchema must be the jsonSchema function from 'ai'");
    const tools = this.#core(session, 'tools', 'tools', format, this.#mcpListed(checkSession(session, 'tools').active)).tools;
    if (format !== 'ai-sdk' || jsonSchema === undefined) return tools;
    return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, { ...tool, inputSchema: jsonSchema(tool.inputSchema) }]));
  }

  /** Names and targets of the tools offered now: [{ name, to }]. */
  offered(session) {
    return this.#core(session, 'offered', 'tools', 'openai-chat', this.#mcpListed(checkSession(session, 'offered').active)).offered;
  }

  // The MCP tools agent `agentId`'s servers listed last, as the core reads them ('' for none).
  #mcpListed(agentId) {
    const servers = this.#mcpServers(agentId);
    return servers.length === 0 ? '' : this.#mcp.listed(servers);
  }

  #mcpServers(agentId) {
    if (this.#mcp === null) return [];
    return (this.#agents.get(agentId)?.mcpServers ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.server));
  }

  // Lists agent `agentId`'s MCP servers again where their lists changed (before its tools are
  // offered or a call of them is applied); a server that cannot be listed is reported.
  async *#mcpRefresh(agentId, signal) {
    const servers = this.#mcpServers(agentId);
    if (servers.length === 0) return;
    for (const { server, message } of await this.#mcp.refresh(servers, signal)) yield { type: 'mcp_unavailable', agent: agentId, server, message };
  }

  /** createMcpServer's: lists the active agent's MCP servers again where their lists changed; resolves the failures. */
  async [refreshMcpTools](session, signal) {
    const servers = this.#mcpServers(checkSession(session, 'refreshMcpTools').active);
    return servers.length === 0 ? [] : this.#mcp.refresh(servers, signal);
  }

  /** createMcpServer's: `listener(server, agents)` when an MCP server's tool list changed (`agents`: the ids of those that name it); returns what stops it. */
  [watchMcpTools](listener) {
    if (this.#mcp === null) return () => {};
    return this.#mcp.watch((server) => listener(server, this.#definition.agents.filter((a) => this.#mcpServers(a.id).includes(server)).map((a) => a.id)));
  }

  /**
   * createMcpServer's: a tool call of the active agent's model as runTurn applies it, without a
   * model: { outcome, result, by? }. A call of its own tool or an MCP tool runs (an agent tool,
   * which needs a model, is answered as not run) and is checkpointed. `approved`: a person
   * approved the call (createMcpServer asks through an elicitation).
   * @param {{ signal?: AbortSignal, toolState?: unknown, approved?: boolean }} [how]
   */
  async [hostToolCall](session, call, how = {}) {
    const { signal, toolState, approved = false } = how;
    await this[refreshMcpTools](session, signal);
    let result;
    const outcome = this.#applyToolCall(session, call, (_settled, settledResult) => {
      result = settledResult;
    }, approved);
    if (outcome.type !== 'tool') return { outcome, result: result ?? this.toolResult(outcome) };
    if (outcome.mcp === undefined && this.#agentTools.has(outcome.tool)) {
      return { outcome, result: `Not run: ${outcome.tool} asks agent '${this.#agentTools.get(outcome.tool)}', which needs a model.` };
    }
    const agentId = session.active;
    const run = this.#callTool(session, agentId, normalizeToolCall(call), clone(outcome), { input: '', toolState, options: { signal } }, NO_TURN_TRACE);
    let next = await run.next();
    while (!next.done) next = await run.next();
    const { result: text, by } = next.value;
    checkpoint(session, { tool: outcome.tool, arguments: clone(outcome.arguments), result: text, by, ...(outcome.mcp === undefined ? {} : { server: outcome.mcp.server }) });
    return { outcome, result: text, by };
  }

  // What tool_use and tool_result events add for a call of an MCP tool: { by: 'mcp', server }.
  #mcpTag(agentId, name) {
    if (this.#mcpServers(agentId).length === 0) return {};
    const listed = this.#core({ format: SESSION_FORMAT, active: agentId, hops: 0, selections: {}, variables: {} }, 'tools', 'tools', 'openai-chat', this.#mcpListed(agentId)).mcp;
    const tool = listed.find((t) => t.name === name);
    return tool === undefined ? {} : { by: 'mcp', server: tool.server };
  }

  /** Takes the first rule edge that holds (if any): the handoff outcome, or null. */
  applyRules(session) {
    const before = this.#outside(session, 'applyRules');
    const outcome = this.#applyRules(session);
    before?.({}, outcome);
    return outcome;
  }

  #applyRules(session) {
    return this.#commit(session, this.#core(session, 'applyRules', 'applyRules'));
  }

  // The recording of a change the host makes between turns (docs/replay.md): with a trace log, a
  // function that writes its `update` line (the variables given, the session's variables before,
  // the rule that fired); the next turn of the session waits for the line (and fails when it
  // could not be written). Without one, undefined.
  #outside(session, where) {
    if (this.#tracing.traceLogPath === undefined) return undefined;
    checkSession(session, where);
    const before = clone(session.variables);
    return (variables, outcome) => {
      const line = { type: 'update', variables: clone(variables), before, outcome: outcome === null ? null : clone(outcome) };
      const written = traceOutside(this.#tracing, { swarm: this.name, session: session.id }, line, outsideLines.get(session));
      // Awaited by the session's next turn; until then a failure must not count as unhandled.
      written.catch(() => {});
      outsideLines.set(session, written);
    };
  }

  /** Merges `variables` into the session, then applies the rules: a handoff outcome, or null. */
  updateState(session, variables) {
    checkSession(session, 'updateState');
    if (!isRecord(variables)) {
      throw new TypeError(`updateState(session, variables): variables must be an object, got ${describeGiven(variables)}`);
    }
    const before = this.#outside(session, 'updateState');
    const changed = this.#change(session, variables, 'host');
    if (!changed.ok) throw new RangeError(`updateState: ${changed.message}`);
    const outcome = this.#applyRules(session);
    before?.(variables, outcome);
    return outcome;
  }

  /**
   * What a model's tool call does: { type: 'handoff', from, to, edge, variables, … },
   * { type: 'handoff_blocked', rejectionReason, missing, invalid, … } or { type: 'rejected', reason }.
   * Only a handoff changes the session.
   */
  applyToolCall(session, call) {
    return this.#applyToolCall(session, call, undefined, false);
  }

  #applyToolCall(session, call, settle, approved) {
    checkSession(session, 'applyToolCall');
    if (call === undefined) throw new TypeError('applyToolCall(session, call): a tool call is { name, arguments }, got nothing');
    call = normalizeToolCall(call);
    return this.#commit(session, this.#core(session, 'applyToolCall', 'applyToolCall', call.name, argumentsText(call), approved, this.#mcpListed(session.active)), settle);
  }

  /**
   * Replays one session's recording (docs/replay.md: its trace log lines, an array or JSONL text)
   * against this swarm's rules, with a model and tools that answer what was recorded; resolves
   * { same, turns, decisions, divergence }, the divergence being the first decision that differs.
   */
  async replay(recording) {
    this.#live;
    return replaySwarm(recording, { definition: this.toJSON(), options: this.#options, make: (definition, options) => new Swarm(definition, options) });
  }

  /** The text runTurn gives the model as the result of a transfer call with this outcome. */
  toolResult(outcome) {
    if (typeof outcome !== 'object' || outcome === null) throw new TypeError(`toolResult takes an outcome of applyToolCall, got ${describe(outcome)}`);
    const answer = JSON.parse(this.#live.toolResult(coreJSON(outcome)));
    if (answer.error !== undefined) throw new TypeError(`toolResult: ${answer.error}`);
    return answer.result;
  }

  /** The active agent's instructions now (a bound function of { state, agent, session }, or the text). */
  instructions(session) {
    checkSession(session, 'instructions');
    return this.#instructionsOf(session.active, session);
  }

  #instructionsOf(agentId, session) {
    const agent = this.#agents.get(agentId);
    const dynamic = this.#instructions.get(agentId);
    return dynamic === undefined ? agent?.instructions ?? '' : String(dynamic({ state: session.variables, agent: this.agent(agentId), session }));
  }

  /** The messages the active agent's model gets: its instructions, then its history (copies). */
  messages(session) {
    checkSession(session, 'messages');
    const instructions = this.instructions(session);
    return [...(instructions ? [{ role: 'system', content: instructions }] : []), ...clone(session.histories[session.active])];
  }

  // Runs one of the agent's own tools: its handler, else its mock, else tool_mock_required.
  async #runTool(session, outcome, call, extra) {
    const { tool, arguments: args } = outcome;
    const set = [];  // what the handler set, for the recording (docs/replay.md)
    const ctx = {
      session, state: session.variables, agent: this.agent(outcome.agent), input: extra.input, toolState: extra.toolState, call,
      setVariables: (variables) => {
        const changed = this.#change(session, variables, 'handler');
        set.push(clone(variables));
        return changed;
      },
    };
    const handler = this.#handlers.get(tool);
    const mock = this.#mocks.get(tool);
    if (handler !== undefined) return { kind: 'handler', value: await handler(args, ctx), variables: set };
    if (mock !== undefined) return { kind: 'mock', value: typeof mock === 'function' ? await mock(args, ctx) : clone(mock), variables: set };
    return {
      kind: 'missing',
      value: { error: 'tool_mock_required', tool, message: `Tool '${tool}' has no handler and no mock in this environment; continue without its result.` },
    };
  }

  /**
   * One user turn. `model(request)` is the host's single model call (request: agent, messages,
   * tools, instructions, history, variables, config, toolFormat, signal); it returns
   * { text?, toolCalls?, raw? } or an async iterable of stream parts (js/model-answer.js). Yields
   * events: open, handoff, handoff_blocked, tool_use, tool_result, chunk, response, done (and
   * tool_mock_required, state_rejected, approval_required). Events are values fixed when yielded;
   * `done.session` is the session passed in. A turn that ends because `signal` aborted leaves the
   * session exactly as it was before the turn. A call of an `approval: true` tool or edge pauses
   * the turn: `approval_required`, then `done` with reason 'approval-required'; the session keeps
   * the pending approval until resolveApproval() decides it (docs/handoffs.md#approvals).
   */
  async *runTurn(session, input, options) {
    checkSession(session, 'runTurn(session, input, { model })');
    if (typeof input !== 'string') throw new TypeError(`runTurn(session, input, { model }): input must be a string, got ${describeGiven(input)}`);
    const turn = checkTurnOptions(checkOptions(options, RUN_TURN_OPTIONS, 'runTurn options'), 'runTurn');
    const pending = pendingApproval(session);
    if (pending !== undefined) {
      throw Object.assign(new Error(`runTurn: the session waits for the decision on approval '${pending.approvalId}' (${pending.kind === 'handoff' ? `a transfer to ${pending.to}` : `tool ${pending.tool}`}); resolve it with swarm.resolveApproval() before the next turn`), { code: 'ERR_APPROVAL_PENDING', approvalId: pending.approvalId });
    }
    await this.#outsideWritten(session);
    const recording = () => ({ recording: RECORDING_VERSION, input, variables: clone(session.variables), maxModelCalls: turn.maxModelCalls });
    const info = { swarm: this.name, session: session.id, agent: session.active, recording };
    yield* traceTurn(this.#tracing, info, (trace) => this.#guarded(session, turn, this.#turn(session, input, { ...turn, trace })));
  }

  // Waits for the lines of the changes made since the session's last turn (#outside).
  async #outsideWritten(session) {
    const written = outsideLines.get(session);
    if (written === undefined) return;
    outsideLines.delete(session);
    await written;
  }

  /**
   * Decides the approval `approvalId` that paused a turn of `session` and resumes that turn:
   * `approve: true` runs the tool or the handoff (the core checks the call again against the
   * session as it is now), `approve: false` gives the model `Not approved: <reason>` as the call's
   * result. The calls of the same model response after the paused one then run in order (one may
   * pause again), and the turn goes on with the model. Takes runTurn's options besides `approve`
   * and `reason`; yields runTurn's events, opening with `open` and `approval_resolved`.
   * An unknown id throws (code ERR_APPROVAL_NOT_FOUND), a decided one too (ERR_APPROVAL_RESOLVED).
   */
  async *resolveApproval(session, approvalId, options) {
    checkSession(session, 'resolveApproval(session, approvalId, { approve, model })');
    if (typeof approvalId !== 'string') throw new TypeError(`resolveApproval: approvalId must be a string, got ${describe(approvalId)}`);
    const { approve, reason, ...rest } = checkOptions(options, RESOLVE_OPTIONS, 'resolveApproval options');
    if (typeof approve !== 'boolean') throw new TypeError(`resolveApproval options.approve must be true or false, got ${describeGiven(approve)}`);
    if (reason !== undefined && typeof reason !== 'string') throw new TypeError(`resolveApproval options.reason must be a string, got ${describe(reason)}`);
    const turn = checkTurnOptions(rest, 'resolveApproval');
    const approvals = session.approvals;
    const record = typeof approvals === 'object' && approvals !== null && Object.hasOwn(approvals, approvalId) ? approvals[approvalId] : undefined;
    if (record === undefined) throw Object.assign(new Error(`resolveApproval: the session has no approval '${approvalId}'`), { code: 'ERR_APPROVAL_NOT_FOUND', approvalId });
    if (record.status !== 'pending') throw Object.assign(new Error(`resolveApproval: approval '${approvalId}' was already decided (${record.status})`), { code: 'ERR_APPROVAL_RESOLVED', approvalId, status: record.status });
    await this.#outsideWritten(session);
    const recording = () => ({ recording: RECORDING_VERSION, variables: clone(session.variables), maxModelCalls: turn.maxModelCalls });
    const info = { swarm: this.name, session: session.id, agent: session.active, approvalId, recording };
    yield* traceTurn(this.#tracing, info, (trace) => this.#guarded(session, turn, this.#resume(session, approvalId, { approve, reason }, { ...turn, trace })));
  }

  // Runs `events`; when `signal` aborts it, the session goes back to what it was before. When it
  // fails otherwise (a model call or a tool handler threw: llm4s's Failed), the session goes back
  // too, so that the turn can be retried, and is marked failed with the message; an `error` event
  // says so before the error is rethrown.
  async *#guarded(session, options, events) {
    const { signal } = options;
    const before = snapshotSession(session);
    try {
      yield* events;
    } catch (error) {
      restoreSession(session, before);
      if (signal?.aborted) throw error;
      const at = failedAt.get(session) ?? { source: 'turn', agent: session.active };
      failedAt.delete(session);
      const message = messageOf(error);
      Object.assign(session, { status: 'failed', error: message });
      yield* this.#status(session, options, 'failed', { agent: at.agent, error: message });
      yield { type: 'error', agent: at.agent, source: at.source, ...(at.tool === undefined ? {} : { tool: at.tool }), message };
      throw error;
    }
  }

  // Sets the session's status (llm4s's AgentStatus) and, with `statusEvents`, reports it.
  *#status(session, options, status, detail = {}) {
    session.status = status;
    if (status !== 'failed') delete session.error;
    if (options.statusEvents) yield { type: 'status', status, agent: session.active, ...detail };
  }

  async *#turn(session, input, options) {
    // A tripped input guardrail puts the session back as it was: kept only when one can trip.
    const before = this.#guardrails.input.size > 0 ? snapshotSession(session) : undefined;
    session.turn += 1;
    const checkpointsBefore = session.checkpoints.length;
    yield { type: 'open', agent: session.active, turn: session.turn };
    yield* this.#status(session, options, 'in_progress');
    if (this.#extract !== undefined) {
      const extracted = await this.#extract(input, { session, agent: session.active });
      options.trace.record({ type: 'extract', variables: extracted ?? null });
      if (extracted !== undefined && extracted !== null) {
        const changed = this.#change(session, extracted, 'extract');
        if (!changed.ok) yield { type: 'state_rejected', source: 'extract', key: changed.key, message: changed.message };
      }
    }
    const intents = this.#extractIntents === undefined ? null : checkIntents(await this.#extractIntents(input, { session, agent: session.active }));
    if (this.#extractIntents !== undefined) options.trace.record({ type: 'intents', intents });
    if (intents !== null) {
      yield* this.#intents(session, input, intents, checkpointsBefore, options);
      return;
    }
    yield* this.#rules(session, options.trace);
    // The question goes to whichever agent the rules settled on, through that agent's own input
    // guardrails (not those of the agent it came from).
    const tripped = await this.#guard('input', session.active, input, session, input);
    if (tripped !== null) {
      const { turn } = session;
      restoreSession(session, before);
      session.turn = turn;
      const end = yield* tripGuardrail(session, tripped);
      yield* this.#finish(session, checkpointsBefore, options, end);
      return;
    }
    session.histories[session.active].push({ role: 'user', content: input });
    const end = yield* this.#converse(session, input, '', options);
    yield* this.#finish(session, checkpointsBefore, options, end);
  }

  // Queued intents (SwarmForge's): one input carrying several intents, answered one after another.
  // Each intent in turn: an `intent` event, its variables merged (as extractVariables' are), the
  // rules applied, the active agent's input guardrails, the intent's text as the user message, and
  // model calls until that agent answers (maxModelCalls each). An intent that ends otherwise (a
  // pause for an approval, a guardrail, the budget) ends the turn: `done.queued` holds the intents
  // not started. `done.text` is the answers joined by a blank line; `done.answers` has each.
  async *#intents(session, input, intents, checkpointsBefore, options) {
    const answers = [];
    let end = { text: '', reason: 'answered' };
    for (const [index, intent] of intents.entries()) {
      yield { type: 'intent', index, count: intents.length, text: intent.text, variables: clone(intent.variables) };
      if (Object.keys(intent.variables).length > 0) {
        const changed = this.#change(session, intent.variables, 'intent');
        if (!changed.ok) yield { type: 'state_rejected', source: 'intent', key: changed.key, message: changed.message };
      }
      yield* this.#rules(session, options.trace);
      const tripped = await this.#guard('input', session.active, intent.text, session, input);
      if (tripped !== null) {
        end = yield* tripGuardrail(session, tripped);
      } else {
        session.histories[session.active].push({ role: 'user', content: intent.text });
        end = yield* this.#converse(session, intent.text, '', options);
        answers.push({ index, intent: intent.text, agent: session.active, text: end.text, reason: end.reason });
        yield { type: 'intent_done', index, agent: session.active, text: end.text, reason: end.reason };
      }
      if (end.reason !== 'answered') {
        end = { ...end, queued: intents.slice(index + 1).map((i) => i.text) };
        break;
      }
    }
    const text = answers.filter((a) => a.text.length > 0).map((a) => a.text).join('\n\n');
    yield* this.#finish(session, checkpointsBefore, options, { queued: [], ...end, text, answers });
  }

  async *#resume(session, approvalId, { approve, reason }, options) {
    const checkpointsBefore = session.checkpoints.length;
    const pending = session.approvals[approvalId];
    const { agent: agentId, calls, index, announced, input, text } = pending;
    yield { type: 'open', agent: session.active, turn: session.turn, approvalId };
    yield* this.#status(session, options, 'in_progress');
    const { calls: _calls, index: _index, announced: _announced, input: _input, text: _text, ...kept } = pending;
    session.approvals = { ...session.approvals, [approvalId]: { ...kept, status: approve ? 'approved' : 'rejected', ...(reason === undefined ? {} : { reason }) } };
    yield { type: 'approval_resolved', approvalId, approved: approve, reason: reason ?? null };
    checkpoint(session, { approval: { approvalId, approved: approve, ...(reason === undefined ? {} : { reason }) } });
    const history = session.histories[agentId];
    let acted = {};
    if (session.active !== agentId || history === undefined) {
      // The host moved the session while the call waited: the calls belong to an agent no longer active.
      if (history !== undefined) yield* notRun(history, agentId, calls.slice(index), 'the conversation was transferred while this call awaited approval', announced);
    } else if (approve) {
      yield* this.#mcpRefresh(agentId, options.signal);
      acted = yield* this.#act(session, agentId, calls, index, { input, toolState: options.toolState, announced, approvedFirst: true, options });
    } else {
      const call = calls[index];
      const result = reason === undefined || reason === '' ? 'Not approved.' : `Not approved: ${reason}`;
      history.push(toolMessage(call, result));
      yield { type: 'tool_result', agent: agentId, call: clone(call), result, outcome: { type: 'not_approved', reason: reason ?? null } };
      acted = yield* this.#act(session, agentId, calls, index + 1, { input, toolState: options.toolState, announced, options });
    }
    let end;
    if (acted.paused !== undefined) {
      end = { text, reason: 'approval-required', approvalId: acted.paused };
    } else {
      if (acted.handedOff) yield* this.#rules(session, options.trace);
      end = yield* this.#converse(session, input, text, options);
    }
    yield* this.#finish(session, checkpointsBefore, options, end);
  }

  // Takes the rule edges that hold, one after another, as handoff events (each decision traced).
  *#rules(session, trace = NO_TURN_TRACE) {
    for (;;) {
      const from = session.active;
      const outcome = this.#applyRules(session);
      trace.route(from, outcome, outcome === null ? undefined : this.#definition.edges[outcome.edge]);
      if (outcome === null) return;
      yield { type: 'handoff', ...outcome };
    }
  }

  // The model calls of a turn, until an answer without tool calls, the budget, or a pause for an
  // approval: { text, reason, approvalId? }.
  async *#converse(session, input, text, options) {
    const { toolFormat, jsonSchema, maxModelCalls, signal, toolState, trace = NO_TURN_TRACE } = options;
    let reason = 'max-model-calls';
    // A workflow agent makes no model call: it answers whatever is left of the budget.
    for (let calls = 0; calls < maxModelCalls || this.#workflows.has(session.active); calls++) {
      signal?.throwIfAborted();
      const agentId = session.active;
      // A workflow agent answers by running its machine, not by a model call.
      if (this.#workflows.has(agentId)) return yield* this.#workflowTurn(session, agentId, input, options);
      yield* this.#mcpRefresh(agentId, signal);
      let answer;
      try {
        answer = yield* this.#callModel(agentId, session, session.histories[agentId], this.tools(session, toolFormat, { jsonSchema }), options, trace);
      } catch (error) {
        failedAt.set(session, { source: 'model', agent: agentId });
        throw error;
      }
      const history = session.histories[agentId];
      if (answer.text.length > 0) text = answer.text;
      const toolCalls = answer.toolCalls;
      if (toolCalls.length === 0) {
        // The agent's final answer passes its own output guardrails before it joins the history.
        const tripped = await this.#guard('output', agentId, answer.text, session, input);
        if (tripped !== null) {
          return yield* tripGuardrail(session, tripped);
        }
      }
      history.push({ role: 'assistant', content: answer.text, ...(toolCalls.length > 0 ? { toolCalls: clone(toolCalls) } : {}) });
      if (toolCalls.length === 0) {
        reason = 'answered';
        break;
      }
      if (session.active !== agentId) {
        // The session moved while the model was answering (the host changed its state): this
        // response's calls belong to an agent that is no longer active.
        yield* notRun(history, agentId, toolCalls, 'the conversation was transferred while this call was made', answer.announced);
        continue;
      }
      yield* this.#status(session, options, 'waiting_for_tools');
      const acted = yield* this.#act(session, agentId, toolCalls, 0, { input, toolState, announced: answer.announced, text, options });
      if (acted.paused !== undefined) return { text, reason: 'approval-required', approvalId: acted.paused };
      if (acted.handedOff) yield* this.#rules(session, trace);
      yield* this.#status(session, options, 'in_progress');
    }
    return { text, reason };
  }

  // A workflow agent's part of the turn: its machine runs (its steps reported as workflow_step
  // events), its answer passes the agent's output guardrails and joins its history, the variables
  // it sets are merged, then the rules are taken: { text, reason }. A failing machine fails the turn.
  async *#workflowTurn(session, agentId, input, options) {
    let answer;
    try {
      answer = yield* runWorkflow(this.#workflows.get(agentId), {
        agent: agentId, agentDefinition: this.agent(agentId), input, variables: this.#visibleVariables(agentId, session), signal: options.signal,
      });
    } catch (error) {
      failedAt.set(session, { source: 'workflow', agent: agentId });
      throw error;
    }
    options.trace?.record(answer.recording);
    // As a model's answer streams before its guardrails run.
    if (answer.text.length > 0) yield { type: 'chunk', agent: agentId, text: answer.text };
    const tripped = await this.#guard('output', agentId, answer.text, session, input);
    if (tripped !== null) {
      return yield* tripGuardrail(session, tripped);
    }
    session.histories[agentId].push({ role: 'assistant', content: answer.text });
    if (answer.variables !== undefined) {
      const changed = this.#change(session, answer.variables, 'workflow');
      if (!changed.ok) yield { type: 'state_rejected', source: 'workflow', key: changed.key, message: changed.message };
      yield* this.#rules(session, options.trace);
    }
    return { text: answer.text, reason: 'answered' };
  }

  // A call of an agent tool (options.agentTools) by agent `caller`: the nested conversation's
  // events, each yielded as { type: 'agent_tool', agent: caller, tool, callId, event }, in a span of
  // its own; returns { kind: 'agent', value: its answer }.
  async *#agentToolCall(session, caller, call, outcome, extra, trace) {
    const { tool, arguments: args } = outcome;
    const target = this.#agentTools.get(tool);
    const conversation = trace.agentToolCall(caller, tool, target, call, (nestedTrace) => this.#askAgent(session, target, args, extra, nestedTrace));
    const value = yield* reported(conversation, (event) => ({ type: 'agent_tool', agent: caller, tool, callId: call.id, event }));
    return { kind: 'agent', value };
  }

  // The nested conversation of agent `targetId` for an agent tool's call, on the call's `input`
  // argument (or, without one, its arguments as JSON text), with a history of its own that starts
  // empty and is dropped after. It gets the turn's model, format, budget (maxModelCalls of its
  // own) and signal, is offered its own tools but no transfers (it answers for the caller: the
  // active agent stays), and may call its own agent tools (cycles are refused when the Swarm is
  // made). A workflow agent runs its machine instead. Yields its events as a turn would (chunk,
  // response, tool_use, tool_result, tool_mock_required, workflow_step, workflow_done, and the
  // agent_tool events of its own agent tools); returns its final answer.
  async *#askAgent(session, targetId, args, extra, trace) {
    const { options } = extra;
    const text = typeof args.input === 'string' ? args.input : JSON.stringify(args);
    const variables = this.#visibleVariables(targetId, session);
    if (this.#workflows.has(targetId)) {
      const answer = yield* runWorkflow(this.#workflows.get(targetId), { agent: targetId, agentDefinition: this.agent(targetId), input: text, variables, signal: options.signal });
      trace.record(answer.recording);
      if (answer.text.length > 0) yield { type: 'chunk', agent: targetId, text: answer.text };
      if (answer.variables !== undefined) {
        const changed = this.#change(session, answer.variables, 'workflow');
        if (!changed.ok) throw new RangeError(`workflow of agent '${targetId}': ${changed.message}`);
      }
      return answer.text;
    }
    const { toolFormat, jsonSchema, maxModelCalls, signal } = options;
    // The core's view of the nested agent: the session's counters and variables, this agent active.
    const nested = () => ({ format: SESSION_FORMAT, active: targetId, hops: session.hops, selections: session.selections, variables: session.variables });
    const transfers = new Set(this.offered(nested()).map((t) => t.name));
    const history = [{ role: 'user', content: text }];
    let last = '';
    for (let calls = 0; calls < maxModelCalls; calls++) {
      signal?.throwIfAborted();
      yield* this.#mcpRefresh(targetId, signal);
      const answer = yield* this.#callModel(targetId, session, history, withoutTools(this.tools(nested(), toolFormat, { jsonSchema }), transfers), options, trace);
      if (answer.text.length > 0) last = answer.text;
      history.push({ role: 'assistant', content: answer.text, ...(answer.toolCalls.length > 0 ? { toolCalls: clone(answer.toolCalls) } : {}) });
      if (answer.toolCalls.length === 0) return answer.text;
      for (const call of answer.toolCalls) {
        const tag = this.#mcpTag(targetId, call.name);
        if (!answer.announced) yield { type: 'tool_use', agent: targetId, call: clone(call), ...tag };
        const { result, outcome } = yield* this.#nestedToolCall(session, targetId, call, transfers, nested(), extra, trace);
        history.push(toolMessage(call, result));
        yield { type: 'tool_result', agent: targetId, call: clone(call), result, outcome, ...tag };
      }
    }
    return last;
  }

  // One model call of agent `agentId`, whose conversation so far is `history`, offered `tools`;
  // resolves the answer read through `trace`, after a `response` event when the model gave a raw
  // answer. The request holds plain values: what the model function keeps or changes never
  // reaches the session. One copy of the history serves both `messages` (the instructions, then
  // the history) and `history`.
  async *#callModel(agentId, session, history, tools, { model, toolFormat, signal, agentConfig }, trace) {
    const instructions = this.#instructionsOf(agentId, session);
    const messages = copyMessages([...(instructions ? [{ role: 'system', content: instructions }] : []), ...history]);
    const request = {
      agent: this.agent(agentId), messages, tools, toolFormat, instructions,
      history: messages.slice(messages.length - history.length), variables: this.#visibleVariables(agentId, session),
      config: agentConfig !== undefined && Object.hasOwn(agentConfig, agentId) ? clone(agentConfig[agentId]) : {}, signal,
    };
    const answer = yield* trace.modelCall(agentId, request, () => model(request), (result) => readModelAnswer(result, { agent: agentId, signal, tag: (call) => this.#mcpTag(agentId, call.name) }));
    if (answer.raw !== undefined) yield { type: 'response', agent: agentId, text: answer.text, toolCalls: clone(answer.toolCalls), finishReason: answer.finishReason ?? null, usage: answer.usage ?? null, raw: answer.raw };
    return answer;
  }

  // One tool call of a nested conversation: { result, outcome }, yielding the events of the tool
  // (an agent tool's nested conversation, tool_mock_required). Transfers and approvals are not run.
  async *#nestedToolCall(session, agentId, call, transfers, nested, extra, trace) {
    const skipped = (reason) => ({ result: `Not run: ${reason}.`, outcome: { type: 'not_run', reason } });
    if (transfers.has(call.name)) return skipped(`${agentId} is answering as a tool and cannot transfer the conversation`);
    const { outcome, result } = this.#core(nested, 'applyToolCall', 'applyToolCall', call.name, argumentsText(call), false, this.#mcpListed(agentId));
    if (outcome?.type === 'approval_required') return skipped(`${call.name} needs a person's approval, which an agent answering as a tool cannot ask for`);
    if (outcome?.type !== 'tool') return typeof result === 'string' && outcome !== null && typeof outcome === 'object' ? { result, outcome } : skipped(`${call.name} is not a tool of ${agentId}`);
    const ran = yield* this.#callTool(session, agentId, call, outcome, extra, trace);
    return { result: ran.result, outcome };
  }

  // Runs the agent's own tool that `outcome` names (an agent tool's nested conversation, else its
  // handler or mock), yielding the events of the run: { result (the text the model gets), by (what ran) }.
  async *#callTool(session, agentId, call, outcome, extra, trace) {
    let ran;
    if (outcome.mcp !== undefined) ran = await trace.toolCall(agentId, outcome.tool, call, () => this.#mcp.call(outcome, extra.options?.signal));
    else if (this.#agentTools.has(outcome.tool)) ran = yield* this.#agentToolCall(session, agentId, call, outcome, extra, trace);
    else ran = await trace.toolCall(agentId, outcome.tool, call, () => this.#runTool(session, outcome, call, extra));
    if (ran.kind === 'missing') yield { type: 'tool_mock_required', agent: agentId, tool: outcome.tool, arguments: clone(outcome.arguments) };
    return { result: typeof ran.value === 'string' ? ran.value : JSON.stringify(ran.value ?? null), by: ran.kind };
  }

  // The variables an agent's model requests carry: its visibleVariables (SwarmForge's visible
  // variables) that the session has, or all of them; copies.
  #visibleVariables(agentId, session) {
    const visible = this.#agents.get(agentId)?.visibleVariables;
    if (visible === undefined) return clone(session.variables);
    const out = {};
    for (const key of visible) {
      if (Object.hasOwn(session.variables, key)) put(out, key, clone(session.variables[key]));
    }
    return out;
  }

  // Acts on the tool calls of one model response, from `calls[from]` on: { handedOff } or
  // { paused: approvalId } when a call needs a human's approval (then it and the calls after it
  // wait in the session, with what the resumed turn needs). `approvedFirst`: calls[from] is approved;
  // `options` are the turn's (its status events, its trace).
  /** @param {{ input: string, toolState: unknown, announced: boolean, approvedFirst?: boolean, text?: string, options?: { trace?: typeof NO_TURN_TRACE, statusEvents?: boolean } }} how */
  async *#act(session, agentId, calls, from, how) {
    const { input, toolState, announced, approvedFirst = false, text = '', options = {} } = how;
    const trace = options.trace ?? NO_TURN_TRACE;
    const history = session.histories[agentId];
    for (let index = from; index < calls.length; index++) {
      const call = calls[index];
      const approved = approvedFirst && index === from;
      // A call that waited for approval was announced when it paused the turn.
      const tag = this.#mcpTag(agentId, call.name);
      if (!announced && !approved) yield { type: 'tool_use', agent: agentId, call: clone(call), ...tag };
      // Every tool call gets an answer in the history it belongs to, before any handoff copies it:
      // the result joins the source's history before a handoff carries that history along.
      let result;
      const outcome = this.#applyToolCall(session, call, (settled, settledResult) => {
        if (settled.type === 'tool' || settled.type === 'approval_required') return;  // answered below, or after the decision
        result = settledResult;
        history.push(toolMessage(call, result));
        if (settled.type === 'handoff') answerNotRun(history, calls.slice(index + 1), TRANSFERRED);
      }, approved);
      if (outcome.type === 'approval_required') {
        const approvalId = globalThis.crypto.randomUUID();
        const { kind, tool, to, edge, arguments: args } = outcome;
        const asked = { approvalId, agent: agentId, kind, tool, ...(kind === 'handoff' ? { to, edge } : {}), arguments: clone(args) };
        session.approvals = {
          ...(session.approvals ?? {}),
          [approvalId]: { ...clone(asked), status: 'pending', turn: session.turn, call: clone(call), calls: clone(calls), index, announced: Boolean(announced), input, text },
        };
        yield { type: 'approval_required', ...asked, call: clone(call) };
        return { paused: approvalId };
      }
      if (outcome.type === 'tool') {
        let by;
        try {
          ({ result, by } = yield* this.#callTool(session, agentId, call, clone(outcome), { input, toolState, options }, trace));
        } catch (error) {
          failedAt.set(session, { source: 'tool', agent: agentId, tool: outcome.tool });
          throw error;
        }
        history.push(toolMessage(call, result));
        checkpoint(session, { tool: outcome.tool, arguments: clone(outcome.arguments), result, by, ...(outcome.mcp === undefined ? {} : { server: outcome.mcp.server }) });
      } else if (outcome.type === 'handoff') {
        yield* this.#status(session, options, 'handoff_requested', { agent: agentId, to: outcome.to, reason: outcome.reason });
        yield { type: 'handoff', ...clone(outcome) };
      } else if (outcome.type === 'handoff_blocked') {
        yield { type: 'handoff_blocked', ...clone(outcome) };
      }
      yield { type: 'tool_result', agent: agentId, call: clone(call), result, outcome, ...tag };
      if (outcome.type === 'handoff') {
        yield* notRunEvents(agentId, calls.slice(index + 1), TRANSFERRED, announced);
        return { handedOff: true };
      }
    }
    return { handedOff: false };
  }

  // Runs agent `agentId`'s `kind` guardrails on `text`, in order: the first that trips, as
  // { kind, agent, guardrail (its index), reason }, or null.
  async #guard(kind, agentId, text, session, input) {
    const guardrails = this.#guardrails[kind].get(agentId);
    if (guardrails === undefined) return null;
    for (const [index, guardrail] of guardrails.entries()) {
      // Plain values: a guardrail reads copies and changes nothing.
      const verdict = await guardrail(text, { kind, agent: this.agent(agentId), variables: clone(session.variables), input });
      if (typeof verdict !== 'object' || verdict === null || typeof verdict.tripped !== 'boolean') {
        throw new TypeError(`${kind} guardrail ${index} of agent '${agentId}' must return { tripped: boolean, reason?: string }, got ${describe(verdict)}`);
      }
      if (verdict.reason !== undefined && typeof verdict.reason !== 'string') {
        throw new TypeError(`${kind} guardrail ${index} of agent '${agentId}': reason must be a string, got ${describe(verdict.reason)}`);
      }
      if (verdict.tripped) return { kind, agent: agentId, guardrail: index, reason: verdict.reason ?? null };
    }
    return null;
  }

  /**
   * Saves the turn to the store (when given one) and ends it with `done`.
   * @param {{ text: string, reason: string, approvalId?: string, answers?: object[], queued?: string[] }} ending
   */
  async *#finish(session, checkpointsBefore, options, ending) {
    const { store } = options;
    const { text, reason, approvalId, answers, queued } = ending;
    // A paused call waits for a human as a tool would: llm4s's WaitingForTools.
    yield* this.#status(session, options, reason === 'approval-required' ? 'waiting_for_tools' : 'complete');
    if (store !== undefined) {
      // The store keeps the checkpoint log; the session keeps only what this turn has not handed over.
      for (const checkpoint of session.checkpoints.slice(checkpointsBefore)) await store.appendCheckpoint(session.id, checkpoint);
      session.checkpoints = [];
      await store.save(session);
    }
    yield { type: 'done', agent: session.active, text, reason, ...(approvalId === undefined ? {} : { approvalId }), ...(answers === undefined ? {} : { answers, queued }), session };
  }

  /**
   * The swarm's DAG model (docs/format.md): agents (type 'agent'), edges with `via` ('rule',
   * 'llm', 'hybrid' or 'continuation') and `tool`. With `session`, its active agent is marked
   * `active` and each handoff its checkpoints record fires its edge (`checkpoints`: the log a
   * store keeps, for a session whose checkpoints were handed to one).
   */
  toDag(options) {
    return JSON.parse(this.#picture('dag', options, 'toDag', ['session', 'checkpoints']));
  }

  /**
   * Mermaid text: `kind` 'flowchart' (default: rules solid, LLM edges dotted, hybrids thick,
   * continuations end in a circle) or 'state' (a state diagram, each edge labelled by how it is
   * taken); `direction`; `session` as toDag's.
   */
  toMermaid(options) {
    return this.#picture('mermaid', options, 'toMermaid', ['session', 'checkpoints', 'kind', 'direction']);
  }

  /** Graphviz DOT text: rules solid, LLM edges dashed, hybrids bold, continuations dotted; `session` as toDag's. */
  toDot(options) {
    return this.#picture('dot', options, 'toDot', ['session', 'checkpoints']);
  }

  // The core draws (src/export/dag.cpp); it reads the session's active agent and handoffs itself.
  #picture(format, options, method, allowed) {
    const checked = checkOptions(options, allowed, `${method} options`);
    const { session, checkpoints } = checked;
    const { kind, direction } = pictureLayout(checked);
    let marks = '';
    if (session !== undefined) {
      checkSession(session, method);
      const log = checkpoints ?? session.checkpoints ?? [];
      if (!Array.isArray(log)) throw new TypeError(`${method}: checkpoints must be an array, got ${describe(log)}`);
      marks = coreJSON({ active: session.active, checkpoints: log });
    } else if (checkpoints !== undefined) {
      throw new TypeError(`${method}: checkpoints go with a session ({ session, checkpoints })`);
    }
    const out = this.#live.export(marks, format, kind, direction);
    if (out.error !== undefined) throw new TypeError(`${method}: ${out.error}`);
    return out.text;
  }

  dispose() {
    if (this.#native === null) return;
    this.#mcp?.close();
    release(this, this.#native);
    this.#native = null;
  }

  /** What console.log and util.inspect show: the agents, the entry, the edges by kind, or that it is disposed. */
  [inspectSymbol](_depth, options, inspect) {
    const name = this.#definition.name ? ` '${this.#definition.name}'` : '';
    if (this.#native === null) return `Swarm${name} <disposed>`;
    const edges = { rule: 0, llm: 0, hybrid: 0 };
    // How each edge is taken is the core's word (the DAG's `via`); a continuation is a rule.
    for (const { via } of this.toDag().edges) edges[via === 'continuation' ? 'rule' : via]++;
    const summary = { agents: this.#definition.agents.map((a) => a.id), edges };
    return inspection(`Swarm${name}`, summary, options, inspect);
  }
}
disposable(Swarm);
