// @ts-check
// Tracing: OpenTelemetry spans and a JSON-lines trace log for Swarm turns and StateMachine runs
// (docs/server.md, "Tracing"). No dependency: spans go through `@opentelemetry/api` when the
// application has it. The Node entry (js/node.js) tells this module how to import it and how to
// open a trace log file; the browser entries do not (a bundler would have to resolve the optional
// package, and there is no file system), so there `tracing: { api }` hands the module over and a
// trace log is an error. The log's lines are js/trace-log.js's; this file says what goes in them
// and when. Without a tracer and a log, every hook below is a no-op object: a turn
// pays a few property reads.
//
// Spans follow the OpenTelemetry GenAI semantic conventions where they apply (gen_ai.*:
// invoke_agent for a turn, chat for a model call, execute_tool for a tool, invoke_workflow for a
// machine run) and use handoff_graph.* for what those conventions do not name (handoffs, route
// decisions, state-machine steps). Children are started with the turn's (or run's) span as their
// explicit parent; the model function, tool handlers and state handlers run with their own span
// active, so that spans the application makes inside them nest there.
import { checkOptions } from './options.js';
import { describe } from './text.js';

/** @import * as OpenTelemetry from '@opentelemetry/api' */
/** @typedef {Awaited<ReturnType<typeof import('./trace-log.js').openTraceLog>>} TraceLog a trace log's writer for one turn or run (types only: this module never imports the Node file) */

/** @typedef {typeof OpenTelemetry} OtelApi the @opentelemetry/api module */
/** @typedef {{ api: OtelApi, tracer: OpenTelemetry.Tracer }} Otel */
/**
 * A span as the hooks use it (Span below, or NO_SPAN when nothing is traced).
 * @typedef {{ recording: boolean, set(attributes: Record<string, unknown>): void, fail(error: unknown): void, end(): void, run<T>(fn: () => T): T }} TraceSpan
 */
/** @typedef {{ tracing: { tracerProvider?: OpenTelemetry.TracerProvider, api?: OtelApi } | false, traceLogPath: string | URL | undefined }} TraceSettings what checkTracing returns */
/** @typedef {(location: string | URL, base: Record<string, unknown>) => Promise<TraceLog>} OpenTraceLog */

const INSTRUMENTATION = 'handoff-graph';
const INSTRUMENTATION_VERSION = '0.1.0';
const TRACING_OPTIONS = ['tracerProvider', 'api'];

// How the host finds the application's @opentelemetry/api (a promise of the module, or of null
// when there is none) and opens a trace log, or null: set by js/node.js; a browser entry has neither.
/** @type {() => Promise<OtelApi | null>} */
let loadApi = () => Promise.resolve(null);
/** @type {OpenTraceLog | null} */
let openTraceLogFile = null;

/**
 * For the Node entry: how to import the OpenTelemetry API (`loadOpenTelemetry()`: the module or
 * null), and how to open a trace log (js/trace-log.js: `openTraceLog(location, base)`, which
 * writes the lines of one turn or run).
 * @param {{ loadOpenTelemetry: () => Promise<OtelApi | null>, openTraceLog: OpenTraceLog }} host
 */
export function configureTracingHost({ loadOpenTelemetry, openTraceLog }) {
  loadApi = loadOpenTelemetry;
  openTraceLogFile = openTraceLog;
}

/** @type {(api: any) => boolean} */
const isApi = (api) => typeof api?.trace?.setSpan === 'function' && typeof api?.context?.with === 'function';

/**
 * Checks the `tracing` and `traceLogPath` options of a Swarm or a run; returns the settings that
 * open() takes. `where` names the options object in errors.
 * @param {unknown} tracing
 * @param {unknown} traceLogPath
 * @param {string} where
 * @returns {TraceSettings}
 */
