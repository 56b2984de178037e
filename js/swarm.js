// Swarm: agents joined by rule edges (taken automatically when their condition holds, zero tokens)
// and LLM edges (offered to the active agent's model as transfer_to_<agent> tools), with limits,
// required variables, context policies and a turn loop (docs/handoffs.md).
//
// The decisions (which tools are offered, which rule fires, what a tool call does, tool names
// and schemas) are the C++ core's (src/handoff/). This file keeps the session, a plain JSON
// object the host can store anywhere, and runs the host's model function in runTurn().
import { DefinitionError } from './errors.js';
import { requireRuntime } from './runtime.js';

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

export const TOOL_FORMATS = Object.freeze(['openai-responses', 'openai-chat', 'anthropic', 'ai-sdk']);
const SESSION_FORMAT = 'handoff-graph/session';

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

const clone = (value) => JSON.parse(JSON.stringify(value));

// What the target of a handoff receives of the source's history.
const CONTEXT_POLICIES = {
  full: (messages) => messages,
  'last-user': (messages) => {
    const last = messages.findLast((m) => m.role === 'user');
    return last === undefined ? [] : [last];
  },
  none: () => [],
};

export class Swarm {
  #native;
  #definition;
  #agents = new Map();
  #contexts;

  /**
   * @param definition the swarm definition (docs/handoffs.md); `format` and `version` may be omitted
   * @param options `contexts`: custom context policies by name, `(messages, info) => messages`
   */
  constructor(definition, { contexts = {} } = {}) {
    if (typeof definition === 'string') definition = JSON.parse(definition);
    if (typeof definition !== 'object' || definition === null) throw new TypeError(`a swarm definition must be an object, got ${describe(definition)}`);
    const document = { format: 'handoff-graph/swarm', version: 1, ...definition };
    const { Swarm: NativeSwarm } = requireRuntime().module;
    const native = new NativeSwarm();
    const problems = native.load(JSON.stringify(document));
    if (problems !== null) {
      native.delete();
      throw new DefinitionError(problems);
    }
    this.#native = native;
    this.#definition = JSON.parse(native.toJSON());
    for (const agent of this.#definition.agents) this.#agents.set(agent.id, agent);
    this.#contexts = { ...CONTEXT_POLICIES };
    for (const [name, policy] of Object.entries(contexts)) {
      if (typeof policy !== 'function') throw new TypeError(`context policy '${name}' must be a function`);
      this.#contexts[name] = policy;
    }
    const missing = [this.#definition.context, ...this.#definition.edges.map((e) => e.context)].filter((c) => c !== undefined && !(c in this.#contexts));
    if (missing.length > 0) {
      native.delete();
      throw new DefinitionError(missing.map((c) => ({ pointer: '', message: `context policy '${c}' is neither full, last-user, none nor given in options.contexts` })));
    }
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
    const result = JSON.parse(this.#live[call](JSON.stringify({ active, hops, selections, variables }), ...args));
    if (result.error !== undefined) throw new TypeError(result.error);
    return result;
  }

  // Writes the core's view of the session back, moves the history along a handoff, checkpoints.
  // `settle(outcome)` runs before the history moves (runTurn adds the tool's result message).
  #commit(session, result, settle) {
    const before = session.active;
    Object.assign(session, { active: result.session.active, hops: result.session.hops, selections: result.session.selections, variables: result.session.variables });
    const outcome = result.outcome;
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
    if (outcome !== null) session.checkpoints.push({ turn: session.turn, hops: session.hops, active: session.active, outcome });
    return outcome;
  }

  /** The transfer tools the active agent is offered now, in an SDK's shape. */
  tools(session, format = 'openai-chat') {
    if (!TOOL_FORMATS.includes(format)) throw new TypeError(`format must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
    return this.#core(session, 'tools', format).tools;
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
    for (const [key, value] of Object.entries(variables)) {
      Object.defineProperty(session.variables, key, { value: clone(value), enumerable: true, writable: true, configurable: true });
    }
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
    if (typeof call !== 'object' || call === null || typeof call.name !== 'string') {
      throw new TypeError(`a tool call is { name, arguments }, got ${describe(call)}`);
    }
    const args = call.arguments ?? call.input ?? call.args ?? {};
    const text = typeof args === 'string' ? args : JSON.stringify(args);
    return this.#commit(session, this.#core(session, 'applyToolCall', call.name, text === undefined ? 'null' : text), settle);
  }

  // The tool result a model gets back for a transfer call.
  #toolResult(outcome) {
    if (outcome.type === 'handoff') return `Transferred to ${this.#agents.get(outcome.to)?.name ?? outcome.to}.`;
    if (outcome.type === 'handoff_blocked') return outcome.rejectionReason;
    return `Error: ${outcome.reason}`;
  }

  /** The messages the active agent's model gets: its instructions, then its history. */
  messages(session) {
    const agent = this.#agents.get(session.active);
    return [...(agent?.instructions ? [{ role: 'system', content: agent.instructions }] : []), ...session.histories[session.active]];
  }

  /**
   * One user turn. `model({ agent, messages, tools })` is the host's single model call; it returns
   * { text?, toolCalls?: [{ id?, name, arguments }] }. Yields events: open, handoff,
   * handoff_blocked, tool_use, tool_result, chunk, done.
   */
  async *runTurn(session, input, { model, toolFormat = 'openai-chat', maxModelCalls = 10, signal, store } = {}) {
    if (typeof model !== 'function') throw new TypeError('runTurn needs { model }: a function ({ agent, messages, tools }) => { text, toolCalls }');
    if (typeof input !== 'string') throw new TypeError(`input must be a string, got ${describe(input)}`);
    session.turn += 1;
    yield { type: 'open', agent: session.active, turn: session.turn };
    session.histories[session.active].push({ role: 'user', content: input });
    for (let outcome = this.applyRules(session); outcome !== null; outcome = this.applyRules(session)) {
      yield { type: 'handoff', ...outcome };
    }
    let text = '';
    for (let calls = 0; calls < maxModelCalls; calls++) {
      signal?.throwIfAborted();
      const agentId = session.active;
      const agent = this.#agents.get(agentId);
      const response = (await model({ agent, messages: this.messages(session), tools: this.tools(session, toolFormat) })) ?? {};
      const history = session.histories[agentId];
      if (typeof response.text === 'string' && response.text.length > 0) {
        text = response.text;
        yield { type: 'chunk', agent: agentId, text };
      }
      const toolCalls = Array.isArray(response.toolCalls) ? response.toolCalls : [];
      history.push({ role: 'assistant', content: response.text ?? '', ...(toolCalls.length > 0 ? { toolCalls: clone(toolCalls) } : {}) });
      if (toolCalls.length === 0) break;
      let handedOff = false;
      for (const call of toolCalls) {
        yield { type: 'tool_use', agent: agentId, call };
        if (handedOff) {
          // The conversation moved on: later calls of the same response are not run.
          history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: 'Not run: the conversation was transferred.' });
          continue;
        }
        // The result joins the source's history before a handoff carries that history along, so
        // that every tool call in the target's context has its answer.
        let result;
        const outcome = this.#applyToolCall(session, call, (settled) => {
          result = this.#toolResult(settled);
          history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result });
        });
        if (outcome.type === 'handoff') {
          handedOff = true;
          yield { type: 'handoff', ...outcome };
        } else if (outcome.type === 'handoff_blocked') {
          yield { type: 'handoff_blocked', ...outcome };
        }
        yield { type: 'tool_result', agent: agentId, call, result, outcome };
      }
      if (handedOff) {
        for (let outcome = this.applyRules(session); outcome !== null; outcome = this.applyRules(session)) {
          yield { type: 'handoff', ...outcome };
        }
      }
    }
    if (store !== undefined) await store.save(session);
    yield { type: 'done', agent: session.active, text, session };
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
