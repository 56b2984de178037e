// @ts-check
// The routing core's decisions acted on. The core decides which rule edge fires
// (`applyRules`), what a model's tool call does (`applyToolCall`: a handoff, a blocked handoff, a
// call of the agent's own tool, an approval to ask for, a rejection), which tools are offered
// (`tools`) and the text a model gets back (`toolResult`); each answer is a record
// (src/handoff/policy.h, host_record). This file merges the variables the model supplied, writes
// the core's view of the session back, carries the history along the fired edge by its context
// policy and checkpoints; it looks nothing up again.
import { checkOptions } from '../options.js';
import { describe, wellFormed } from '../text.js';
import { normalizeToolCall, TOOL_FORMATS } from '../tool-calls.js';
import { NO_TURN_TRACE } from './trace.js';
import { clone, put } from '../values.js';
import { checkpoint } from './checkpoints.js';
import { argumentsText, checkSession, coreJSON, live, routingRecord } from './core.js';
import { mcpListed } from './mcp.js';
import { change } from './variables.js';

/**
 * @import { ContextPolicy, HandoffOutcome, Message, Session, SwarmEvent, ToolCallInput, ToolFormat, ToolSchema } from '../index.js'
 * @import { HostRecord, RoutingSession } from './core.js'
 * @import { SwarmInternals } from './definition.js'
 */

/**
 * runTurn's hook into commit: runs before the history moves (it adds the tool's result message).
 * @typedef {(outcome: HandoffOutcome, result: string | undefined) => void} Settle
 */

/**
 * What the turn's trace is told of each rule decision (js/swarm/trace.js).
 * @typedef {{ route(from: string, outcome: HandoffOutcome | null, edge: unknown): void }} RouteTrace
 */

// What the target of a handoff receives of the source's history.
/** @type {Record<'full' | 'last-user' | 'none', ContextPolicy>} */
export const CONTEXT_POLICIES = {
  full: (messages) => messages,
  'last-user': (messages) => {
    const last = messages.findLast((m) => m.role === 'user');
    return last === undefined ? [] : [last];
  },
  none: () => [],
};

/**
 * Acts on the core's record: merges what the model supplied (a refusal by the state hooks blocks
 * the handoff, in the core's words), writes the core's view of the session back, carries the
 * history by the fired edge's policy, checkpoints. `settle(outcome, result)` runs before the
 * history moves (runTurn adds the tool's result message). Returns the outcome: the caller's
 * own value, sharing nothing with the session.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {HostRecord} record
 * @param {Settle} [settle]
 * @returns {HandoffOutcome | null}
 */
export function commit(sw, session, record, settle) {
  let { outcome, result } = record;
  // (A handoff's record has fromModel and carry: src/handoff/policy.cpp host_record.)
  const fromModel = /** @type {Record<string, unknown>} */ (record.fromModel);
  if (outcome !== null && outcome.type === 'handoff' && Object.keys(fromModel).length > 0) {
    const changed = change(sw, session, fromModel, 'tool');
    if (!changed.ok) {
      /** @type {{ outcome: HandoffOutcome, result?: string }} */
      const refused = JSON.parse(live(sw).refuseHandoff(outcome.edge, wellFormed(changed.key), wellFormed(changed.message)));
      ({ outcome, result } = refused);
      settle?.(refused.outcome, result);
      checkpoint(session, { outcome: clone(outcome) });
      return outcome;
    }
    // Report what was stored: the values after the normalize hook and the reducers.
    for (const key of Object.keys(fromModel)) {
      for (const reported of [outcome.variables, outcome.resolvedVariables]) {
        put(reported, key, clone(session.variables[key]));
      }
    }
  }
  Object.assign(session, { active: record.session.active, hops: record.session.hops, selections: record.session.selections });
  // (settle comes with a tool call, whose outcome is never null.)
  settle?.(/** @type {HandoffOutcome} */ (outcome), result);
  if (outcome !== null && outcome.type === 'handoff') {
    const { context, includeSystem } = /** @type {NonNullable<HostRecord['carry']>} */ (record.carry);
    const { from, to } = outcome;
    const source = session.histories[from] ?? [];
    const edge = clone(sw.definition.edges[outcome.edge]);
    const carried = sw.contexts[context](source.map(clone), { from, to, edge, session });
    if (!Array.isArray(carried)) throw new TypeError(`context policy '${context}' must return an array of messages`);
    const agent = sw.agents.get(from);
    session.histories[to] = [
      ...(includeSystem && agent?.instructions ? [/** @type {Message} */ ({ role: 'system', content: agent.instructions, agent: from })] : []),
      ...carried,
    ];
  }
  if (outcome !== null && outcome.type !== 'tool') checkpoint(session, { outcome: clone(outcome) });
  return outcome;
}

