// @ts-check
// Approvals (docs/handoffs.md#approvals): the core answers a call of an `approval: true` tool or
// edge, made without a person's approval, with the outcome 'approval_required' and changes
// nothing. The turn then pauses: the approval waits in the session (`session.approvals`, with the
// model response's calls and what the resumed turn needs) until swarm.resolveApproval() decides
// it; js/swarm/resume.js resumes the turn. A session that waits takes no new turn.
import { clone } from '../values.js';
import { checkpoint } from './checkpoints.js';

/**
 * @import { Approval, ApprovalRequest, HandoffOutcome, Session, SwarmEvent, ToolCall } from '../index.js'
 */

/**
 * A pending approval as the session keeps it, with what its turn needs to resume: the model
 * response's calls, where it stopped, whether they were announced, the turn's input and text.
 * @typedef {Extract<Approval, { status: 'pending' }> & { calls: ToolCall[], index: number, announced: boolean, input: string, text: string, call: ToolCall }} PendingApproval
 */

// The approval the session waits for (at most one: a pause ends the turn), or undefined.
/**
 * @param {Session} session
 * @returns {PendingApproval | undefined}
 */
export function pendingApproval(session) {
  const approvals = session.approvals;
  if (typeof approvals !== 'object' || approvals === null) return undefined;
  return /** @type {PendingApproval | undefined} */ (Object.values(approvals).find((a) => a?.status === 'pending'));
}

// runTurn's refusal while an approval waits (code ERR_APPROVAL_PENDING).
/**
 * @param {Session} session
 * @returns {void}
 */
export function refuseWhilePending(session) {
  const pending = pendingApproval(session);
  if (pending !== undefined) {
    throw Object.assign(new Error(`runTurn: the session waits for the decision on approval '${pending.approvalId}' (${pending.kind === 'handoff' ? `a transfer to ${pending.to}` : `tool ${pending.tool}`}); resolve it with swarm.resolveApproval() before the next turn`), { code: 'ERR_APPROVAL_PENDING', approvalId: pending.approvalId });
  }
}

// Pauses the turn on `calls[index]`, whose outcome is 'approval_required': the approval, with
// what the resumed turn needs (the response's calls, where it stopped, whether the calls were
// announced, the turn's input and text so far), waits in the session; `approval_required` says so.
// Returns the approval's id.
/**
 * @param {Session} session
 * @param {string} agentId
 * @param {Extract<HandoffOutcome, { type: 'approval_required' }>} outcome
 * @param {ToolCall[]} calls
 * @param {number} index
 * @param {{ announced: boolean, input: string, text: string }} turn
 * @returns {Generator<SwarmEvent, string, undefined>}
 */
export function* askApproval(session, agentId, outcome, calls, index, { announced, input, text }) {
  const call = calls[index];
  const approvalId = globalThis.crypto.randomUUID();
  const { kind, tool } = outcome;
  const args = outcome.arguments;  // (not destructured: tsc takes `arguments:` in a pattern for a use of `arguments`)
  const { to, edge } = /** @type {{ to?: string, edge?: number }} a handoff's */ (outcome);
  const asked = /** @type {ApprovalRequest} */ ({ approvalId, agent: agentId, kind, tool, ...(kind === 'handoff' ? { to, edge } : {}), arguments: clone(args) });
  session.approvals = {
    ...(session.approvals ?? {}),
    [approvalId]: { ...clone(asked), status: 'pending', turn: session.turn, call: clone(call), calls: clone(calls), index, announced: Boolean(announced), input, text },
  };
  yield { type: 'approval_required', ...asked, call: clone(call) };
  return approvalId;
}

// The pending approval `approvalId` that resolveApproval decides. An unknown id throws (code
// ERR_APPROVAL_NOT_FOUND), a decided one too (ERR_APPROVAL_RESOLVED).
/**
 * @param {Session} session
 * @param {string} approvalId
 * @returns {Approval}
 */
export function approvalToDecide(session, approvalId) {
  const approvals = session.approvals;
  const record = typeof approvals === 'object' && approvals !== null && Object.hasOwn(approvals, approvalId) ? approvals[approvalId] : undefined;
  if (record === undefined) throw Object.assign(new Error(`resolveApproval: the session has no approval '${approvalId}'`), { code: 'ERR_APPROVAL_NOT_FOUND', approvalId });
  if (record.status !== 'pending') throw Object.assign(new Error(`resolveApproval: approval '${approvalId}' was already decided (${record.status})`), { code: 'ERR_APPROVAL_RESOLVED', approvalId, status: record.status });
  return record;
}

// Records the decision: the approval keeps what it asked, without what the resumed turn needed,
// with its status ('approved' or 'rejected') and reason; `approval_resolved` says so, and the
// checkpoint log keeps it.
/**
 * @param {Session} session
 * @param {string} approvalId a pending approval's (approvalToDecide)
 * @param {{ approve: boolean, reason: string | undefined }} decision
 * @returns {Generator<SwarmEvent, void, undefined>}
 */
export function* decideApproval(session, approvalId, { approve, reason }) {
  const approvals = /** @type {Record<string, Approval>} */ (session.approvals);
  const pending = /** @type {PendingApproval} */ (approvals[approvalId]);
  const { calls: _calls, index: _index, announced: _announced, input: _input, text: _text, ...kept } = pending;
  session.approvals = { ...approvals, [approvalId]: /** @type {Approval} */ ({ ...kept, status: approve ? 'approved' : 'rejected', ...(reason === undefined ? {} : { reason }) }) };
  yield { type: 'approval_resolved', approvalId, approved: approve, reason: reason ?? null };
  checkpoint(session, { approval: { approvalId, approved: approve, ...(reason === undefined ? {} : { reason }) } });
}
