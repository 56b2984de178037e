// @ts-check
// A StateMachine run's tracing (docs/server.md, "Tracing"): its hooks, which make the run's spans
// (invoke_workflow, a step's, its route's) and write its recording's lines to the trace log
// (docs/replay.md). What spans and logs share is js/tracing.js's.
import { defined, NO_SPAN, openLog, openTracer, Span } from '../tracing.js';

/**
 * @import * as OpenTelemetry from '@opentelemetry/api'
 * @import { Otel, OtelApi, TraceLog, TraceSettings, TraceSpan } from '../tracing.js'
 */

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
  const log = settings.traceLogPath === undefined ? null : await openLog(settings, { machine: info.machine, ...(info.runId === undefined ? {} : { runId: info.runId }) });
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
