// @ts-check
// Where a tool call is executed, once the core has said it is a call of the agent's own tool
// (an outcome of type 'tool'): an MCP server's tool (js/mcp/consume.js runs `tools/call`), an
// agent tool (options.agentTools: a nested conversation with another agent), else the tool's
// handler, else its mock, else `tool_mock_required`. Each run goes through the turn's trace (a
// span, and a recording line for replays).
import { runWorkflow } from '../agent-workflows.js';
import { clone } from '../values.js';
import { argumentsText, routingRecord, SESSION_FORMAT } from './core.js';
import { agentCopy } from './definition.js';
import { mcpListed, mcpRefresh, mcpTag } from './mcp.js';
import { callModel } from './model-call.js';
import { offeredTools, offeredTransfers } from './routing.js';
import { change, visibleVariables } from './variables.js';

/**
 * @import { AgentToolEvent, HandoffOutcome, Message, Session, SwarmAgent, ToolCall, ToolContext } from '../index.js'
 * @import { CheckedWorkflow } from '../agent-workflows.js'
 * @import { McpTools } from '../mcp/consume.js'
 * @import { RoutingSession } from './core.js'
 * @import { SwarmInternals } from './definition.js'
 * @import { ToolRun, TurnOptions, TurnTrace } from './turn-options.js'
 */

/**
 * A call of the agent's own tool, as the core answered it.
 * @typedef {Extract<HandoffOutcome, { type: 'tool' }>} ToolOutcome
 */

/**
 * What a tool run needs of its turn: the input, the host's tool state, the turn's options.
 * @typedef {{ input: string, toolState: unknown, options: Partial<TurnOptions> }} ToolTurn
 */

// The history message that answers a tool call.
/**
 * @param {ToolCall} call
 * @param {string} content
 * @returns {Message}
 */
