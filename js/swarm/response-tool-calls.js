// @ts-check
// The tool calls of one model response, in order: each applied by the core (applyToolCall), then,
// by the core's outcome, run (js/swarm/tool-execution.js) and checkpointed, taken as a handoff
// (the calls after it answered as not run), reported as a blocked handoff or a rejection, or
// paused for a person's approval (js/swarm/approvals.js). Every call gets an answer in the history
// it belongs to, and `tool_use` / `tool_result` events.
import { NO_TURN_TRACE } from './trace.js';
import { clone } from '../values.js';
import { askApproval } from './approvals.js';
import { checkpoint } from './checkpoints.js';
import { mcpTag } from './mcp.js';
import { applyToolCall } from './routing.js';
import { failedAt, setStatus } from './status.js';
import { callTool, toolMessage } from './tool-execution.js';

/**
 * @import { Message, Session, SwarmEvent, ToolCall } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { TurnTrace } from './turn-options.js'
 */

const TRANSFERRED = 'the conversation was transferred';

// Answers `skipped` calls in `history` without running them: `Not run: ${why}.`
/**
 * @param {Message[]} history
 * @param {ToolCall[]} skipped
 * @param {string} why
 * @returns {void}
 */
function answerNotRun(history, skipped, why) {
  for (const call of skipped) history.push(toolMessage(call, `Not run: ${why}.`));
}

// The events of calls answered without being run: a tool_use each (only when the model's stream
// has not announced it already), then a tool_result.
/**
 * @param {string} agentId
 * @param {ToolCall[]} skipped
 * @param {string} why
 * @param {boolean} announced
 * @returns {Generator<SwarmEvent, void, undefined>}
 */
function* notRunEvents(agentId, skipped, why, announced) {
  for (const call of skipped) {
    if (!announced) yield { type: 'tool_use', agent: agentId, call: clone(call) };
    yield { type: 'tool_result', agent: agentId, call: clone(call), result: `Not run: ${why}.`, outcome: { type: 'not_run', reason: why } };
  }
}

// Answers `skipped` calls in `history` without running them, then reports them (notRunEvents).
/**
 * @param {Message[]} history
 * @param {string} agentId
 * @param {ToolCall[]} skipped
 * @param {string} why
 * @param {boolean} announced
 * @returns {Generator<SwarmEvent, void, undefined>}
 */
export function* notRun(history, agentId, skipped, why, announced) {
  answerNotRun(history, skipped, why);
  yield* notRunEvents(agentId, skipped, why, announced);
}

// Acts on the tool calls of one model response, from `calls[from]` on: { handedOff } or
// { paused: approvalId } when a call needs a human's approval (then it and the calls after it
// wait in the session, with what the resumed turn needs). `approvedFirst`: calls[from] is approved;
// `options` are the turn's (its status events, its trace).
/**
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} agentId
 * @param {ToolCall[]} calls
 * @param {number} from
 * @param {{ input: string, toolState: unknown, announced: boolean, approvedFirst?: boolean, text?: string, options?: { trace?: TurnTrace, statusEvents?: boolean, signal?: AbortSignal } }} how
 * @returns {AsyncGenerator<SwarmEvent, { handedOff: boolean, paused?: undefined } | { paused: string, handedOff?: undefined }, undefined>}
 */
export async function* act(sw, session, agentId, calls, from, how) {
  const { input, toolState, announced, approvedFirst = false, text = '', options = {} } = how;
  /** @type {TurnTrace} */
  const trace = options.trace ?? NO_TURN_TRACE;
  const history = session.histories[agentId];
  for (let index = from; index < calls.length; index++) {
    const call = calls[index];
    const approved = approvedFirst && index === from;
    // A call that waited for approval was announced when it paused the turn.
    const tag = mcpTag(sw, agentId, call.name);
    if (!announced && !approved) yield { type: 'tool_use', agent: agentId, call: clone(call), ...tag };
    // Every tool call gets an answer in the history it belongs to, before any handoff copies it:
    // the result joins the source's history before a handoff carries that history along.
    /** @type {string | undefined} */
    let result;
    const outcome = applyToolCall(sw, session, call, (settled, settledResult) => {
      if (settled.type === 'tool' || settled.type === 'approval_required') return;  // answered below, or after the decision
      result = settledResult;
      history.push(toolMessage(call, /** @type {string} the core's text for a transfer call */ (result)));
      if (settled.type === 'handoff') answerNotRun(history, calls.slice(index + 1), TRANSFERRED);
    }, approved);
    if (outcome.type === 'approval_required') {
      return { paused: yield* askApproval(session, agentId, outcome, calls, index, { announced, input, text }) };
    }
    if (outcome.type === 'tool') {
      /** @type {string} */
      let by;
      try {
        ({ result, by } = yield* callTool(sw, session, agentId, call, clone(outcome), { input, toolState, options }, trace));
      } catch (error) {
        failedAt.set(session, { source: 'tool', agent: agentId, tool: outcome.tool });
        throw error;
      }
      history.push(toolMessage(call, /** @type {string} */ (result)));
      checkpoint(session, { tool: outcome.tool, arguments: clone(outcome.arguments), result, by, ...(outcome.mcp === undefined ? {} : { server: outcome.mcp.server }) });
    } else if (outcome.type === 'handoff') {
      yield* setStatus(session, options, 'handoff_requested', { agent: agentId, to: outcome.to, reason: outcome.reason });
      yield { type: 'handoff', .../** @type {Omit<typeof outcome, 'type'>} its type is the same */ (clone(outcome)) };
    } else if (outcome.type === 'handoff_blocked') {
      yield { type: 'handoff_blocked', .../** @type {Omit<typeof outcome, 'type'>} its type is the same */ (clone(outcome)) };
    }
    // (Every outcome but approval_required, which returned above, comes with its result text.)
    yield { type: 'tool_result', agent: agentId, call: clone(call), result: /** @type {string} */ (result), outcome, ...tag };
    if (outcome.type === 'handoff') {
      yield* notRunEvents(agentId, calls.slice(index + 1), TRANSFERRED, announced);
      return { handedOff: true };
    }
  }
  return { handedOff: false };
}
