// @ts-check
// What crosses into the routing core: the wasm `Swarm` binding (wasm/swarm_bindings.cpp over
// src/handoff/). Values go in as JSON text made for the core (coreJSON), a session's routing part
// with them; each answer is the core's record, which the other files of js/swarm/ act on without
// deciding anything again.
import { DefinitionError } from '../errors.js';
import { rootProblem } from '../options.js';
import { describeGiven, wellFormed } from '../text.js';
import { isRecord } from '../values.js';

/**
 * @import { HandoffOutcome } from '../index.js'
 * @import { NativeSwarm, SwarmInternals } from './definition.js'
 */

/**
 * A session's routing part, as the core reads it (and as routingRecord's callers make it for a
 * nested agent or an MCP listing).
 * @typedef {{ format: string, active: string, hops: number, selections: Record<string, number>, variables: Record<string, unknown> }} RoutingSession
 */

/**
 * What the host acts on after a rule or a tool call (src/handoff/policy.h host_record): the
 * outcome (null: no rule held), the session's routing core after it, the result text the model
 * gets for a transfer call; for a handoff, the variables the model supplied and the fired edge's
 * history settings.
 * @typedef {object} HostRecord
 * @property {{ active: string, hops: number, selections: Record<string, number> }} session
 * @property {HandoffOutcome | null} outcome
 * @property {string} [result]
 * @property {Record<string, unknown>} [fromModel]
 * @property {{ context: string, includeSystem: boolean }} [carry]
 */

/**
 * The tools the active agent is offered (src/handoff/policy.cpp): in the format asked for, their
 * names and targets, and the MCP tools among them with their servers.
 * @typedef {{ tools: unknown, offered: Array<{ name: string, to: string }>, mcp: Array<{ name: string, server: string }> }} ToolsRecord
 */

export const SESSION_FORMAT = 'handoff-graph/session';

// JSON text for the core, which reads UTF-8: lone surrogates in strings and keys become U+FFFD
// (JSON.stringify would write them as \ud800 escapes, which are not Unicode). Nesting too deep
// for the engine to serialize is a DefinitionError, not a RangeError from deep inside.
/**
 * @param {unknown} value
 * @returns {string}
 */
export function coreJSON(value) {
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

// A normalized tool call's arguments as JSON text for the core.
/**
 * @param {{ arguments?: unknown, input?: unknown, args?: unknown }} call
 * @returns {string}
 */
export function argumentsText(call) {
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

/**
 * `session`, when it is a session (its format says so): a TypeError otherwise.
 * @template {RoutingSession} T
 * @param {T} session
 * @param {string} where
 * @returns {T}
 */
export function checkSession(session, where) {
  if (typeof session !== 'object' || session === null || session.format !== SESSION_FORMAT) {
    throw new TypeError(`${where}: expected a session from swarm.createSession(), got ${describeGiven(session)}`);
  }
  return session;
}

/**
 * The Swarm's embind object (a disposed Swarm throws).
 * @param {SwarmInternals} sw
 * @returns {NativeSwarm}
 */
export function live(sw) {
  return sw.live();
}

/**
 * The core's record for the session's routing core: { session, outcome, result, fromModel, carry, … }
 * (src/handoff/policy.h, host_record). `call` names the binding's method (tools, applyRules,
 * applyToolCall).
 * @template {'tools' | 'applyRules' | 'applyToolCall'} C
 * @param {SwarmInternals} sw
 * @param {RoutingSession} session
 * @param {string} where
 * @param {C} call
 * @param {...(string | boolean)} args the strings and flags the method takes after the session
 * @returns {C extends 'tools' ? ToolsRecord : HostRecord}
 */
export function routingRecord(sw, session, where, call, ...args) {
  const { active, hops, selections, variables } = checkSession(session, where);
  // Strings (a tool's name, its arguments as the model sent them) well formed, as in all that crosses.
  const texts = args.map((arg) => (typeof arg === 'string' ? wellFormed(arg) : arg));
  // (Each method takes the session's text, then the strings and flags its caller passes.)
  const native = /** @type {Record<typeof call, (session: string, ...args: Array<string | boolean>) => string>} */ (/** @type {unknown} */ (live(sw)));
  const result = JSON.parse(native[call](coreJSON({ active, hops, selections, variables }), ...texts));
  if (result.error !== undefined) throw new TypeError(`${where}: ${result.error}`);
  return result;
}
