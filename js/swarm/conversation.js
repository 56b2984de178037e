// @ts-check
// The model calls of a turn: the active agent's model is called with the tools the core offers
// it, its tool calls are acted on (js/swarm/response-tool-calls.js), the rules are taken after a
// handoff, and the next agent's model is called, until an answer without tool calls (through the
// agent's output guardrails), the budget (maxModelCalls), or a pause for an approval. A workflow
// agent answers by running its machine instead (js/agent-workflows.js).
import { runWorkflow } from '../agent-workflows.js';
import { NO_TURN_TRACE } from './trace.js';
import { clone } from '../values.js';
import { agentCopy } from './definition.js';
import { guard, tripGuardrail } from './guardrails.js';
import { mcpRefresh } from './mcp.js';
import { callModel } from './model-call.js';
import { act, notRun } from './response-tool-calls.js';
import { offeredTools, rules } from './routing.js';
import { failedAt, setStatus } from './status.js';
import { change, visibleVariables } from './variables.js';

/**
 * @import { CheckedWorkflow } from '../agent-workflows.js'
 * @import { DoneReason, Session, SwarmAgent, SwarmEvent } from '../index.js'
 * @import { Ending } from './checkpoints.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { Turn } from './turn-options.js'
 */

/**
 * The model calls of a turn, until an answer without tool calls, the budget, or a pause for an
 * approval: { text, reason, approvalId? }.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} input the turn's input
 * @param {string} text the turn's answer so far
 * @param {Turn} options
 * @returns {AsyncGenerator<SwarmEvent, Ending, undefined>}
 */
export async function* converse(sw, session, input, text, options) {
  const { toolFormat, jsonSchema, maxModelCalls, signal, toolState, trace = NO_TURN_TRACE } = options;
  /** @type {DoneReason} */
  let reason = 'max-model-calls';
  // A workflow agent makes no model call: it answers whatever is left of the budget.
  for (let calls = 0; calls < maxModelCalls || sw.workflows.has(session.active); calls++) {
    signal?.throwIfAborted();
    const agentId = session.active;
    // A workflow agent answers by running its machine, not by a model call.
    if (sw.workflows.has(agentId)) return yield* workflowTurn(sw, session, agentId, input, options);
    yield* mcpRefresh(sw, agentId, signal);
    let answer;
    try {
      answer = yield* callModel(sw, agentId, session, session.histories[agentId], offeredTools(sw, session, toolFormat, { jsonSchema }), options, trace);
    } catch (error) {
      failedAt.set(session, { source: 'model', agent: agentId });
      throw error;
    }
    const history = session.histories[agentId];
    if (answer.text.length > 0) text = answer.text;
    const toolCalls = answer.toolCalls;
    if (toolCalls.length === 0) {
      // The agent's final answer passes its own output guardrails before it joins the history.
      const tripped = await guard(sw, 'output', agentId, answer.text, session, input);
      if (tripped !== null) {
        return yield* tripGuardrail(session, tripped);
      }
    }
    history.push({ role: 'assistant', content: answer.text, ...(toolCalls.length > 0 ? { toolCalls: clone(toolCalls) } : {}) });
    if (toolCalls.length === 0) {
      reason = 'answered';
      break;
    }
    if (session.active !== agentId) {
      // The session moved while the model was answering (the host changed its state): this
      // response's calls belong to an agent that is no longer active.
      yield* notRun(history, agentId, toolCalls, 'the conversation was transferred while this call was made', answer.announced);
      continue;
    }
    yield* setStatus(session, options, 'waiting_for_tools');
    const acted = yield* act(sw, session, agentId, toolCalls, 0, { input, toolState, announced: answer.announced, text, options });
    if (acted.paused !== undefined) return { text, reason: 'approval-required', approvalId: acted.paused };
    if (acted.handedOff) yield* rules(sw, session, trace);
    yield* setStatus(session, options, 'in_progress');
  }
  return { text, reason };
}

/**
 * A workflow agent's part of the turn: its machine runs (its steps reported as workflow_step
 * events), its answer passes the agent's output guardrails and joins its history, the variables
 * it sets are merged, then the rules are taken: { text, reason }. A failing machine fails the turn.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} agentId a workflow agent
 * @param {string} input
 * @param {Turn} options
 * @returns {AsyncGenerator<SwarmEvent, Ending, undefined>}
 */
async function* workflowTurn(sw, session, agentId, input, options) {
  let answer;
  try {
    answer = yield* runWorkflow(/** @type {CheckedWorkflow} a workflow agent's */ (sw.workflows.get(agentId)), {
      agent: agentId, agentDefinition: /** @type {SwarmAgent} */ (agentCopy(sw, agentId)), input, variables: visibleVariables(sw, agentId, session), signal: options.signal,
    });
  } catch (error) {
    failedAt.set(session, { source: 'workflow', agent: agentId });
    throw error;
  }
  options.trace?.record(answer.recording);
  // As a model's answer streams before its guardrails run.
  if (answer.text.length > 0) yield { type: 'chunk', agent: agentId, text: answer.text };
  const tripped = await guard(sw, 'output', agentId, answer.text, session, input);
  if (tripped !== null) {
    return yield* tripGuardrail(session, tripped);
  }
  session.histories[agentId].push({ role: 'assistant', content: answer.text });
  if (answer.variables !== undefined) {
    const changed = change(sw, session, answer.variables, 'workflow');
    if (!changed.ok) yield { type: 'state_rejected', source: 'workflow', key: changed.key, message: changed.message };
    yield* rules(sw, session, options.trace);
  }
  return { text: answer.text, reason: 'answered' };
}
