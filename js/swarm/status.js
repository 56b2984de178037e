// @ts-check
// A turn's status (llm4s's AgentStatus: in_progress, waiting_for_tools, handoff_requested,
// complete, failed), and what happens when a turn fails or aborts: the session goes back to what
// it was before the turn, and an `error` event names where it failed.
import { restoreSession, snapshotSession } from '../model-answer.js';
import { messageOf } from '../values.js';

/**
 * @import { AgentStatus, Session, SwarmEvent } from '../index.js'
 */

// Where a turn failed (a model call, a workflow or a tool handler), by session, while the error
// travels up to the turn's guard.
/** @type {WeakMap<Session, { source: 'model' | 'tool' | 'workflow', agent: string, tool?: string }>} */
export const failedAt = new WeakMap();

// Sets the session's status (llm4s's AgentStatus) and, with `statusEvents`, reports it.
/**
 * @param {Session} session
 * @param {{ statusEvents?: boolean }} options the turn's
 * @param {AgentStatus} status
 * @param {{ agent?: string, to?: string, reason?: string | null, error?: string }} [detail]
 * @returns {Generator<SwarmEvent, void, undefined>}
 */
export function* setStatus(session, options, status, detail = {}) {
  session.status = status;
  if (status !== 'failed') delete session.error;
  if (options.statusEvents) yield { type: 'status', status, agent: session.active, ...detail };
}

// Runs `events`; when `signal` aborts it, the session goes back to what it was before. When it
// fails otherwise (a model call or a tool handler threw: llm4s's Failed), the session goes back
// too, so that the turn can be retried, and is marked failed with the message; an `error` event
// says so before the error is rethrown.
/**
 * @param {Session} session
 * @param {{ signal?: AbortSignal, statusEvents?: boolean }} options the turn's
 * @param {AsyncGenerator<SwarmEvent, void, undefined>} events
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
export async function* guarded(session, options, events) {
  const { signal } = options;
  const before = snapshotSession(session);
  try {
    yield* events;
  } catch (error) {
    restoreSession(session, before);
    if (signal?.aborted) throw error;
    /** @type {{ source: 'model' | 'tool' | 'workflow' | 'turn', agent: string, tool?: string }} */
    const at = failedAt.get(session) ?? { source: 'turn', agent: session.active };
    failedAt.delete(session);
    const message = messageOf(error);
    Object.assign(session, { status: 'failed', error: message });
    yield* setStatus(session, options, 'failed', { agent: at.agent, error: message });
    yield { type: 'error', agent: at.agent, source: at.source, ...(at.tool === undefined ? {} : { tool: at.tool }), message };
    throw error;
  }
}
