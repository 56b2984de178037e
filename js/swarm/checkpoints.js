// @ts-check
// The session's checkpoint log (where the session is, and what happened: a handoff, a tool run,
// a guardrail, an approval), and the end of a turn: the log handed to the host's store with the
// session, then the `done` event.
import { setStatus } from './status.js';

/**
 * @import { DoneReason, IntentAnswer, Session, SessionStore, SwarmEvent } from '../index.js'
 */

/**
 * How a turn ends: its text, why, and (paused) the approval it waits for or (queued intents) each answer.
 * @typedef {{ text: string, reason: DoneReason, approvalId?: string, answers?: IntentAnswer[], queued?: string[] }} Ending
 */

// The session's checkpoint log gets an entry: where the session is, and `what` happened.
/**
 * @param {Session} session
 * @param {object} what one of the entries Session['checkpoints'] lists, without where the session is
 * @returns {void}
 */
export function checkpoint(session, what) {
  session.checkpoints.push(/** @type {Session['checkpoints'][number]} */ ({ turn: session.turn, hops: session.hops, active: session.active, ...what }));
}

/**
 * Saves the turn to the store (when given one) and ends it with `done`.
 * @param {Session} session
 * @param {number} checkpointsBefore the length of the checkpoint log before the turn
 * @param {{ store?: SessionStore, statusEvents?: boolean }} options the turn's
 * @param {Ending} ending
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
export async function* finish(session, checkpointsBefore, options, ending) {
  const { store } = options;
  const { text, reason, approvalId, answers, queued } = ending;
  // A paused call waits for a human as a tool would: llm4s's WaitingForTools.
  yield* setStatus(session, options, reason === 'approval-required' ? 'waiting_for_tools' : 'complete');
  if (store !== undefined) {
    // The store keeps the checkpoint log; the session keeps only what this turn has not handed over.
    for (const checkpoint of session.checkpoints.slice(checkpointsBefore)) await store.appendCheckpoint(session.id, checkpoint);
    session.checkpoints = [];
    await store.save(session);
  }
  yield { type: 'done', agent: session.active, text, reason, ...(approvalId === undefined ? {} : { approvalId }), ...(answers === undefined ? {} : { answers, queued }), session };
}
