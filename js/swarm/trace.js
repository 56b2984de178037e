// @ts-check
// A Swarm turn's tracing (docs/server.md, "Tracing"): its hooks, which make the turn's spans
// (invoke_agent, chat, execute_tool, handoffs and route decisions) and write its recording's lines
// to the trace log (docs/replay.md). What spans and logs share is js/tracing.js's.
import { defined, NO_SPAN, openLog, openTracer, Span } from '../tracing.js';

/**
 * @import * as OpenTelemetry from '@opentelemetry/api'
 * @import { Otel, OtelApi, TraceLog, TraceSettings, TraceSpan } from '../tracing.js'
 */

// ------------------------------------------------------------------------------------------
// A Swarm turn

/**
 * The hooks of a turn (TurnTrace, or NO_TRACE when nothing is traced or logged): its spans and its
 * recording's lines.
 * @typedef {{
 *   record(line: { type: string, [field: string]: unknown }): void,
 *   route(from: string, outcome: HandoffOutcome | null, edge: unknown): void,
 *   modelCall(agent: string, request: ModelRequest, call: () => unknown, read: (answer: unknown) => AsyncGenerator<AnswerEvent, ModelAnswerRead, undefined>): AsyncGenerator<AnswerEvent, ModelAnswerRead, undefined>,
 *   toolCall(agent: string, tool: string, call: ToolCall, run: () => Promise<ToolRun>): Promise<ToolRun>,
 *   agentToolCall(agent: string, tool: string, target: string, call: ToolCall, run: (trace: TurnHooks) => AsyncGenerator<AgentToolEvent, string, undefined>): AsyncGenerator<AgentToolEvent, string, undefined>,
 * }} TurnHooks
 * @import { AgentToolEvent, HandoffOutcome, ModelRequest, ToolCall } from '../index.js'
 * @import { AnswerEvent, ModelAnswerRead, ToolRun } from './turn-options.js'
 */

/** @type {TurnHooks} */
const NO_TRACE = Object.freeze({
  record(_line) {},
  route(_from, _outcome, _edge) {},
  modelCall: (_agent, _request, call, read) => (async function* () {
    return yield* read(await call());
  })(),
  toolCall: (_agent, _tool, _call, run) => run(),
  agentToolCall: (_agent, _tool, _target, _call, run) => run(NO_TRACE),
});

/** The hooks of a turn without tracing (runTurn's own calls of #rules etc. take it by default). */
export const NO_TURN_TRACE = NO_TRACE;

/** @implements {TurnHooks} */
class TurnTrace {
  /** @type {OtelApi | null} */
  #api;
  /** @type {OpenTelemetry.Tracer | null} */
  #tracer;
  /** @type {TraceSpan & { context?: OpenTelemetry.Context }} */
  #turn;
  /** @type {string} */
  #swarm;
  /** @type {TraceLog | null} */
  #log;

  /**
   * @param {Otel | null} otel
   * @param {TraceSpan & { context?: OpenTelemetry.Context }} turnSpan
   * @param {string} swarm
   * @param {TraceLog | null} [log]
   */
  constructor(otel, turnSpan, swarm, log = null) {
    this.#api = otel?.api ?? null;
    this.#tracer = otel?.tracer ?? null;
    this.#turn = turnSpan;
    this.#swarm = swarm;
    this.#log = log;
  }

  /**
   * A line of the recording that no event carries (docs/replay.md): what a host function or the
   * model answered, written in order with the turn's events. Nothing without a trace log.
   * @param {{ type: string, [field: string]: unknown }} line
   */
  record(line) {
    this.#log?.write(line);
  }

