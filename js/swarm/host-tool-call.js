// @ts-check
// A tool call applied for createMcpServer (js/mcp/server.js), which serves the swarm over MCP: the
// host's model is the agents, so a call comes without a model. The core applies it as runTurn's
// would; a call of the agent's own tool or an MCP tool runs (js/swarm/tool-execution.js).
import { NO_TURN_TRACE } from './trace.js';
import { normalizeToolCall } from '../tool-calls.js';
import { clone } from '../values.js';
import { checkpoint } from './checkpoints.js';
import { refreshActiveMcp } from './mcp.js';
import { applyToolCall, toolResult } from './routing.js';
import { callTool } from './tool-execution.js';

/**
 * @import { HandoffOutcome, Session, ToolCallInput } from '../index.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { ToolRun } from './turn-options.js'
 */

/**
 * createMcpServer's: a tool call of the active agent's model as runTurn applies it, without a
 * model: { outcome, result, by? }. A call of its own tool or an MCP tool runs (an agent tool,
 * which needs a model, is answered as not run) and is checkpointed. `approved`: a person
 * approved the call (createMcpServer asks through an elicitation).
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {ToolCallInput} call
 * @param {{ signal?: AbortSignal, toolState?: unknown, approved?: boolean }} [how]
 * @returns {Promise<{ outcome: HandoffOutcome, result: string, by?: ToolRun['kind'] }>}
 */
export async function hostToolCall(sw, session, call, how = {}) {
  const { signal, toolState, approved = false } = how;
  await refreshActiveMcp(sw, session, signal);
  /** @type {string | undefined} */
  let result;
  const outcome = applyToolCall(sw, session, call, (_settled, settledResult) => {
    result = settledResult;
  }, approved);
  if (outcome.type !== 'tool') return { outcome, result: result ?? toolResult(sw, outcome) };
  if (outcome.mcp === undefined && sw.agentTools.has(outcome.tool)) {
    return { outcome, result: `Not run: ${outcome.tool} asks agent '${sw.agentTools.get(outcome.tool)}', which needs a model.` };
  }
  const agentId = session.active;
  const run = callTool(sw, session, agentId, normalizeToolCall(call), clone(outcome), { input: '', toolState, options: { signal } }, NO_TURN_TRACE);
  let next = await run.next();
  while (!next.done) next = await run.next();
  const { result: text, by } = next.value;
  checkpoint(session, { tool: outcome.tool, arguments: clone(outcome.arguments), result: text, by, ...(outcome.mcp === undefined ? {} : { server: outcome.mcp.server }) });
  return { outcome, result: text, by };
}
