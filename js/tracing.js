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
// This file holds what both share: the host's hooks, the options' check, spans and the log's
// opening; a turn's hooks are js/swarm/trace.js's, a run's js/machine/trace.js's.
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
export const NO_SPAN = Object.freeze({
  recording: false,
  set(_attributes) {},
  fail(_error) {},
  end() {},
  run: (fn) => fn(),
});

/** A span and the context that holds it (children start from that context). */
export class Span {
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
export async function openTracer({ tracing }) {
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

/**
 * Sets the attributes whose values are defined (OpenTelemetry refuses undefined and null).
 * @param {Record<string, unknown>} attributes
 * @returns {OpenTelemetry.Attributes}
 */
export function defined(attributes) {
  /** @type {OpenTelemetry.Attributes} */
  const out = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) out[key] = /** @type {OpenTelemetry.AttributeValue} */ (value);
  return out;
}

/**
 * Opens the trace log of `settings` (checkTracing checked that it is set and that this runtime can
 * open one), with `base` on every line: a swarm's and session's, or a machine's and run's.
 * @param {TraceSettings} settings
 * @param {Record<string, unknown>} base
 * @returns {Promise<TraceLog>}
 */
export function openLog(settings, base) {
  return /** @type {OpenTraceLog} checkTracing checked it is set */ (openTraceLogFile)(/** @type {string | URL} */ (settings.traceLogPath), base);
}
