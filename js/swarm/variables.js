// @ts-check
// The session's variables, which the host owns (the core reads them, never keeps them): a change
// normalized, merged by its key's reducer and validated by the host's state hooks, all or nothing;
// and the variables an agent's model or workflow is shown.
import { REDUCERS } from '../reducers.js';
import { clone, put } from '../values.js';

/**
 * @import { Session } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 */

/**
 * A change of variables applied, or refused whole (by the state hooks' validate).
 * @typedef {{ ok: true, key?: undefined, message?: undefined } | { ok: false, key: string, message: string }} Changed
 */

/**
 * Applies a change of variables: each value normalized, merged with its key's reducer, then
 * validated. All or nothing: { ok: true } or { ok: false, key, message } with the session as it was.
 * `source` says where the change comes from ('host', 'tool', 'handler', 'extract', 'intent',
 * 'workflow'), for the hooks.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {Record<string, unknown>} updates
 * @param {'host' | 'tool' | 'handler' | 'extract' | 'intent' | 'workflow'} source
 * @returns {Changed}
 */
export function change(sw, session, updates, source) {
  const next = { ...session.variables };
  const ctx = { session, agent: session.active, source };
  for (const key of Object.keys(updates)) {
    let value = updates[key];
    if (sw.hooks.normalize !== undefined) value = sw.hooks.normalize(key, value, ctx);
    const reducer = sw.reducers.get(key) ?? REDUCERS.replace;
    const merged = reducer(Object.hasOwn(next, key) ? next[key] : undefined, value, key);
    if (sw.hooks.validate !== undefined) {
      const verdict = sw.hooks.validate(key, merged, ctx);
      if (verdict === false || typeof verdict === 'string') {
        return { ok: false, key, message: typeof verdict === 'string' ? verdict : `the value of '${key}' is not valid` };
      }
    }
    put(next, key, clone(merged));
  }
  session.variables = next;
  return { ok: true };
}

/**
 * The variables an agent's model requests carry: its visibleVariables (SwarmForge's visible
 * variables) that the session has, or all of them; copies.
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @param {{ variables: Record<string, unknown> }} session
 * @returns {Record<string, unknown>}
 */
export function visibleVariables(sw, agentId, session) {
  const visible = sw.agents.get(agentId)?.visibleVariables;
  if (visible === undefined) return clone(session.variables);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of visible) {
    if (Object.hasOwn(session.variables, key)) put(out, key, clone(session.variables[key]));
  }
  return out;
}