export function checkTracing(tracing, traceLogPath, where) {
  if (tracing !== undefined && tracing !== false) {
    /** @type {Record<string, any>} a caller's values, checked here */
    const { tracerProvider, api } = checkOptions(/** @type {object} */ (tracing), TRACING_OPTIONS, `${where}.tracing`);
    if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
      throw new TypeError(`${where}.tracing.tracerProvider must be an OpenTelemetry TracerProvider (with getTracer()), got ${describe(tracerProvider)}`);
    }
    if (api !== undefined && !isApi(api)) throw new TypeError(`${where}.tracing.api must be the @opentelemetry/api module (import * as api from '@opentelemetry/api'), got ${describe(api)}`);
  }
  if (traceLogPath !== undefined) {
    if (typeof traceLogPath !== 'string' && !(traceLogPath instanceof URL)) throw new TypeError(`${where}.traceLogPath must be a file path or a file: URL, got ${describe(traceLogPath)}`);
    if (typeof traceLogPath === 'string' && traceLogPath.length === 0) throw new TypeError(`${where}.traceLogPath must be a file path, got an empty string`);
    if (openTraceLogFile === null) {
      throw new TypeError(`${where}.traceLogPath needs a file system: it works in Node (import 'handoff-graph' there); in this runtime, read the turn's events or use OpenTelemetry (options.tracing) instead`);
    }
  }
  return { tracing: tracing === undefined ? {} : /** @type {TraceSettings['tracing']} checked above */ (tracing), traceLogPath: /** @type {string | URL | undefined} */ (traceLogPath) };
}

// ------------------------------------------------------------------------------------------
// Spans

/** @type {TraceSpan} */
const NO_SPAN = Object.freeze({
  recording: false,
  set(_attributes) {},
  fail(_error) {},
  end() {},
  run: (fn) => fn(),
});

/** A span and the context that holds it (children start from that context). */
class Span {
  /** @type {OtelApi} */
  #api;
  /** @type {OpenTelemetry.Span} */
  #span;
  /** @type {OpenTelemetry.Context} */
  #context;
  #ended = false;

  /**
   * @param {OtelApi} api
   * @param {OpenTelemetry.Span} span
   * @param {OpenTelemetry.Context} context
   */
  constructor(api, span, context) {
    this.#api = api;
    this.#span = span;
    this.#context = api.trace.setSpan(context, span);
    this.recording = span.isRecording();
  }

  /** @returns {OpenTelemetry.Context} */
  get context() {
    return this.#context;
  }

