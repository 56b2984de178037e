// @ts-check
// Guardrails (options.inputGuardrails, options.outputGuardrails; checked when the Swarm is made,
// js/swarm/definition.js): the active agent's input guardrails on the user's input before it joins
// the history, an agent's output guardrails on its final answer. The first that trips ends the
// conversation: checkpointed, then reported as `guardrail_tripped`.
import { describe } from '../text.js';
import { clone } from '../values.js';
import { checkpoint } from './checkpoints.js';
import { agentCopy } from './definition.js';

/**
 * @import { Session, SwarmAgent, SwarmEvent } from '../index.js'
 * @import { Ending } from './checkpoints.js'
 * @import { SwarmInternals } from './definition.js'
 */

/**
 * A guardrail that tripped: its kind, the agent, its index in the agent's list, its reason.
 * @typedef {{ kind: 'input' | 'output', agent: string, guardrail: number, reason: string | null }} Tripped
 */

/**
 * Runs agent `agentId`'s `kind` guardrails on `text`, in order: the first that trips, as
 * { kind, agent, guardrail (its index), reason }, or null.
 * @param {SwarmInternals} sw
 * @param {'input' | 'output'} kind
 * @param {string} agentId
 * @param {string} text
 * @param {Session} session
 * @param {string} input
 * @returns {Promise<Tripped | null>}
 */
export async function guard(sw, kind, agentId, text, session, input) {
  const guardrails = sw.guardrails[kind].get(agentId);
  if (guardrails === undefined) return null;
  for (const [index, guardrail] of guardrails.entries()) {
    // Plain values: a guardrail reads copies and changes nothing.
    // (The agent is one of the definition's: guardrails are checked against them.)
    /** @type {unknown} */
    const answer = await guardrail(text, { kind, agent: /** @type {SwarmAgent} */ (agentCopy(sw, agentId)), variables: clone(session.variables), input });
    const verdict = /** @type {{ tripped?: unknown, reason?: unknown }} */ (answer);
    if (typeof answer !== 'object' || answer === null || typeof verdict.tripped !== 'boolean') {
      throw new TypeError(`${kind} guardrail ${index} of agent '${agentId}' must return { tripped: boolean, reason?: string }, got ${describe(verdict)}`);
    }
    if (verdict.reason !== undefined && typeof verdict.reason !== 'string') {
      throw new TypeError(`${kind} guardrail ${index} of agent '${agentId}': reason must be a string, got ${describe(verdict.reason)}`);
    }
    if (verdict.tripped) return { kind, agent: agentId, guardrail: index, reason: /** @type {string | undefined} checked above */ (verdict.reason) ?? null };
  }
  return null;
}

// A guardrail that tripped: checkpointed, then reported; returns how the conversation ends.
/**
 * @param {Session} session
 * @param {Tripped} tripped
 * @returns {Generator<SwarmEvent, Ending, undefined>}
 */
export function* tripGuardrail(session, tripped) {
  checkpoint(session, { guardrail: clone(tripped) });
  yield { type: 'guardrail_tripped', ...tripped };
  return { text: '', reason: 'guardrail-tripped' };
}