  /**
   * A child of the turn's span.
   * @param {string} name
   * @param {Record<string, unknown>} attributes
   * @param {OpenTelemetry.SpanKind} [kind]
   * @returns {TraceSpan}
   */
  child(name, attributes, kind) {
    if (this.#tracer === null || !this.#turn.recording) return NO_SPAN;
    // A tracer comes with its API; a recording span is a Span, with its context.
    const api = /** @type {OtelApi} */ (this.#api);
    const context = /** @type {OpenTelemetry.Context} */ (this.#turn.context);
    const span = this.#tracer.startSpan(name, { attributes: defined(attributes), kind: kind ?? api.SpanKind.INTERNAL }, context);
    return new Span(api, span, context);
  }

  /**
   * A rule-edge route decision of agent `from`: `outcome` (a handoff) or null when no rule held.
   * @param {string} from
   * @param {any} outcome
   * @param {any} edge
   */
  route(from, outcome, edge) {
    const span = this.child('handoff_graph.route', {
      'handoff_graph.swarm': this.#swarm,
      'gen_ai.agent.name': from,
      'handoff_graph.route.matched': outcome !== null,
      'handoff_graph.edge.index': outcome?.edge,
      'handoff_graph.edge.to': outcome?.to,
      'handoff_graph.edge.condition': edge?.when,
    });
    span.end();
  }

  /**
   * A handoff (a rule edge or a transfer tool), from its event.
   * @param {Record<string, any>} event
   */
  handoff(event) {
    const span = this.child('handoff_graph.handoff', {
      'handoff_graph.swarm': this.#swarm,
      'handoff_graph.handoff.from': event.from,
      'handoff_graph.handoff.to': event.to,
      'handoff_graph.edge.index': event.edge,
      'handoff_graph.handoff.by': event.by ?? (event.tool === undefined ? undefined : 'tool'),
      'gen_ai.tool.name': event.tool,
      'handoff_graph.handoff.reason': typeof event.reason === 'string' ? event.reason : undefined,
    });
    span.end();
  }

  /**
   * The model call `call()` of `agent`, its answer read by `read(result)` (a generator).
   * @param {string} agent
   * @param {any} request the model request
   * @param {() => Promise<unknown>} call
   * @param {(answer: unknown) => AsyncGenerator<any, any>} read
   * @returns {AsyncGenerator<any, any>}
   */
  async *modelCall(agent, request, call, read) {
    const model = modelName(request);
    const span = this.child(model === undefined ? 'chat' : `chat ${model}`, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.agent.name': agent,
      'gen_ai.request.model': model,
      'handoff_graph.tools.offered': Array.isArray(request.tools) ? request.tools.length : Object.keys(request.tools ?? {}).length,
    }, this.#api?.SpanKind.CLIENT);
    try {
      const answer = yield* read(await span.run(call));
      this.#log?.write({ type: 'model', agent, tools: toolNames(request.tools), text: answer.text, toolCalls: answer.toolCalls });
      span.set({
        'gen_ai.response.finish_reasons': typeof answer.finishReason === 'string' ? [answer.finishReason] : undefined,
        'gen_ai.usage.input_tokens': tokens(answer.usage, 'inputTokens', 'input_tokens', 'prompt_tokens', 'promptTokens'),
        'gen_ai.usage.output_tokens': tokens(answer.usage, 'outputTokens', 'output_tokens', 'completion_tokens', 'completionTokens'),
        'handoff_graph.tool_calls': answer.toolCalls.length,
      });
      return answer;
    } catch (error) {
      span.fail(error);
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * A call of agent tool `tool` by `agent`: `execute_tool {tool}` holding `invoke_agent {target}`,
   * under which `run(trace)` (an async generator: the nested conversation) makes its spans.
   * Yields what it yields, returns what it returns.
   * @param {string} agent
   * @param {string} tool
   * @param {string} target
   * @param {any} call
   * @param {(trace: TurnHooks) => AsyncGenerator<any, any>} run
   * @returns {AsyncGenerator<any, any>}
   */
  async *agentToolCall(agent, tool, target, call, run) {
    const toolSpan = this.#toolSpan(agent, tool, call);
    toolSpan.set({ 'handoff_graph.tool.by': 'agent' });
    const agentSpan = new TurnTrace(this.#otel(), toolSpan, this.#swarm, this.#log).child(`invoke_agent ${target}`, {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': target,
      'handoff_graph.swarm': this.#swarm,
    });
    try {
      return yield* run(new TurnTrace(this.#otel(), agentSpan, this.#swarm, this.#log));
    } catch (error) {
      agentSpan.fail(error);
      toolSpan.fail(error);
      throw error;
    } finally {
      agentSpan.end();
      toolSpan.end();
    }
  }

  /** @returns {Otel | null} */
  #otel() {
    return this.#tracer === null ? null : { api: /** @type {OtelApi} */ (this.#api), tracer: this.#tracer };
  }

  // `execute_tool {tool}`: a call of agent `agent`'s own tool.
  /**
   * @param {string} agent
   * @param {string} tool
   * @param {any} call
   */
  #toolSpan(agent, tool, call) {
    return this.child(`execute_tool ${tool}`, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.agent.name': agent,
      'gen_ai.tool.name': tool,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': typeof call?.id === 'string' ? call.id : undefined,
    });
  }

  /**
   * The agent's own tool (or an MCP tool) `tool` run by `run()` (resolves { kind, value, server?, isError? }).
   * @param {string} agent
   * @param {string} tool
   * @param {any} call
   * @param {() => Promise<any>} run
   * @returns {Promise<any>}
   */
  async toolCall(agent, tool, call, run) {
    const span = this.#toolSpan(agent, tool, call);
    try {
      const ran = await span.run(run);
      // An MCP tool's span also names its server (and says whether its result was an error).
      span.set({ 'handoff_graph.tool.by': ran.kind, ...(ran.server === undefined ? {} : { 'handoff_graph.mcp.server': ran.server, 'handoff_graph.mcp.is_error': ran.isError }) });
      this.#log?.write({
        type: 'tool', agent, tool, callId: call?.id, by: ran.kind,
        result: typeof ran.value === 'string' ? ran.value : JSON.stringify(ran.value ?? null),
        ...(ran.variables?.length > 0 ? { variables: ran.variables } : {}),
      });
      return ran;
    } catch (error) {
      span.fail(error);
      throw error;
    } finally {
      span.end();
    }
  }
}

// The names of the tools a model call was offered, in any of the four formats.
/** @param {unknown} tools */
function toolNames(tools) {
  if (Array.isArray(tools)) return tools.map((t) => t?.function?.name ?? t?.name);
  return Object.keys(tools ?? {});
}

// The model's name when the request says it: the agent's config (runTurn's agentConfig) or the agent.
/** @param {any} request */
function modelName(request) {
  const model = request?.config?.model ?? request?.agent?.model;
  return typeof model === 'string' && model.length > 0 ? model : undefined;
}

/**
 * @param {any} usage a model's usage report, in any provider's shape
 * @param {...string} names
 * @returns {number | undefined}
 */
function tokens(usage, ...names) {
  if (typeof usage !== 'object' || usage === null) return undefined;
  for (const name of names) if (Number.isFinite(usage[name])) return usage[name];
  return undefined;
}

/**
 * Writes `line` (a change between turns: docs/replay.md) to the trace log of `settings`, with
 * `base` (its swarm and session), after `previous` (the promise of the line before it, or
 * undefined); resolves once it is written, rejects as a turn's line does when it cannot be.
 * @param {TraceSettings} settings with a traceLogPath (checkTracing checked a log can be opened)
 * @param {Record<string, unknown>} base
 * @param {{ type: string, [field: string]: unknown }} line
 * @param {Promise<unknown> | undefined} previous
 * @returns {Promise<void>}
 */
export async function traceOutside(settings, base, line, previous) {
  const log = await openLog(settings, base);
  // In order: the line before it is appended first; the first failure is the one reported.
  const failed = previous === undefined ? null : await previous.then(() => null, (error) => error);
  log.write(line);
  await log.flush();
  if (failed !== null) throw failed;
}

/**
 * Runs one turn (`run(trace)`, an async generator of the turn's events) inside a turn span and
 * the trace log, per `settings` (checkTracing). `info`: { swarm, session, agent, approvalId?,
 * recording? } (`recording()`: what the open line of the log adds, docs/replay.md).
 * @param {TraceSettings} settings
 * @param {{ swarm: string, session: string, agent: string, approvalId?: string, recording?: () => Record<string, unknown> }} info
 * @param {(trace: TurnHooks) => AsyncIterable<any>} run the turn: its events
 * @returns {AsyncGenerator<any, void>}
 */
export async function* traceTurn(settings, info, run) {
  const otel = await openTracer(settings);
  const log = settings.traceLogPath === undefined ? null : await openLog(settings, { swarm: info.swarm, session: info.session });
  if (otel === null && log === null) {
    yield* run(NO_TRACE);
    return;
  }
  /** @type {TraceSpan} */
  let turnSpan = NO_SPAN;
  if (otel !== null) {
    const { api, tracer } = otel;
    const parent = api.context.active();
    const span = tracer.startSpan(`invoke_agent ${info.agent}`, {
      kind: api.SpanKind.INTERNAL,
      attributes: defined({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': info.agent,
        'gen_ai.conversation.id': info.session,
        'handoff_graph.swarm': info.swarm,
        'handoff_graph.approval.id': info.approvalId,
      }),
    }, parent);
    turnSpan = new Span(api, span, parent);
  }
  const trace = new TurnTrace(otel, turnSpan, info.swarm, log);
  /** @type {unknown} */
  let failure = null;
  try {
    for await (const event of run(trace)) {
      if (event.type === 'handoff') trace.handoff(event);
      else if (event.type === 'open') turnSpan.set({ 'handoff_graph.turn': event.turn });
      else if (event.type === 'done') turnSpan.set({ 'handoff_graph.turn.reason': event.reason, 'handoff_graph.agent.final': event.agent });
      else if (event.type === 'guardrail_tripped') turnSpan.set({ 'handoff_graph.guardrail.tripped': `${event.kind}:${event.agent}` });
      if (log !== null) {
        // The recording (docs/replay.md): a turn's open line also holds what the turn started from.
        log.turnEvent(event, event.type === 'open' ? info.recording?.() : undefined);
        // The turn is not done before its lines are: a failed write fails it, before `done`.
        if (event.type === 'done') await log.flush();
      }
      yield event;
    }
  } catch (error) {
    failure = error;
    turnSpan.fail(error);
    log?.error(error);
    throw error;
  } finally {
    turnSpan.end();
    await log?.close(failure);
  }
}