export function toolMessage(call, content) {
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

// `tools` (in any format) without the ones named in `names`.
/**
 * @param {unknown} tools the core's, in any format: an array, or (ai-sdk) an object by name
 * @param {Set<string>} names
 * @returns {unknown}
 */
function withoutTools(tools, names) {
  if (!Array.isArray(tools)) return Object.fromEntries(Object.entries(/** @type {object} */ (tools)).filter(([name]) => !names.has(name)));
  return tools.filter((tool) => !names.has(tool.function?.name ?? tool.name));
}

// Yields what `generator` yields, each as `wrap(event)`, and returns what it returns; a consumer
// that stops early closes it (its spans end, its model streams stop).
/**
 * @template Y, R, W
 * @param {AsyncGenerator<Y, R, undefined>} generator
 * @param {(event: Y) => W} wrap
 * @returns {AsyncGenerator<W, R, undefined>}
 */
async function* reported(generator, wrap) {
  let finished = false;
  try {
    for (;;) {
      const next = await generator.next();
      if (next.done) {
        finished = true;
        return next.value;
      }
      yield wrap(/** @type {Y} not done */ (next.value));
    }
  } finally {
    if (!finished) await generator.return(/** @type {R} never read */ (/** @type {unknown} */ (undefined)));
  }
}

/**
 * Runs the agent's own tool that `outcome` names (an agent tool's nested conversation, else its
 * handler or mock), yielding the events of the run: { result (the text the model gets), by (what ran) }.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} agentId
 * @param {ToolCall} call
 * @param {ToolOutcome} outcome
 * @param {ToolTurn} extra
 * @param {TurnTrace} trace
 * @returns {AsyncGenerator<AgentToolEvent, { result: string, by: ToolRun['kind'] }, undefined>}
 */
export async function* callTool(sw, session, agentId, call, outcome, extra, trace) {
  /** @type {ToolRun} */
  let ran;
  // (An MCP tool's outcome comes only from a Swarm with MCP.)
  if (outcome.mcp !== undefined) ran = await trace.toolCall(agentId, outcome.tool, call, () => /** @type {McpTools} */ (sw.mcp).call(outcome, extra.options?.signal));
  else if (sw.agentTools.has(outcome.tool)) ran = yield* agentToolCall(sw, session, agentId, call, outcome, extra, trace);
  else ran = await trace.toolCall(agentId, outcome.tool, call, () => runTool(sw, session, outcome, call, extra));
  if (ran.kind === 'missing') yield { type: 'tool_mock_required', agent: agentId, tool: outcome.tool, arguments: clone(outcome.arguments) };
  return { result: typeof ran.value === 'string' ? ran.value : JSON.stringify(ran.value ?? null), by: ran.kind };
}

/**
 * Runs one of the agent's own tools: its handler, else its mock, else tool_mock_required.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {ToolOutcome} outcome
 * @param {ToolCall} call
 * @param {ToolTurn} extra
 * @returns {Promise<ToolRun>}
 */
async function runTool(sw, session, outcome, call, extra) {
  const { tool, arguments: args } = outcome;
  /** @type {unknown[]} */
  const set = [];  // what the handler set, for the recording (docs/replay.md)
  /** @type {ToolContext} */
  const ctx = {
    session, state: session.variables, agent: agentCopy(sw, outcome.agent), input: extra.input, toolState: extra.toolState, call,
    setVariables: (variables) => {
      const changed = change(sw, session, variables, 'handler');
      set.push(clone(variables));
      return changed;
    },
  };
  const handler = sw.handlers.get(tool);
  const mock = sw.mocks.get(tool);
  if (handler !== undefined) return { kind: 'handler', value: await handler(args, ctx), variables: set };
  if (mock !== undefined) return { kind: 'mock', value: typeof mock === 'function' ? await /** @type {(args: Record<string, unknown>, ctx: ToolContext) => unknown} */ (mock)(args, ctx) : clone(mock), variables: set };
  return {
    kind: 'missing',
    value: { error: 'tool_mock_required', tool, message: `Tool '${tool}' has no handler and no mock in this environment; continue without its result.` },
  };
}

/**
 * A call of an agent tool (options.agentTools) by agent `caller`: the nested conversation's
 * events, each yielded as { type: 'agent_tool', agent: caller, tool, callId, event }, in a span of
 * its own; returns { kind: 'agent', value: its answer }.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} caller
 * @param {ToolCall} call
 * @param {ToolOutcome} outcome an agent tool's
 * @param {ToolTurn} extra
 * @param {TurnTrace} trace
 * @returns {AsyncGenerator<AgentToolEvent, ToolRun, undefined>}
 */
async function* agentToolCall(sw, session, caller, call, outcome, extra, trace) {
  const { tool, arguments: args } = outcome;
  const target = /** @type {string} */ (sw.agentTools.get(tool));
  const conversation = trace.agentToolCall(caller, tool, target, call, (nestedTrace) => askAgent(sw, session, target, args, extra, nestedTrace));
  const value = yield* reported(conversation, (event) => /** @type {AgentToolEvent} */ ({ type: 'agent_tool', agent: caller, tool, callId: call.id, event }));
  return { kind: 'agent', value };
}

/**
 * The nested conversation of agent `targetId` for an agent tool's call, on the call's `input`
 * argument (or, without one, its arguments as JSON text), with a history of its own that starts
 * empty and is dropped after. It gets the turn's model, format, budget (maxModelCalls of its
 * own) and signal, is offered its own tools but no transfers (it answers for the caller: the
 * active agent stays), and may call its own agent tools (cycles are refused when the Swarm is
 * made). A workflow agent runs its machine instead. Yields its events as a turn would (chunk,
 * response, tool_use, tool_result, tool_mock_required, workflow_step, workflow_done, and the
 * agent_tool events of its own agent tools); returns its final answer.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} targetId
 * @param {Record<string, unknown>} args
 * @param {ToolTurn} extra
 * @param {TurnTrace} trace
 * @returns {AsyncGenerator<AgentToolEvent, string, undefined>}
 */
async function* askAgent(sw, session, targetId, args, extra, trace) {
  const options = /** @type {TurnOptions} a turn's: an agent tool runs in a turn */ (extra.options);
  const text = typeof args.input === 'string' ? args.input : JSON.stringify(args);
  const variables = visibleVariables(sw, targetId, session);
  if (sw.workflows.has(targetId)) {
    const answer = yield* runWorkflow(/** @type {CheckedWorkflow} */ (sw.workflows.get(targetId)), { agent: targetId, agentDefinition: /** @type {SwarmAgent} */ (agentCopy(sw, targetId)), input: text, variables, signal: options.signal });
    trace.record(answer.recording);
    if (answer.text.length > 0) yield { type: 'chunk', agent: targetId, text: answer.text };
    if (answer.variables !== undefined) {
      const changed = change(sw, session, answer.variables, 'workflow');
      if (!changed.ok) throw new RangeError(`workflow of agent '${targetId}': ${changed.message}`);
    }
    return answer.text;
  }
  const { toolFormat, jsonSchema, maxModelCalls, signal } = options;
  // The core's view of the nested agent: the session's counters and variables, this agent active.
  /** @type {() => RoutingSession} */
  const nested = () => ({ format: SESSION_FORMAT, active: targetId, hops: session.hops, selections: session.selections, variables: session.variables });
  const transfers = new Set(offeredTransfers(sw, nested()).map((t) => t.name));
  /** @type {Message[]} */
  const history = [{ role: 'user', content: text }];
  let last = '';
  for (let calls = 0; calls < maxModelCalls; calls++) {
    signal?.throwIfAborted();
    yield* mcpRefresh(sw, targetId, signal);
    const answer = yield* callModel(sw, targetId, session, history, withoutTools(offeredTools(sw, nested(), toolFormat, { jsonSchema }), transfers), options, trace);
    if (answer.text.length > 0) last = answer.text;
    history.push({ role: 'assistant', content: answer.text, ...(answer.toolCalls.length > 0 ? { toolCalls: clone(answer.toolCalls) } : {}) });
    if (answer.toolCalls.length === 0) return answer.text;
    for (const call of answer.toolCalls) {
      const tag = mcpTag(sw, targetId, call.name);
      if (!answer.announced) yield { type: 'tool_use', agent: targetId, call: clone(call), ...tag };
      const { result, outcome } = yield* nestedToolCall(sw, session, targetId, call, transfers, nested(), extra, trace);
      history.push(toolMessage(call, result));
      yield { type: 'tool_result', agent: targetId, call: clone(call), result, outcome, ...tag };
    }
  }
  return last;
}

/**
 * One tool call of a nested conversation: { result, outcome }, yielding the events of the tool
 * (an agent tool's nested conversation, tool_mock_required). Transfers and approvals are not run.
 * @param {SwarmInternals} sw
 * @param {Session} session
 * @param {string} agentId
 * @param {ToolCall} call
 * @param {Set<string>} transfers
 * @param {RoutingSession} nested
 * @param {ToolTurn} extra
 * @param {TurnTrace} trace
 * @returns {AsyncGenerator<AgentToolEvent, { result: string, outcome: HandoffOutcome | { type: 'not_run', reason: string } }, undefined>}
 */
async function* nestedToolCall(sw, session, agentId, call, transfers, nested, extra, trace) {
  /** @type {(reason: string) => { result: string, outcome: { type: 'not_run', reason: string } }} */
  const skipped = (reason) => ({ result: `Not run: ${reason}.`, outcome: { type: 'not_run', reason } });
  if (transfers.has(call.name)) return skipped(`${agentId} is answering as a tool and cannot transfer the conversation`);
  const { outcome, result } = routingRecord(sw, nested, 'applyToolCall', 'applyToolCall', call.name, argumentsText(call), false, mcpListed(sw, agentId));
  if (outcome?.type === 'approval_required') return skipped(`${call.name} needs a person's approval, which an agent answering as a tool cannot ask for`);
  if (outcome?.type !== 'tool') return typeof result === 'string' && outcome !== null && typeof outcome === 'object' ? { result, outcome } : skipped(`${call.name} is not a tool of ${agentId}`);
  const ran = yield* callTool(sw, session, agentId, call, outcome, extra, trace);
  return { result: ran.result, outcome };
}