  /**
   * Sets the attributes whose values are defined (OpenTelemetry refuses undefined and null).
   * @param {Record<string, unknown>} attributes
   */
  set(attributes) {
    if (!this.recording) return;
    for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) this.#span.setAttribute(key, /** @type {OpenTelemetry.AttributeValue} */ (value));
  }

  /**
   * Records `error` and sets the span's status to ERROR.
   * @param {unknown} error
   */
  fail(error) {
    if (this.#ended) return;
    const message = error instanceof Error ? error.message : String(error);
    this.#span.recordException(error instanceof Error ? error : { name: 'Error', message });
    this.#span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message });
    this.#span.setAttribute('error.type', error instanceof Error ? error.name || 'Error' : '_OTHER');
  }

  end() {
    if (this.#ended) return;
    this.#ended = true;
    this.#span.end();
  }

  /**
   * Calls `fn` with this span active (spans made inside it become its children).
   * @template T
   * @param {() => T} fn
   * @returns {T}
   */
  run(fn) {
    return this.#api.context.with(this.#context, fn);
  }
}

// The tracer and API of a turn or a run, or null when there are no spans to make.
/**
 * @param {TraceSettings} settings
 * @returns {Promise<Otel | null>}
 */
async function openTracer({ tracing }) {
  if (tracing === false) return null;
  const api = tracing.api ?? (await loadApi());
  if (api === null) {
    if (tracing.tracerProvider !== undefined) throw new Error("tracing.tracerProvider needs @opentelemetry/api, which could not be imported: install it, or pass the module as tracing.api");
    return null;
  }
  const provider = tracing.tracerProvider ?? api.trace.getTracerProvider();
  const tracer = provider.getTracer(INSTRUMENTATION, INSTRUMENTATION_VERSION);
  if (typeof tracer?.startSpan !== 'function') throw new TypeError(`tracing.tracerProvider.getTracer() returned ${describe(tracer)}, not an OpenTelemetry Tracer`);
  return { api, tracer };
}

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
 * @import { AgentToolEvent, HandoffOutcome, ModelRequest, ToolCall } from './index.js'
 * @import { AnswerEvent, ModelAnswerRead, ToolRun } from './swarm/turn-options.js'
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

/**
 * @param {Record<string, unknown>} attributes
 * @returns {OpenTelemetry.Attributes}
 */
function defined(attributes) {
  /** @type {OpenTelemetry.Attributes} */
  const out = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) out[key] = /** @type {OpenTelemetry.AttributeValue} */ (value);
  return out;
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
  const log = await /** @type {OpenTraceLog} */ (openTraceLogFile)(/** @type {string | URL} */ (settings.traceLogPath), base);
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
  const log = settings.traceLogPath === undefined ? null : await /** @type {OpenTraceLog} checkTracing checked it is set */ (openTraceLogFile)(settings.traceLogPath, { swarm: info.swarm, session: info.session });
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

// ------------------------------------------------------------------------------------------
// A StateMachine run

/**
 * A step's hooks (StepSpan, or NO_STEP).
 * @typedef {{ run<T>(fn: () => T): T, route(): TraceSpan, fail(error: unknown): void, end(record?: { next: unknown, edge: unknown }): void }} StepHooks
 */
/** @type {StepHooks} */
const NO_STEP = Object.freeze({
  run: (fn) => fn(),
  route: () => NO_SPAN,
  fail(_error) {},
  end(_record) {},
});
/** @typedef {{ state: { name: string }, step: number, visit: number }} BegunStep */
/** @type {{ step(begun: BegunStep): StepHooks, event(record: { type: string, [field: string]: unknown }): void }} */
const NO_RUN_TRACE = Object.freeze({
  step: (_begun) => NO_STEP,
  event(_record) {},
});

/** The hooks of a machine run without tracing. */
export const NO_MACHINE_TRACE = NO_RUN_TRACE;

/** @implements {StepHooks} */
class StepSpan {
  /** @type {OtelApi} */
  #api;
  /** @type {OpenTelemetry.Tracer} */
  #tracer;
  /** @type {Span} */
  #span;

  /**
   * @param {OtelApi} api
   * @param {OpenTelemetry.Tracer} tracer
   * @param {Span} span
   */
  constructor(api, tracer, span) {
    this.#api = api;
    this.#tracer = tracer;
    this.#span = span;
  }

  /**
   * @template T
   * @param {() => T} fn
   * @returns {T}
   */
  run(fn) {
    return this.#span.run(fn);
  }

  /**
   * The route decision after the handler: a child span, ended by the caller with its outcome.
   * @returns {TraceSpan}
   */
  route() {
    if (!this.#span.recording) return NO_SPAN;
    return new Span(this.#api, this.#tracer.startSpan('handoff_graph.route', { kind: this.#api.SpanKind.INTERNAL }, this.#span.context), this.#span.context);
  }

  /**
   * The step failed with `error`: recorded, and the step's span ended.
   * @param {unknown} error
   */
  fail(error) {
    this.#span.fail(error);
    this.#span.end();
  }

  /**
   * Ends the step with its record (next, edge).
   * @param {{ next: unknown, edge: unknown }} [record]
   */
  end(record) {
    if (record !== undefined) this.#span.set({ 'handoff_graph.step.next': record.next, 'handoff_graph.edge.index': record.edge });
    this.#span.end();
  }
}

class RunTrace {
  /** @type {Otel | null} */
  #otel;
  /** @type {TraceSpan & { context?: OpenTelemetry.Context }} */
  #runSpan;
  /** @type {TraceLog | null} */
  #log;
  /** @type {string} */
  #machine;
  /** @type {unknown} */
  #failure = null;

  /**
   * @param {Otel | null} otel
   * @param {TraceSpan & { context?: OpenTelemetry.Context }} runSpan
   * @param {TraceLog | null} log
   * @param {string} machine
   */
  constructor(otel, runSpan, log, machine) {
    this.#otel = otel;
    this.#runSpan = runSpan;
    this.#log = log;
    this.#machine = machine;
  }

  /**
   * A step's span (a child of the run's), with the handler to run inside it.
   * @param {BegunStep} begun
   * @returns {StepHooks}
   */
  step(begun) {
    if (this.#otel === null || !this.#runSpan.recording) return NO_STEP;
    const { api, tracer } = this.#otel;
    const parent = /** @type {OpenTelemetry.Context} a recording span is a Span */ (this.#runSpan.context);
    const span = tracer.startSpan(`handoff_graph.step ${begun.state.name}`, {
      kind: api.SpanKind.INTERNAL,
      attributes: { 'handoff_graph.machine': this.#machine, 'handoff_graph.state': begun.state.name, 'handoff_graph.step': begun.step, 'handoff_graph.visit': begun.visit },
    }, parent);
    return new StepSpan(api, tracer, new Span(api, span, parent));
  }

  /**
   * A log line (a step's record).
   * @param {{ type: string, [field: string]: unknown }} record
   */
  event(record) {
    this.#log?.write(record);
  }

  /**
   * The run ended with `result`.
   * @param {{ reason: string, stepsRun: number }} result
   */
  succeeded(result) {
    this.#runSpan.set({ 'handoff_graph.run.reason': result.reason, 'handoff_graph.run.steps': result.stepsRun });
    this.#log?.write({ type: 'end', reason: result.reason, stepsRun: result.stepsRun });
  }

  /**
   * The run failed with `error`.
   * @param {unknown} error
   */
  failed(error) {
    this.#failure = error;
    this.#runSpan.fail(error);
    this.#log?.error(error);
  }

  /** Ends the run's span and waits for its log lines: rejects when one could not be written (unless the run failed anyway). */
  async close() {
    this.#runSpan.end();
    await this.#log?.close(this.#failure);
  }
}

/**
 * Sets a route span's attributes from the step's record and the edge that fired (or none), and ends it.
 * @param {TraceSpan} span
 * @param {{ edge: number | null }} record
 * @param {{ to?: string, when?: string | null, description?: string } | undefined} edge
 */
export function endRoute(span, record, edge) {
  span.set({
    'handoff_graph.route.matched': record.edge !== null,
    'handoff_graph.edge.index': record.edge,
    'handoff_graph.edge.to': edge?.to,
    'handoff_graph.edge.condition': edge?.when ?? undefined,
    'handoff_graph.edge.description': edge?.description || undefined,
  });
  span.end();
}

/** @type {Pick<RunTrace, 'step' | 'event' | 'succeeded' | 'failed' | 'close'>} */
const NO_RUN = Object.freeze({ ...NO_RUN_TRACE, succeeded(_result) {}, failed(_error) {}, close: async () => {} });

/**
 * Opens the trace of a machine run per `settings` (checkTracing): a run span (a child of the
 * active context) and the trace log. `info`: { machine, runId?, start? } (`start()`: the state and
 * step the run starts from, the log's first line). The caller reports the run's
 * end (succeeded / failed) and then awaits close().
 * @param {TraceSettings} settings
 * @param {{ machine: string, runId?: string, start?: () => Record<string, unknown> }} info
 * @returns {Promise<Pick<RunTrace, 'step' | 'event' | 'succeeded' | 'failed' | 'close'>>}
 */
export async function openRunTrace(settings, info) {
  const otel = await openTracer(settings);
  const log = settings.traceLogPath === undefined ? null : await /** @type {OpenTraceLog} checkTracing checked it is set */ (openTraceLogFile)(settings.traceLogPath, { machine: info.machine, ...(info.runId === undefined ? {} : { runId: info.runId }) });
  if (otel === null && log === null) return NO_RUN;
  // The recording (docs/replay.md): what the run starts from, then each step with its update.
  if (log !== null && info.start !== undefined) log.write({ type: 'start', ...info.start() });
  /** @type {TraceSpan} */
  let runSpan = NO_SPAN;
  if (otel !== null) {
    const { api, tracer } = otel;
    const parent = api.context.active();
    const span = tracer.startSpan(`invoke_workflow ${info.machine}`, {
      kind: api.SpanKind.INTERNAL,
      attributes: defined({ 'gen_ai.operation.name': 'invoke_workflow', 'handoff_graph.machine': info.machine, 'handoff_graph.run.id': info.runId }),
    }, parent);
    runSpan = new Span(api, span, parent);
  }
  return new RunTrace(otel, runSpan, log, info.machine);
}
