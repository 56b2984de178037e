// @ts-check
// A turn paused for an approval, resumed (swarm.resolveApproval): the decision recorded
// (js/swarm/approvals.js), the paused call run (the core checks it again, approved, against the
// session as it is now) or answered `Not approved`, the calls of the same model response after it
// acted on in order (one may pause again), then the model calls go on as in any turn.
import { checkOptions } from '../options.js';
import { RECORDING_VERSION } from '../recording.js';
import { describe, describeGiven } from '../text.js';
import { traceTurn } from './trace.js';
import { clone } from '../values.js';
import { approvalToDecide, decideApproval } from './approvals.js';
import { outsideWritten } from './between-turns.js';
import { finish } from './checkpoints.js';
import { converse } from './conversation.js';
import { checkSession } from './core.js';
import { nameOf } from './definition.js';
import { mcpRefresh } from './mcp.js';
import { act, notRun } from './response-tool-calls.js';
import { rules } from './routing.js';
import { guarded, setStatus } from './status.js';
import { toolMessage } from './tool-execution.js';
import { checkTurnOptions, RESOLVE_OPTIONS } from './turn-options.js';

/**
 * @import { RunTurnOptions, Session, SwarmEvent } from '../index.js'
 * @import { PendingApproval } from './approvals.js'
 * @import { Ending } from './checkpoints.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { Turn, TurnTrace } from './turn-options.js'
 */

/**
 * swarm.resolveApproval(session, approvalId, options) (js/swarm.js documents it): yields the resumed turn's events.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} approvalId
 * @param {RunTurnOptions & { approve: boolean, reason?: string }} options
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
export async function* resolveApproval(sw, session, approvalId, options) {
  checkSession(session, 'resolveApproval(session, approvalId, { approve, model })');
  if (typeof approvalId !== 'string') throw new TypeError(`resolveApproval: approvalId must be a string, got ${describe(approvalId)}`);
  const { approve, reason, ...rest } = checkOptions(options, RESOLVE_OPTIONS, 'resolveApproval options');
  if (typeof approve !== 'boolean') throw new TypeError(`resolveApproval options.approve must be true or false, got ${describeGiven(approve)}`);
  if (reason !== undefined && typeof reason !== 'string') throw new TypeError(`resolveApproval options.reason must be a string, got ${describe(reason)}`);
  const turn = checkTurnOptions(rest, 'resolveApproval');
  approvalToDecide(session, approvalId);
  await outsideWritten(session);
  const recording = () => ({ recording: RECORDING_VERSION, variables: clone(session.variables), maxModelCalls: turn.maxModelCalls });
  const info = { swarm: nameOf(sw), session: session.id, agent: session.active, approvalId, recording };
  yield* traceTurn(sw.tracing, info, (/** @type {TurnTrace} */ trace) => guarded(session, turn, resume(sw, session, approvalId, { approve, reason }, { ...turn, trace })));
}

/**
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} approvalId a pending approval's (approvalToDecide)
 * @param {{ approve: boolean, reason: string | undefined }} decision
 * @param {Turn} options
 * @returns {AsyncGenerator<SwarmEvent, void, undefined>}
 */
async function* resume(sw, session, approvalId, { approve, reason }, options) {
  const checkpointsBefore = session.checkpoints.length;
  const pending = /** @type {PendingApproval} */ (/** @type {NonNullable<Session['approvals']>} */ (session.approvals)[approvalId]);
  const { agent: agentId, calls, index, announced, input, text } = pending;
  yield { type: 'open', agent: session.active, turn: session.turn, approvalId };
  yield* setStatus(session, options, 'in_progress');
  yield* decideApproval(session, approvalId, { approve, reason });
  const history = session.histories[agentId];
  /** @type {{ handedOff?: boolean, paused?: string }} */
  let acted = {};
  if (session.active !== agentId || history === undefined) {
    // The host moved the session while the call waited: the calls belong to an agent no longer active.
    if (history !== undefined) yield* notRun(history, agentId, calls.slice(index), 'the conversation was transferred while this call awaited approval', announced);
  } else if (approve) {
    yield* mcpRefresh(sw, agentId, options.signal);
    acted = yield* act(sw, session, agentId, calls, index, { input, toolState: options.toolState, announced, approvedFirst: true, options });
  } else {
    const call = calls[index];
    const result = reason === undefined || reason === '' ? 'Not approved.' : `Not approved: ${reason}`;
    history.push(toolMessage(call, result));
    yield { type: 'tool_result', agent: agentId, call: clone(call), result, outcome: { type: 'not_approved', reason: reason ?? null } };
    acted = yield* act(sw, session, agentId, calls, index + 1, { input, toolState: options.toolState, announced, options });
  }
  /** @type {Ending} */
  let end;
  if (acted.paused !== undefined) {
    end = { text, reason: 'approval-required', approvalId: acted.paused };
  } else {
    if (acted.handedOff) yield* rules(sw, session, options.trace);
    end = yield* converse(sw, session, input, text, options);
  }
  yield* finish(session, checkpointsBefore, options, end);
}
