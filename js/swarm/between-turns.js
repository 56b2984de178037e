// @ts-check
// Changes the host makes between turns (updateState, applyRules), recorded in the trace log
// (docs/replay.md) so that a replay applies them where they happened: a line each, which the
// session's next turn waits for before its own (a line that could not be written fails it).
import { traceOutside } from './trace.js';
import { clone } from '../values.js';
import { checkSession } from './core.js';
import { nameOf } from './definition.js';

/**
 * @import { HandoffOutcome, Session } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 */

// The trace log lines of changes made between turns, by session, not yet waited for: the next
// turn waits for them before its own (a line that could not be written fails it).
/** @type {WeakMap<Session, Promise<unknown>>} */
const outsideLines = new WeakMap();

/**
 * The recording of a change the host makes between turns (docs/replay.md): with a trace log, a
 * function that writes its `update` line (the variables given, the session's variables before,
 * the rule that fired); the next turn of the session waits for the line (and fails when it
 * could not be written). Without one, undefined.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} where
 * @returns {((variables: Record<string, unknown>, outcome: HandoffOutcome | null) => void) | undefined}
 */
export function outside(sw, session, where) {
  if (sw.tracing.traceLogPath === undefined) return undefined;
  checkSession(session, where);
  const before = clone(session.variables);
  return (variables, outcome) => {
    const line = { type: 'update', variables: clone(variables), before, outcome: outcome === null ? null : clone(outcome) };
    const written = traceOutside(sw.tracing, { swarm: nameOf(sw), session: session.id }, line, outsideLines.get(session));
    // Awaited by the session's next turn; until then a failure must not count as unhandled.
    written.catch(() => {});
    outsideLines.set(session, written);
  };
}

// Waits for the lines of the changes made since the session's last turn (outside).
/**
 * @param {Session} session
 * @returns {Promise<void>}
 */
export async function outsideWritten(session) {
  const written = outsideLines.get(session);
  if (written === undefined) return;
  outsideLines.delete(session);
  await written;
}
