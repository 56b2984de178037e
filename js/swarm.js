// @ts-check
// Swarm: agents joined by rule edges (taken automatically when their condition holds, zero tokens)
// and LLM edges (offered to the active agent's model as transfer_to_<agent> tools), with limits,
// required variables, context policies and a turn loop (docs/handoffs.md).
//
// The decisions (which tools are offered, which rule fires, what a tool call does, tool names
// and schemas) are the C++ core's (src/handoff/). This file is the public class: it checks
// arguments and hands each method to the file of js/swarm/ that does the work, split by
// responsibility as openai-agents-js splits its runner (docs/architecture.md, "A turn, file by
// file"):
//
//   definition.js           the definition loaded by the core, the constructor's options checked
//   core.js                 what crosses into the wasm Swarm binding (JSON text, session checks)
//   routing.js              the core's decisions acted on: rules, tool calls, tools offered
//   variables.js            the session's variables: reducers, state hooks, visible variables
//   turn.js                 runTurn: one user turn, from the top
//   turn-options.js         runTurn's and resolveApproval's options
//   intents.js              queued intents, answered one after another
//   conversation.js         the model calls of a turn, until an answer (or a workflow agent's run)
//   model-call.js           one model call: the request, the answer read
//   response-tool-calls.js  the tool calls of one model response acted on, in order
//   tool-execution.js       where a tool call is executed: MCP, agent tool, handler, mock
//   approvals.js            a call that needs a person's approval: the pause and the decision
//   resume.js               resolveApproval: the paused turn resumed
//   guardrails.js           input and output guardrails
//   status.js               a turn's status, and a failed or aborted turn undone
//   checkpoints.js          the checkpoint log, and the end of a turn saved to the store
//   between-turns.js        the host's changes between turns, recorded in the trace log
//   mcp.js                  the tools of an agent's MCP servers
//   host-tool-call.js       a tool call applied without a model, for createMcpServer
//
// The session is a plain JSON object the host can store anywhere. The Swarm's internals
// (definition.js, SwarmInternals) live in one private field: nothing of them shows on the object.
import { checkReport } from './check-symbol.js';
import { pictureLayout } from './export.js';
import { adopt, disposable, disposedError, inspection, inspectSymbol, release } from './lifetime.js';
import { hostToolCall, refreshMcpTools, watchMcpTools } from './mcp/host-symbols.js';
import { checkOptions } from './options.js';
import { replaySwarm } from './replay.js';
import { describe, describeGiven } from './text.js';
import { TOOL_FORMATS } from './tool-calls.js';
import { clone, isRecord } from './values.js';
import { outside } from './swarm/between-turns.js';
import { checkSession, coreJSON, SESSION_FORMAT } from './swarm/core.js';
import { agentCopy, loadSwarm, nameOf } from './swarm/definition.js';
import { hostToolCall as applyHostToolCall } from './swarm/host-tool-call.js';
import { refreshActiveMcp, watchMcp } from './swarm/mcp.js';
import { instructionsOf } from './swarm/model-call.js';
import { resolveApproval } from './swarm/resume.js';
import { applyRules, applyToolCall, offeredTools, offeredTransfers, toolResult } from './swarm/routing.js';
import { runTurn } from './swarm/turn.js';
import { change } from './swarm/variables.js';

export { TOOL_FORMATS };

/**
 * @import {
 *   CheckReport, HandoffOutcome, Message, RecordingLine, RunTurnOptions, Session, SwarmAgent, SwarmDag, SwarmDefinition,
 *   SwarmEvent, SwarmOptions, SwarmPictureOptions, SwarmReplayReport, ToolCallInput, ToolFormat, ToolSchema, ToolsByFormat,
 * } from './index.js'
 * @import { NativeSwarm, SwarmInternals } from './swarm/definition.js'
 */

export class Swarm {
  /** @type {NativeSwarm | null} */
  #native;
  /** @type {SwarmInternals} */
  #sw;

