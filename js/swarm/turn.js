// @ts-check
// One user turn, from the top (swarm.runTurn): the options checked, the turn traced
// (js/swarm/trace.js traceTurn) and guarded (js/swarm/status.js: a failed or aborted turn leaves the
// session as it was). Then the turn itself: variables (or queued intents) extracted from the
// input, the rules taken (the core's applyRules), the active agent's input guardrails, the input
// joins its history, and the model calls (js/swarm/conversation.js) until the turn ends; `done`
// after the session is saved (js/swarm/checkpoints.js).
import { restoreSession, snapshotSession } from '../model-answer.js';
import { checkOptions } from '../options.js';
import { RECORDING_VERSION } from '../recording.js';
import { describeGiven } from '../text.js';
import { traceTurn } from './trace.js';
import { clone } from '../values.js';
import { refuseWhilePending } from './approvals.js';
import { outsideWritten } from './between-turns.js';
import { finish } from './checkpoints.js';
import { converse } from './conversation.js';
import { checkSession } from './core.js';
import { nameOf } from './definition.js';
import { guard, tripGuardrail } from './guardrails.js';
import { answerIntents, checkIntents } from './intents.js';
import { rules } from './routing.js';
import { guarded, setStatus } from './status.js';
import { checkTurnOptions, RUN_TURN_OPTIONS } from './turn-options.js';
import { change } from './variables.js';

/**
 * @import { RunTurnOptions, Session, SwarmEvent } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { Turn, TurnTrace } from './turn-options.js'
 */

/**
 * swarm.runTurn(session, input, options) (js/swarm.js documents it): yields the turn's events.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} input
 * @param {RunTurnOptions} options
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
export async function* runTurn(sw, session, input, options) {
  checkSession(session, 'runTurn(session, input, { model })');
  if (typeof input !== 'string') throw new TypeError(`runTurn(session, input, { model }): input must be a string, got ${describeGiven(input)}`);
  const turn = checkTurnOptions(checkOptions(options, RUN_TURN_OPTIONS, 'runTurn options'), 'runTurn');
  refuseWhilePending(session);
  await outsideWritten(session);
  const recording = () => ({ recording: RECORDING_VERSION, input, variables: clone(session.variables), maxModelCalls: turn.maxModelCalls });
  const info = { swarm: nameOf(sw), session: session.id, agent: session.active, recording };
  yield* traceTurn(sw.tracing, info, (/** @type {TurnTrace} */ trace) => guarded(session, turn, userTurn(sw, session, input, { ...turn, trace })));
}

/**
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} input
 * @param {Turn} options
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
async function* userTurn(sw, session, input, options) {
  // A tripped input guardrail puts the session back as it was: kept only when one can trip.
  const before = sw.guardrails.input.size > 0 ? snapshotSession(session) : undefined;
  session.turn += 1;
  const checkpointsBefore = session.checkpoints.length;
  yield { type: 'open', agent: session.active, turn: session.turn };
  yield* setStatus(session, options, 'in_progress');
  if (sw.extract !== undefined) {
    const extracted = await sw.extract(input, { session, agent: session.active });
    options.trace.record({ type: 'extract', variables: extracted ?? null });
    if (extracted !== undefined && extracted !== null) {
      const changed = change(sw, session, extracted, 'extract');
      if (!changed.ok) yield { type: 'state_rejected', source: 'extract', key: changed.key, message: changed.message };
    }
  }
  const intents = sw.extractIntents === undefined ? null : checkIntents(await sw.extractIntents(input, { session, agent: session.active }));
  if (sw.extractIntents !== undefined) options.trace.record({ type: 'intents', intents });
  if (intents !== null) {
    yield* answerIntents(sw, session, input, intents, checkpointsBefore, options);
    return;
  }
  yield* rules(sw, session, options.trace);
  // The question goes to whichever agent the rules settled on, through that agent's own input
  // guardrails (not those of the agent it came from).
  const tripped = await guard(sw, 'input', session.active, input, session, input);
  if (tripped !== null) {
    const { turn } = session;
    restoreSession(session, /** @type {Session} made where input guardrails exist, as one tripped */ (before));
    session.turn = turn;
    const end = yield* tripGuardrail(session, tripped);
    yield* finish(session, checkpointsBefore, options, end);
    return;
  }
  session.histories[session.active].push({ role: 'user', content: input });
  const end = yield* converse(sw, session, input, '', options);
  yield* finish(session, checkpointsBefore, options, end);
}
