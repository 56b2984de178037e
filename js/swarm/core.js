// What crosses into the routing core: the wasm `Swarm` binding (wasm/swarm_bindings.cpp over
// src/handoff/). Values go in as JSON text made for the core (coreJSON), a session's routing part
// with them; each answer is the core's record, which the other files of js/swarm/ act on without
// deciding anything again.
import { DefinitionError } from '../errors.js';
import { rootProblem } from '../options.js';
import { describeGiven, wellFormed } from '../text.js';
import { isRecord } from '../values.js';

/** @typedef {import('./definition.js').SwarmInternals} SwarmInternals */

export const SESSION_FORMAT = 'handoff-graph/session';

// JSON text for the core, which reads UTF-8: lone surrogates in strings and keys become U+FFFD
// (JSON.stringify would write them as \ud800 escapes, which are not Unicode). Nesting too deep
// for the engine to serialize is a DefinitionError, not a RangeError from deep inside.
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

export function checkSession(session, where) {
  if (typeof session !== 'object' || session === null || session.format !== SESSION_FORMAT) {
    throw new TypeError(`${where}: expected a session from swarm.createSession(), got ${describeGiven(session)}`);
  }
  return session;
}

/**
 * The Swarm's embind object (a disposed Swarm throws).
 * @param {SwarmInternals} sw
 */
export function live(sw) {
  return sw.live();
}

/**
 * The core's record for the session's routing core: { session, outcome, result, fromModel, carry, … }
 * (src/handoff/policy.h, host_record). `call` names the binding's method (tools, applyRules,
 * applyToolCall).
 * @param {SwarmInternals} sw
 */
export function routingRecord(sw, session, where, call, ...args) {
  const { active, hops, selections, variables } = checkSession(session, where);
  // Strings (a tool's name, its arguments as the model sent them) well formed, as in all that crosses.
  const texts = args.map((arg) => (typeof arg === 'string' ? wellFormed(arg) : arg));
  const result = JSON.parse(live(sw)[call](coreJSON({ active, hops, selections, variables }), ...texts));
  if (result.error !== undefined) throw new TypeError(`${where}: ${result.error}`);
  return result;
}