/**
 * Takes the first rule edge that holds (if any): the handoff outcome, or null.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @returns {HandoffOutcome | null}
 */
export function applyRules(sw, session) {
  return commit(sw, session, routingRecord(sw, session, 'applyRules', 'applyRules'));
}

/**
 * Takes the rule edges that hold, one after another, as handoff events (each decision traced).
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {RouteTrace} [trace]
 * @returns {Generator<SwarmEvent, void, undefined>}
 */
export function* rules(sw, session, trace = NO_TURN_TRACE) {
  for (;;) {
    const from = session.active;
    // (A rule's outcome is a handoff.)
    const outcome = /** @type {Omit<Extract<HandoffOutcome, { type: 'handoff' }>, 'type'> | null} */ (applyRules(sw, session));
    trace.route(from, /** @type {HandoffOutcome | null} */ (outcome), outcome === null ? undefined : sw.definition.edges[outcome.edge]);
    if (outcome === null) return;
    yield { type: 'handoff', ...outcome };
  }
}

/**
 * What a model's tool call does: { type: 'handoff', from, to, edge, variables, … },
 * { type: 'handoff_blocked', rejectionReason, missing, invalid, … } or { type: 'rejected', reason }.
 * Only a handoff changes the session. `settle` as commit's; `approved`: a person approved the call.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {ToolCallInput} call
 * @param {Settle | undefined} settle
 * @param {boolean} approved
 * @returns {HandoffOutcome}
 */
export function applyToolCall(sw, session, call, settle, approved) {
  checkSession(session, 'applyToolCall');
  if (call === undefined) throw new TypeError('applyToolCall(session, call): a tool call is { name, arguments }, got nothing');
  const normalized = normalizeToolCall(call);
  // (A tool call always has an outcome: only applyRules' may be null.)
  return /** @type {HandoffOutcome} */ (commit(sw, session, routingRecord(sw, session, 'applyToolCall', 'applyToolCall', normalized.name, argumentsText(normalized), approved, mcpListed(sw, session.active)), settle));
}

/**
 * The tools the active agent is offered now (its own, then the transfers), in an SDK's shape.
 * For 'ai-sdk', pass `{ jsonSchema }` from 'ai' to get a ToolSet-ready object.
 * @param {SwarmInternals} sw
 * @param {RoutingSession} session
 * @param {ToolFormat} [format]
 * @param {{ jsonSchema?: (schema: ToolSchema) => unknown }} [options]
 * @returns {unknown} the tools in `format`'s shape (ToolsByFormat, js/types.d.ts)
 */
export function offeredTools(sw, session, format = 'openai-chat', options) {
  const { jsonSchema } = checkOptions(options, ['jsonSchema'], 'tools options');
  if (!TOOL_FORMATS.includes(format)) throw new TypeError(`format must be one of ${TOOL_FORMATS.join(', ')}, got ${describe(format)}`);
  if (jsonSchema !== undefined && typeof jsonSchema !== 'function') throw new TypeError("jsonSchema must be the jsonSchema function from 'ai'");
  const tools = routingRecord(sw, session, 'tools', 'tools', format, mcpListed(sw, checkSession(session, 'tools').active)).tools;
  if (format !== 'ai-sdk' || jsonSchema === undefined) return tools;
  // (The 'ai-sdk' shape: tools by name, each with its inputSchema.)
  const byName = /** @type {Record<string, { inputSchema: ToolSchema }>} */ (tools);
  return Object.fromEntries(Object.entries(byName).map(([name, tool]) => [name, { ...tool, inputSchema: jsonSchema(tool.inputSchema) }]));
}

/**
 * Names and targets of the tools offered now: [{ name, to }].
 * @param {SwarmInternals} sw
 * @param {RoutingSession} session
 * @returns {Array<{ name: string, to: string }>}
 */
export function offeredTransfers(sw, session) {
  return routingRecord(sw, session, 'offered', 'tools', 'openai-chat', mcpListed(sw, checkSession(session, 'offered').active)).offered;
}

/**
 * The text runTurn gives the model as the result of a transfer call with this outcome.
 * @param {SwarmInternals} sw
 * @param {HandoffOutcome} outcome
 * @returns {string}
 */
export function toolResult(sw, outcome) {
  if (typeof outcome !== 'object' || outcome === null) throw new TypeError(`toolResult takes an outcome of applyToolCall, got ${describe(outcome)}`);
  const answer = JSON.parse(live(sw).toolResult(coreJSON(outcome)));
  if (answer.error !== undefined) throw new TypeError(`toolResult: ${answer.error}`);
  return answer.result;
}
