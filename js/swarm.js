// Swarm: agents joined by rule edges (taken automatically when their condition holds, zero tokens)
// and LLM edges (offered to the active agent's model as transfer_to_<agent> tools), with limits,
// required variables, context policies and a turn loop (docs/handoffs.md).
//
// The decisions (which tools are offered, which rule fires, what a tool call does, tool names
// and schemas) are the C++ core's (src/handoff/). This file keeps the session, a plain JSON
// object the host can store anywhere, and runs the host's model function in runTurn().
import { DefinitionError } from './errors.js';
import { disposeSymbol, registry } from './lifetime.js';
import { copyMessages, readModelAnswer, restoreSession, snapshotSession } from './model-answer.js';
import { REDUCERS } from './reducers.js';
import { requireRuntime } from './runtime.js';
import { describe, wellFormed } from './text.js';
import { normalizeToolCall } from './tool-calls.js';

export const TOOL_FORMATS = Object.freeze(['openai-responses', 'openai-chat', 'anthropic', 'ai-sdk']);
const SESSION_FORMAT = 'handoff-graph/session';

const clone = (value) => JSON.parse(JSON.stringify(value));

// JSON text for the core, which reads UTF-8: lone surrogates in strings and keys become U+FFFD
// (JSON.stringify would write them as \ud800 escapes, which are not Unicode). Nesting too deep
// for the engine to serialize is a DefinitionError, not a RangeError from deep inside.
function coreJSON(value) {
  try {
    return JSON.stringify(value, (key, v) => {
      if (typeof v === 'string') return wellFormed(v);
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).some((k) => !k.isWellFormed())) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormed(k), x]));
      }
      return v;
    });
  } catch (error) {
    if (error instanceof RangeError) throw new DefinitionError([{ pointer: '', message: 'the value nests too deeply to read' }]);
    throw error;
  }
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
  if (typeof given !== 'object' || given === null) throw new TypeError(`options.${kind} must be an object, got ${describe(given)}`);
  for (const [name, fn] of Object.entries(given)) {
    if (!known.has(name)) problems.push({ pointer: '', message: `options.${kind}.${name}: no ${kind === 'instructions' ? 'agent' : 'tool'} '${name}' in the definition` });
    else out.set(name, fn);
  }
  return { out, problems };
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

  /**
   * @param definition the swarm definition (docs/handoffs.md); `format` and `version` may be omitted
   * @param options `contexts`: custom context policies by name, `(messages, info) => messages`;
   *   `handlers` / `mocks`: by tool name; `instructions`: functions by agent id; `reducers`: by
   *   variable; `state`: { normalize(key, value, ctx), validate(key, value, ctx) };
   *   `extractVariables(input, ctx)`: variables taken from each user input
   */
  constructor(definition, { contexts = {}, handlers = {}, mocks = {}, instructions = {}, reducers = {}, state = {}, extractVariables } = {}) {
    if (typeof definition === 'string') {
      try {
        definition = JSON.parse(definition);
      } catch (error) {
        throw new DefinitionError([{ pointer: '', message: error instanceof RangeError ? 'the definition nests too deeply to read' : 'not valid JSON' }]);
      }
    }
    if (typeof definition !== 'object' || definition === null) throw new TypeError(`a swarm definition must be an object, got ${describe(definition)}`);
    const document = { format: 'handoff-graph/swarm', version: 1, ...definition };
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
    this.#contexts = Object.assign(Object.create(null), CONTEXT_POLICIES);
    for (const [name, policy] of Object.entries(contexts)) {
      if (typeof policy !== 'function') {
        native.delete();
        throw new TypeError(`context policy '${name}' must be a function`);
      }
      this.#contexts[name] = policy;
    }
    const missing = [this.#definition.context, ...this.#definition.edges.map((e) => e.context)].filter((c) => c !== undefined && !(c in this.#contexts));
    const problems = missing.map((c) => ({ pointer: '', message: `context policy '${c}' is neither full, last-user, none nor given in options.contexts` }));
    const toolNames = new Set(this.#definition.agents.flatMap((a) => (a.tools ?? []).map((t) => t.name)));
    const bound = [bindFunctions('handlers', handlers, toolNames), bindFunctions('mocks', mocks, toolNames), bindFunctions('instructions', instructions, new Set(this.#agents.keys()))];
    [this.#handlers, this.#mocks, this.#instructions] = bound.map((b) => b.out);
    problems.push(...bound.flatMap((b) => b.problems));
    for (const [key, reducer] of Object.entries(reducers)) {
      if (typeof reducer === 'function') this.#reducers.set(key, reducer);
      else if (Object.hasOwn(REDUCERS, reducer)) this.#reducers.set(key, REDUCERS[reducer]);
      else problems.push({ pointer: '', message: `options.reducers.${key} must be 'replace', 'append', 'merge', 'sum' or a function` });
    }
    if (problems.length > 0) {
      native.delete();
      throw new DefinitionError(problems);
    }
    if (typeof state !== 'object' || state === null) throw new TypeError(`options.state must be an object, got ${describe(state)}`);
    this.#hooks = state;
    if (extractVariables !== undefined && typeof extractVariables !== 'function') throw new TypeError('options.extractVariables must be a function');
    this.#extract = extractVariables;
    registry?.register(this, native, this);
  }

  static fromJSON(definition, options) {
    return new Swarm(definition, options);
  }

  get #live() {
    if (this.#native === null) throw new Error('this Swarm has been disposed; create a new one');
    return this.#native;
  }

  /** The definition, with every tool name resolved. */
  toJSON() {
    return JSON.parse(this.#live.toJSON());
  }

  get name() {
    return this.#definition.name ?? '';
  }

  /** The agent `id` (id, name, description, instructions, entry, handoffs), or undefined. */
  agent(id) {
    return this.#agents.get(id);
  }

  /** A new session: plain JSON, at the entry agent. */
  createSession({ id, variables = {} } = {}) {
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
      throw new TypeError(`variables must be an object, got ${describe(variables)}`);
    }
    const entry = this.#definition.agents.find((a) => a.entry) ?? this.#definition.agents[0];
    return {
      format: SESSION_FORMAT,
      version: 0,
      id: id ?? globalThis.crypto.randomUUID(),
      swarm: this.name,
      active: entry.id,
      hops: 0,
      turn: 0,
      selections: {},
      variables: clone(variables),
      histories: Object.fromEntries(this.#definition.agents.map((a) => [a.id, []])),
      checkpoints: [],
    };
  }

  #core(session, call, ...args) {
    if (typeof session !== 'object' || session === null || session.format !== SESSION_FORMAT) {
      throw new TypeError(`expected a session from swarm.createSession(), got ${describe(session)}`);
    }
    const { active, hops, selections, variables } = session;
    const result = JSON.parse(this.#live[call](coreJSON({ active, hops, selections, variables }), ...args));
    if (result.error !== undefined) throw new TypeError(result.error);
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
      if (typeof this.#hooks.normalize === 'function') value = this.#hooks.normalize(key, value, ctx);
      const reducer = this.#reducers.get(key) ?? REDUCERS.replace;
      const merged = reducer(Object.hasOwn(next, key) ? next[key] : undefined, value, key);
      if (typeof this.#hooks.validate === 'function') {
        const verdict = this.#hooks.validate(key, merged, ctx);
        if (verdict === false || typeof verdict === 'string') {
          return { ok: false, key, message: typeof verdict === 'string' ? verdict : `the value of '${key}' is not valid` };
        }
      }
      Object.defineProperty(next, key, { value: clone(merged), enumerable: true, writable: true, configurable: true });
    }
    session.variables = next;
    return { ok: true };
  }

  // Writes the core's view of the session back, moves the history along a handoff, checkpoints.
  // `settle(outcome)` runs before the history moves (runTurn adds the tool's result message).
  #commit(session, result, settle) {
    const before = session.active;
    let outcome = result.outcome;
    if (outcome !== null && outcome.type === 'handoff' && outcome.via === 'tool' && Object.keys(outcome.variables).length > 0) {
      // What the model supplied goes through the reducers and state hooks; a refusal blocks the handoff.
      const saved = session.variables;
      const changed = this.#change(session, outcome.variables, 'tool');
      if (!changed.ok) {
        session.variables = saved;
        outcome = {
          type: 'handoff_blocked', from: outcome.from, to: outcome.to, tool: outcome.tool, missing: [], invalid: [{ name: changed.key, expected: 'a valid value' }],
          rejectionReason: `Cannot transfer to ${this.#agents.get(outcome.to)?.name ?? outcome.to} yet: ${changed.message}. Correct it, then call ${outcome.tool} again.`,
        };
        settle?.(outcome);
        session.checkpoints.push({ turn: session.turn, hops: session.hops, active: session.active, outcome });
        return outcome;
      }
    }
    Object.assign(session, { active: result.session.active, hops: result.session.hops, selections: result.session.selections });
    settle?.(outcome);
    if (outcome !== null && outcome.type === 'handoff') {
      const edge = this.#definition.edges.find((e) => e.from === before && e.to === outcome.to && (outcome.via === 'rule' ? e.when !== undefined && e.offer !== true : e.toolName === outcome.tool));
      const name = edge?.context ?? this.#definition.context;
      const includeSystem = edge?.includeSystem ?? this.#definition.includeSystem;
      const source = session.histories[before] ?? [];
      const carried = this.#contexts[name](source.map(clone), { from: before, to: outcome.to, edge, session });
      if (!Array.isArray(carried)) throw new TypeError(`context policy '${name}' must return an array of messages`);
      const agent = this.#agents.get(before);
      session.histories[outcome.to] = [
        ...(includeSystem && agent?.instructions ? [{ role: 'system', content: agent.instructions, agent: before }] : []),
        ...carried,
      ];
    }
    if (outcome !== null && outcome.type !== 'tool') session.checkpoints.push({ turn: session.turn, hops: session.hops, active: session.active, outcome });
    return outcome;
  }

  /**
   * The tools the active agent is offered now (its own, then the transfers), in an SDK's shape.
   * For 'ai-sdk', pass `{ jsonSchema }` from 'ai' to get a ToolSet-ready object.
   */
  tools(session, format = 'openai-chat', { jsonSchema } = {}) {
    if (!TOOL_FORMATS.includes(format)) throw new TypeError(`format must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
    const tools = this.#core(session, 'tools', format).tools;
    if (format !== 'ai-sdk' || jsonSchema === undefined) return tools;
    if (typeof jsonSchema !== 'function') throw new TypeError("jsonSchema must be the jsonSchema function from 'ai'");
    return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, { ...tool, inputSchema: jsonSchema(tool.inputSchema), strict: true }]));
  }

  /** Names and targets of the tools offered now: [{ name, to }]. */
  offered(session) {
    return this.#core(session, 'tools', 'openai-chat').offered;
  }

  /** Takes the first rule edge that holds (if any): the handoff outcome, or null. */
  applyRules(session) {
    return this.#commit(session, this.#core(session, 'applyRules'));
  }

  /** Merges `variables` into the session, then applies the rules: a handoff outcome, or null. */
  updateState(session, variables) {
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
      throw new TypeError(`variables must be an object, got ${describe(variables)}`);
    }
    const changed = this.#change(session, variables, 'host');
    if (!changed.ok) throw new RangeError(`updateState: ${changed.message}`);
    return this.applyRules(session);
  }

  /**
   * What a model's tool call does: { type: 'handoff', from, to, variables, … },
   * { type: 'handoff_blocked', rejectionReason, missing, invalid, … } or { type: 'rejected', reason }.
   * Only a handoff changes the session.
   */
  applyToolCall(session, call) {
    return this.#applyToolCall(session, call, undefined);
  }

  #applyToolCall(session, call, settle) {
    call = normalizeToolCall(call);
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
    return this.#commit(session, this.#core(session, 'applyToolCall', call.name, text === undefined ? 'null' : text), settle);
  }

  // The tool result a model gets back for a transfer call.
  #toolResult(outcome) {
    if (outcome.type === 'handoff') return `Transferred to ${this.#agents.get(outcome.to)?.name ?? outcome.to}.`;
    if (outcome.type === 'handoff_blocked') return outcome.rejectionReason;
    return `Error: ${outcome.reason}`;
  }

  /** The text runTurn gives the model as the result of a transfer call with this outcome. */
  toolResult(outcome) {
    if (!['handoff', 'handoff_blocked', 'rejected'].includes(outcome?.type)) throw new TypeError(`toolResult takes a handoff, handoff_blocked or rejected outcome, got ${describe(outcome)}`);
    return this.#toolResult(outcome);
  }

  /** The active agent's instructions now (a bound function of { state, agent, session }, or the text). */
  instructions(session) {
    const agent = this.#agents.get(session.active);
    const dynamic = this.#instructions.get(session.active);
    return dynamic === undefined ? agent?.instructions ?? '' : String(dynamic({ state: session.variables, agent, session }));
  }

  /** The messages the active agent's model gets: its instructions, then its history. */
  messages(session) {
    const instructions = this.instructions(session);
    return [...(instructions ? [{ role: 'system', content: instructions }] : []), ...session.histories[session.active]];
  }

  // Runs one of the agent's own tools: its handler, else its mock, else tool_mock_required.
  async #runTool(session, outcome, call, extra) {
    const { tool, arguments: args } = outcome;
    const ctx = {
      session, state: session.variables, agent: this.#agents.get(outcome.agent), input: extra.input, toolState: extra.toolState, call,
      setVariables: (variables) => this.#change(session, variables, 'handler'),
    };
    const handler = this.#handlers.get(tool);
    const mock = this.#mocks.get(tool);
    if (handler !== undefined) return { kind: 'handler', value: await handler(args, ctx) };
    if (mock !== undefined) return { kind: 'mock', value: typeof mock === 'function' ? await mock(args, ctx) : clone(mock) };
    return {
      kind: 'missing',
      value: { error: 'tool_mock_required', tool, message: `Tool '${tool}' has no handler and no mock in this environment; continue without its result.` },
    };
  }

  /**
   * One user turn. `model(request)` is the host's single model call (request: agent, messages,
   * tools, instructions, history, variables, config, toolFormat, signal); it returns
   * { text?, toolCalls?, raw? } or an async iterable of stream parts (js/model-answer.js). Yields
   * events: open, handoff, handoff_blocked, tool_use, tool_result, chunk, response, done. A turn
   * that ends because `signal` aborted leaves the session exactly as it was before the turn.
   */
  async *runTurn(session, input, options = {}) {
    const signal = options?.signal;
    // Copied only when the turn can be aborted: a turn without a signal pays nothing.
    const before = signal === undefined || typeof session !== 'object' || session === null || session.format !== SESSION_FORMAT ? undefined : snapshotSession(session);
    try {
      yield* this.#turn(session, input, options);
    } catch (error) {
      if (before !== undefined && signal.aborted) restoreSession(session, before);
      throw error;
    }
  }

  async *#turn(session, input, { model, toolFormat, jsonSchema, maxModelCalls = 10, signal, store, toolState, agentConfig } = {}) {
    if (typeof model !== 'function') throw new TypeError('runTurn needs { model }: a function ({ agent, messages, tools }) => { text, toolCalls }');
    if (typeof input !== 'string') throw new TypeError(`input must be a string, got ${describe(input)}`);
    session.turn += 1;
    const checkpointsBefore = session.checkpoints.length;
    yield { type: 'open', agent: session.active, turn: session.turn };
    if (this.#extract !== undefined) {
      const extracted = await this.#extract(input, { session, agent: session.active });
      if (extracted !== undefined && extracted !== null) {
        const changed = this.#change(session, extracted, 'extract');
        if (!changed.ok) yield { type: 'state_rejected', source: 'extract', key: changed.key, message: changed.message };
      }
    }
    for (let outcome = this.applyRules(session); outcome !== null; outcome = this.applyRules(session)) {
      yield { type: 'handoff', ...outcome };
    }
    // The question goes to whichever agent the rules settled on.
    session.histories[session.active].push({ role: 'user', content: input });
    let text = '';
    let reason = 'max-model-calls';
    for (let calls = 0; calls < maxModelCalls; calls++) {
      signal?.throwIfAborted();
      const agentId = session.active;
      const agent = this.#agents.get(agentId);
      // Plain values: what the model function keeps or changes never reaches the session.
      const format = toolFormat ?? model.toolFormat ?? 'openai-chat';
      // One copy of the history serves both `messages` (the instructions, then the history) and `history`.
      const messages = copyMessages(this.messages(session));
      const request = {
        agent, messages, tools: this.tools(session, format, { jsonSchema }), toolFormat: format,
        instructions: this.instructions(session), history: messages.slice(messages.length - session.histories[agentId].length), variables: clone(session.variables),
        config: agentConfig !== undefined && Object.hasOwn(agentConfig, agentId) ? clone(agentConfig[agentId]) : {}, signal,
      };
      const answer = yield* readModelAnswer(await model(request), { agent: agentId, signal });
      const history = session.histories[agentId];
      if (answer.text.length > 0) text = answer.text;
      if (answer.raw !== undefined) yield { type: 'response', agent: agentId, text: answer.text, toolCalls: clone(answer.toolCalls), finishReason: answer.finishReason ?? null, usage: answer.usage ?? null, raw: answer.raw };
      const toolCalls = answer.toolCalls;
      history.push({ role: 'assistant', content: answer.text, ...(toolCalls.length > 0 ? { toolCalls: clone(toolCalls) } : {}) });
      if (toolCalls.length === 0) {
        reason = 'answered';
        break;
      }
      // Every tool call gets an answer in the history it belongs to, before any handoff copies it.
      const notRun = (from, why) => {
        for (const later of toolCalls.slice(from)) history.push({ role: 'tool', toolCallId: later.id, name: later.name, content: `Not run: ${why}.` });
      };
      if (session.active !== agentId) {
        // The session moved while the model was answering (the host changed its state): this
        // response's calls belong to an agent that is no longer active.
        notRun(0, 'the conversation was transferred while this call was made');
        continue;
      }
      let handedOff = false;
      for (const [index, call] of toolCalls.entries()) {
        if (!answer.announced) yield { type: 'tool_use', agent: agentId, call };
        // The result joins the source's history before a handoff carries that history along, so
        // that every tool call in the target's context has its answer.
        let result;
        const outcome = this.#applyToolCall(session, call, (settled) => {
          if (settled.type === 'tool') return;  // its result comes from the handler, below
          result = this.#toolResult(settled);
          history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result });
          if (settled.type === 'handoff') notRun(index + 1, 'the conversation was transferred');
        });
        if (outcome.type === 'tool') {
          const ran = await this.#runTool(session, outcome, call, { input, toolState });
          if (ran.kind === 'missing') yield { type: 'tool_mock_required', agent: agentId, tool: outcome.tool, arguments: outcome.arguments };
          result = typeof ran.value === 'string' ? ran.value : JSON.stringify(ran.value ?? null);
          history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result });
          session.checkpoints.push({ turn: session.turn, hops: session.hops, active: session.active, tool: outcome.tool, arguments: outcome.arguments, result, by: ran.kind });
        } else if (outcome.type === 'handoff') {
          handedOff = true;
          yield { type: 'handoff', ...outcome };
        } else if (outcome.type === 'handoff_blocked') {
          yield { type: 'handoff_blocked', ...outcome };
        }
        yield { type: 'tool_result', agent: agentId, call, result, outcome };
        if (handedOff) break;
      }
      if (handedOff) {
        for (let outcome = this.applyRules(session); outcome !== null; outcome = this.applyRules(session)) {
          yield { type: 'handoff', ...outcome };
        }
      }
    }
    if (store !== undefined) {
      // The store keeps the checkpoint log; the session keeps only what this turn has not handed over.
      for (const checkpoint of session.checkpoints.slice(checkpointsBefore)) await store.appendCheckpoint(session.id, checkpoint);
      session.checkpoints = [];
      await store.save(session);
    }
    yield { type: 'done', agent: session.active, text, reason, session };
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
