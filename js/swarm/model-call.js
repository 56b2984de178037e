// @ts-check
// One model call: the request the host's model function gets (the agent, its instructions and
// history, the tools the core offers, the visible variables, the agent's config), and its answer
// read (js/model-answer.js: a returned answer or a stream of parts) through the turn's trace.
import { copyMessages, readModelAnswer } from '../model-answer.js';
import { clone } from '../values.js';
import { agentCopy } from './definition.js';
import { mcpTag } from './mcp.js';
import { visibleVariables } from './variables.js';

/**
 * @import { Message, ModelRequest, Session, SwarmAgent, SwarmEvent } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { ModelAnswerRead, TurnOptions, TurnTrace } from './turn-options.js'
 */

/**
 * Agent `agentId`'s instructions now: its instructions function's answer (options.instructions,
 * given { state, agent, session }), or the definition's text.
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @param {Session} session
 * @returns {string}
 */
export function instructionsOf(sw, agentId, session) {
  const agent = sw.agents.get(agentId);
  const dynamic = sw.instructions.get(agentId);
  return dynamic === undefined ? agent?.instructions ?? '' : String(dynamic({ state: session.variables, agent: agentCopy(sw, agentId), session }));
}

/**
 * One model call of agent `agentId`, whose conversation so far is `history`, offered `tools`;
 * resolves the answer read through `trace`, after a `response` event when the model gave a raw
 * answer. The request holds plain values: what the model function keeps or changes never
 * reaches the session. One copy of the history serves both `messages` (the instructions, then
 * the history) and `history`.
 * @param {SwarmInternals} sw
 * @param {string} agentId
 * @param {Session} session
 * @param {Message[]} history
 * @param {unknown} tools in the turn's format
 * @param {TurnOptions} options
 * @param {TurnTrace} trace
 * @returns {AsyncGenerator<Extract<SwarmEvent, { type: 'chunk' | 'tool_use' | 'response' }>, ModelAnswerRead, undefined>}
 */
export async function* callModel(sw, agentId, session, history, tools, { model, toolFormat, signal, agentConfig }, trace) {
  const instructions = instructionsOf(sw, agentId, session);
  /** @type {Message[]} */
  const messages = copyMessages([...(instructions ? [/** @type {Message} */ ({ role: 'system', content: instructions })] : []), ...history]);
  /** @type {ModelRequest} */
  const request = {
    // (The active agent, or an agent tool's: one of the definition's.)
    agent: /** @type {SwarmAgent} */ (agentCopy(sw, agentId)), messages, tools: /** @type {ModelRequest['tools']} the core's, in toolFormat's shape */ (tools), toolFormat, instructions,
    history: messages.slice(messages.length - history.length), variables: visibleVariables(sw, agentId, session),
    config: agentConfig !== undefined && Object.hasOwn(agentConfig, agentId) ? clone(agentConfig[agentId]) : {}, signal,
  };
  const answer = yield* trace.modelCall(agentId, request, () => model(request), (result) => readModelAnswer(result, { agent: agentId, signal, tag: (/** @type {{ name: string }} */ call) => mcpTag(sw, agentId, call.name) }));
  if (answer.raw !== undefined) yield { type: 'response', agent: agentId, text: answer.text, toolCalls: clone(answer.toolCalls), finishReason: answer.finishReason ?? null, usage: answer.usage ?? null, raw: answer.raw };
  return answer;
}