  /**
   * @param {SwarmDefinition | string} definition the swarm definition (docs/handoffs.md); `format` and `version` may be omitted
   * @param {SwarmOptions} [options] `contexts`: custom context policies by name, `(messages, info) => messages`;
   *   `handlers` / `mocks`: by tool name; `instructions`: functions by agent id; `reducers`: by
   *   variable; `state`: { normalize(key, value, ctx), validate(key, value, ctx) };
   *   `extractVariables(input, ctx)`: variables taken from each user input
   */
  constructor(definition, options) {
    if (definition === undefined) throw new TypeError('new Swarm(definition, options): the definition is missing');
    const { native, internals } = loadSwarm(definition, options, () => this.#live);
    this.#native = native;
    this.#sw = internals;
    adopt(this, native);
  }

  /**
   * @param {SwarmDefinition | string} definition
   * @param {SwarmOptions} [options]
   * @returns {Swarm}
   */
  static fromJSON(definition, options) {
    return new Swarm(definition, options);
  }

  /** @returns {NativeSwarm} */
  get #live() {
    if (this.#native === null) throw disposedError('Swarm');
    return this.#native;
  }

  /**
   * check()'s report (js/check.js).
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @returns {CheckReport}
   */
  [checkReport]() {
    // The core answers null only for a holder with no swarm loaded, which no Swarm is (its
    // constructor throws then).
    return /** @type {CheckReport} */ (this.#live.check());
  }

  /**
   * The definition, with every tool name resolved.
   * @returns {Required<Pick<SwarmDefinition, 'format' | 'version'>> & SwarmDefinition}
   */
  toJSON() {
    return JSON.parse(this.#live.toJSON());
  }

  /** @returns {string} */
  get name() {
    return nameOf(this.#sw);
  }

  /**
   * A copy of the agent `id` (id, name, description, instructions, entry, handoffs, tools), or undefined.
   * @param {string} id
   * @returns {SwarmAgent | undefined}
   */
  agent(id) {
    return agentCopy(this.#sw, id);
  }

  /**
   * A new session: plain JSON, at the entry agent (the core names it).
   * @param {{ id?: string, variables?: Record<string, unknown> }} [options]
   * @returns {Session}
   */
  createSession(options) {
    const { id, variables = {} } = checkOptions(options, ['id', 'variables'], 'createSession options');
    if (id !== undefined && (typeof id !== 'string' || id.length === 0)) throw new TypeError(`createSession: id must be a non-empty string, got ${describe(id)}`);
    if (!isRecord(variables)) {
      throw new TypeError(`createSession: variables must be an object, got ${describe(variables)}`);
    }
    /** @type {{ active: string, hops: number, selections: Record<string, number> }} */
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
      histories: Object.fromEntries(this.#sw.definition.agents.map((a) => [a.id, []])),
      checkpoints: [],
    };
  }

  /**
   * The tools the active agent is offered now (its own, then the transfers), in an SDK's shape.
   * For 'ai-sdk', pass `{ jsonSchema }` from 'ai' to get a ToolSet-ready object.
   * @template {ToolFormat} [F='openai-chat']
   * @overload
   * @param {Session} session
   * @param {F} [format]
   * @returns {ToolsByFormat[F]}
   */
  /**
   * The AI SDK shape with each schema wrapped by `jsonSchema` from 'ai', ready for a ToolSet.
   * @template S
   * @overload
   * @param {Session} session
   * @param {'ai-sdk'} format
   * @param {{ jsonSchema: (schema: ToolSchema) => S }} options
   * @returns {Record<string, { description: string, inputSchema: S, strict: boolean }>}
   */
  /**
   * @param {Session} session
   * @param {ToolFormat} [format]
   * @param {{ jsonSchema?: (schema: ToolSchema) => unknown }} [options]
   * @returns {unknown} the core's tools in `format`'s shape
   */
  tools(session, format = 'openai-chat', options) {
    return offeredTools(this.#sw, session, format, options);
  }

  /**
   * Names and targets of the tools offered now: [{ name, to }].
   * @param {Session} session
   * @returns {Array<{ name: string, to: string }>}
   */
  offered(session) {
    return offeredTransfers(this.#sw, session);
  }

  /**
   * createMcpServer's: lists the active agent's MCP servers again where their lists changed; resolves the failures.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {Session} session
   * @param {AbortSignal} [signal]
   * @returns {Promise<Array<{ server: string, message: string }>>}
   */
  async [refreshMcpTools](session, signal) {
    return refreshActiveMcp(this.#sw, session, signal);
  }

  /**
   * createMcpServer's: `listener(server, agents)` when an MCP server's tool list changed (`agents`: the ids of those that name it); returns what stops it.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {(server: string, agents: string[]) => void} listener
   * @returns {() => unknown}
   */
  [watchMcpTools](listener) {
    return watchMcp(this.#sw, listener);
  }

  /**
   * createMcpServer's: a tool call of the active agent's model as runTurn applies it, without a
   * model: { outcome, result, by? } (js/swarm/host-tool-call.js).
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {Session} session
   * @param {ToolCallInput} call
   * @param {{ signal?: AbortSignal, toolState?: unknown, approved?: boolean }} [how]
   */
  async [hostToolCall](session, call, how = {}) {
    return applyHostToolCall(this.#sw, session, call, how);
  }

  /**
   * Takes the first rule edge that holds (if any): the handoff outcome, or null.
   * @param {Session} session
   * @returns {HandoffOutcome | null}
   */
  applyRules(session) {
    const before = outside(this.#sw, session, 'applyRules');
    const outcome = applyRules(this.#sw, session);
    before?.({}, outcome);
    return outcome;
  }

  /**
   * Merges `variables` into the session, then applies the rules: a handoff outcome, or null.
   * @param {Session} session
   * @param {Record<string, unknown>} variables
   * @returns {HandoffOutcome | null}
   */
  updateState(session, variables) {
    checkSession(session, 'updateState');
    if (!isRecord(variables)) {
      throw new TypeError(`updateState(session, variables): variables must be an object, got ${describeGiven(variables)}`);
    }
    const before = outside(this.#sw, session, 'updateState');
    const changed = change(this.#sw, session, variables, 'host');
    if (!changed.ok) throw new RangeError(`updateState: ${changed.message}`);
    const outcome = applyRules(this.#sw, session);
    before?.(variables, outcome);
    return outcome;
  }

  /**
   * What a model's tool call does: { type: 'handoff', from, to, edge, variables, … },
   * { type: 'handoff_blocked', rejectionReason, missing, invalid, … } or { type: 'rejected', reason }.
   * Only a handoff changes the session.
   * @param {Session} session
   * @param {ToolCallInput} call
   * @returns {HandoffOutcome}
   */
  applyToolCall(session, call) {
    // (A tool call always has an outcome; only applyRules answers null.)
    return /** @type {HandoffOutcome} */ (applyToolCall(this.#sw, session, call, undefined, false));
  }

  /**
   * Replays one session's recording (docs/replay.md: its trace log lines, an array or JSONL text)
   * against this swarm's rules, with a model and tools that answer what was recorded; resolves
   * { same, turns, decisions, divergence }, the divergence being the first decision that differs;
   * rejects with RecordingError for a recording that cannot be read.
   * @param {RecordingLine[] | string} recording
   * @returns {Promise<SwarmReplayReport>}
   */
  async replay(recording) {
    this.#live;
    return replaySwarm(recording, { definition: this.toJSON(), options: this.#sw.options, make: (/** @type {SwarmDefinition} */ definition, /** @type {SwarmOptions} */ options) => new Swarm(definition, options) });
  }

  /**
   * The text runTurn gives the model as the result of a transfer call with this outcome (for
   * approval_required: that it was not run).
   * @param {Exclude<HandoffOutcome, { type: 'tool' }>} outcome
   * @returns {string}
   */
  toolResult(outcome) {
    return toolResult(this.#sw, outcome);
  }

  /**
   * The active agent's instructions now (a bound function of { state, agent, session }, or the text).
   * @param {Session} session
   * @returns {string}
   */
  instructions(session) {
    checkSession(session, 'instructions');
    return instructionsOf(this.#sw, session.active, session);
  }

  /**
   * The messages the active agent's model gets: its instructions, then its history (copies).
   * @param {Session} session
   * @returns {Message[]}
   */
  messages(session) {
    checkSession(session, 'messages');
    const instructions = this.instructions(session);
    return [...(instructions ? [/** @type {Message} */ ({ role: 'system', content: instructions })] : []), ...clone(session.histories[session.active])];
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
   * the pending approval until resolveApproval() decides it (docs/handoffs.md#approvals); runTurn
   * throws (code ERR_APPROVAL_PENDING) while it waits.
   * The turn's files: js/swarm/turn.js, then conversation.js, model-call.js,
   * response-tool-calls.js, tool-execution.js (docs/architecture.md).
   * @param {Session} session
   * @param {string} input
   * @param {RunTurnOptions} options
   * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
   */
  async *runTurn(session, input, options) {
    yield* runTurn(this.#sw, session, input, options);
  }

  /**
   * Decides the approval `approvalId` that paused a turn of `session` and resumes that turn:
   * `approve: true` runs the tool or the handoff (the core checks the call again against the
   * session as it is now), `approve: false` gives the model `Not approved: <reason>` as the call's
   * result. The calls of the same model response after the paused one then run in order (one may
   * pause again), and the turn goes on with the model. Takes runTurn's options besides `approve`
   * and `reason`; yields runTurn's events, opening with `open` and `approval_resolved`.
   * An unknown id throws (code ERR_APPROVAL_NOT_FOUND), a decided one too (ERR_APPROVAL_RESOLVED).
   * @param {Session} session
   * @param {string} approvalId
   * @param {RunTurnOptions & { approve: boolean, reason?: string }} options
   * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
   */
  async *resolveApproval(session, approvalId, options) {
    yield* resolveApproval(this.#sw, session, approvalId, options);
  }

  /**
   * The swarm's DAG model (docs/format.md): agents (type 'agent'), edges with `via` ('rule',
   * 'llm', 'hybrid' or 'continuation') and `tool`. With `session`, its active agent is marked
   * `active` and each handoff its checkpoints record fires its edge (`checkpoints`: the log a
   * store keeps, for a session whose checkpoints were handed to one).
   * @param {SwarmPictureOptions} [options]
   * @returns {SwarmDag}
   */
  toDag(options) {
    return JSON.parse(this.#picture('dag', options, 'toDag', ['session', 'checkpoints']));
  }

  /**
   * Mermaid text: `kind` 'flowchart' (default: rules solid, LLM edges dotted, hybrids thick,
   * continuations end in a circle) or 'state' (a state diagram, each edge labelled by how it is
   * taken); `direction`; `session` as toDag's.
   * @param {SwarmPictureOptions & { kind?: 'flowchart' | 'state', direction?: 'TD' | 'TB' | 'BT' | 'LR' | 'RL' }} [options]
   * @returns {string}
   */
  toMermaid(options) {
    return this.#picture('mermaid', options, 'toMermaid', ['session', 'checkpoints', 'kind', 'direction']);
  }

  /**
   * Graphviz DOT text: rules solid, LLM edges dashed, hybrids bold, continuations dotted; `session` as toDag's.
   * @param {SwarmPictureOptions} [options]
   * @returns {string}
   */
  toDot(options) {
    return this.#picture('dot', options, 'toDot', ['session', 'checkpoints']);
  }

  // The core draws (src/export/dag.cpp); it reads the session's active agent and handoffs itself.
  /**
   * @param {'dag' | 'mermaid' | 'dot'} format
   * @param {SwarmPictureOptions & { kind?: string, direction?: string } | undefined} options
   * @param {string} method
   * @param {string[]} allowed
   * @returns {string}
   */
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

  /** @returns {void} */
  dispose() {
    if (this.#native === null) return;
    this.#sw.mcp?.close();
    release(this, this.#native);
    this.#native = null;
  }

  /**
   * What console.log and util.inspect show: the agents, the entry, the edges by kind, or that it is disposed.
   * @internal the package's own, left out of the published declarations (scripts/typings.mjs)
   * @param {number} _depth
   * @param {object} options
   * @param {(value: unknown, options: object) => string} inspect
   * @returns {string}
   */
  [inspectSymbol](_depth, options, inspect) {
    const name = this.#sw.definition.name ? ` '${this.#sw.definition.name}'` : '';
    if (this.#native === null) return `Swarm${name} <disposed>`;
    const edges = { rule: 0, llm: 0, hybrid: 0 };
    // How each edge is taken is the core's word (the DAG's `via`); a continuation is a rule.
    for (const { via } of this.toDag().edges) edges[via === 'continuation' ? 'rule' : via]++;
    const summary = { agents: this.#sw.definition.agents.map((a) => a.id), edges };
    return inspection(`Swarm${name}`, summary, options, inspect);
  }
}
disposable(Swarm);
