// @ts-check
// What createHandler and createChatHandler take (docs/server.md#options), and the checks that turn
// a caller's options into the handler's: each mistake a TypeError that names it.
import { checkOptions } from '../options.js';
import { resolveToolFormat } from '../swarm/turn-options.js';

/** @import { ModelAnswer, ModelRequest, SessionStore, Swarm, ToolFormat } from '../index.js' */

/**
 * A session store the server can use: the SessionStore contract with turn leases.
 * @typedef {SessionStore & {
 *   acquireLease(id: string, holder: string, ttlMs: number): Promise<boolean>,
 *   releaseLease(id: string, holder: string): Promise<boolean>,
 * }} LeasedSessionStore
 */

/**
 * @typedef {object} ServerLimits
 * @property {number} [maxBodyBytes] The largest request body, in bytes (default 1 MiB): larger ones get 413 body_too_large.
 * @property {number} [maxModelCalls] Model calls in one turn (runTurn's maxModelCalls, default 10).
 * @property {number} [turnLeaseMs] A turn's lease on its session, renewed every third of it while the turn runs (default 30000 ms).
 * @property {number} [turnTimeoutMs] A turn that runs longer is stopped, with an `error` event turn_timeout (default 300000 ms).
 */

/**
 * What the model function gets: runTurn's request, with the turn's AbortSignal.
 * @typedef {ModelRequest<any> & { signal: AbortSignal }} ServerModelRequest
 */

/**
 * The server's model: runTurn's model function (a whole answer or a stream of parts), given the
 * turn's AbortSignal, which aborts when the client goes away, the turn times out or loses its
 * lease. An adapter's model (handoff-graph/adapters) carries the shape of the tools it sends.
 * @typedef {((request: ServerModelRequest) => ModelAnswer | void | Promise<ModelAnswer | void>) & { readonly toolFormat?: ToolFormat }} ServerModel
 */

/**
 * @typedef {object} HandlerOptions
 * @property {Swarm} swarm
 * @property {LeasedSessionStore} store
 * @property {ServerModel} model
 * @property {(request: Request, sessionId: string | null) => boolean | Response | Promise<boolean | Response>} [authorize]
 *   Guards every route: true lets the request through; false answers 403; a Response is sent as
 *   it is (a 401 with its WWW-Authenticate header, say). `sessionId` is null on POST /sessions, and
 *   the chat id (read from the body) on POST /chat.
 * @property {ServerLimits} [limits]
 * @property {ToolFormat} [toolFormat] The shape of the tools the model gets (default: the model's own, else 'openai-chat').
 * @property {(error: unknown, request: Request) => void} [onError] Told of the server's own failures (a store that fails, a 500); default console.error.
 */

/** createHandler's options but `swarm`: what createChatHandler takes. @typedef {Omit<HandlerOptions, 'swarm'>} ChatHandlerOptions */

/**
 * The body of every 4xx and 5xx answer, and the `data` of a turn's `error` event (with type 'error').
 * @typedef {{ error: { code: string, message: string } }} ServerError
 */

export const HANDLER_OPTIONS = ['swarm', 'store', 'model', 'authorize', 'limits', 'toolFormat', 'onError'];
export const CHAT_HANDLER_OPTIONS = HANDLER_OPTIONS.filter((key) => key !== 'swarm');
const LIMIT_OPTIONS = ['maxBodyBytes', 'maxModelCalls', 'turnLeaseMs', 'turnTimeoutMs'];

/**
 * The limits a handler applies unless told otherwise (docs/server.md#limits).
 * @type {Readonly<Required<ServerLimits>>}
 */
export const DEFAULT_LIMITS = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxModelCalls: 10,
  turnLeaseMs: 30_000,
  turnTimeoutMs: 300_000,
});

/**
 * @param {unknown} value
 * @param {string} name
 * @param {number} max
 * @returns {number}
 */
function positiveInteger(value, name, max) {
  if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 1 || /** @type {number} */ (value) > max) throw new TypeError(`limits.${name} must be an integer from 1 to ${max}, got ${typeof value === 'number' ? value : typeof value}`);
  return /** @type {number} checked above */ (value);
}

/**
 * @param {ServerLimits | undefined} limits
 * @returns {Readonly<Required<ServerLimits>>}
 */
function checkLimits(limits) {
  const given = /** @type {Record<string, unknown>} */ (checkOptions(limits, LIMIT_OPTIONS, 'createHandler limits'));
  /** @type {Record<string, number> & Required<ServerLimits>} */
  const out = { ...DEFAULT_LIMITS };
  /** @type {Record<string, number>} */
  const max = { maxBodyBytes: 2 ** 30, maxModelCalls: 1000, turnLeaseMs: 2 ** 31 - 1, turnTimeoutMs: 2 ** 31 - 1 };
  for (const key of LIMIT_OPTIONS) if (given[key] !== undefined) out[key] = positiveInteger(given[key], key, max[key]);
  if (out.turnLeaseMs < 100) throw new TypeError(`limits.turnLeaseMs must be at least 100 (it is renewed every third of it), got ${out.turnLeaseMs}`);
  return Object.freeze(out);
}

const STORE_METHODS = ['get', 'save', 'listCheckpoints', 'acquireLease', 'releaseLease'];

/**
 * The options of createHandler (`name`) checked, with the defaults filled in: `toolFormat` the
 * model's own (an adapter's says which shape of tools it sends, and runTurn reads it from the
 * model too) unless given, and `limits` every limit.
 * @param {HandlerOptions} options
 * @param {string} name
 */
export function checkHandlerOptions(options, name) {
  const { swarm, store, model, authorize, limits: givenLimits, onError } = options;
  if (typeof swarm?.createSession !== 'function' || typeof swarm.runTurn !== 'function') throw new TypeError(`${name}: swarm must be a Swarm (new Swarm(definition))`);
  for (const method of STORE_METHODS) {
    if (typeof (/** @type {any} a caller's value, checked here */ (store))?.[method] !== 'function') {
      throw new TypeError(`${name}: store must be a session store with turn leases (MemoryStore, FileStore, RedisStore, PostgresStore or one keeping the same contract, docs/server.md#stores); it has no ${method}()`);
    }
  }
  if (typeof model !== 'function') throw new TypeError(`${name}: model must be a function ({ agent, messages, tools }) => { text, toolCalls }`);
  if (authorize !== undefined && typeof authorize !== 'function') throw new TypeError(`${name}: authorize must be a function (request, sessionId) => boolean | Response`);
  if (onError !== undefined && typeof onError !== 'function') throw new TypeError(`${name}: onError must be a function (error, request) => void`);
  const toolFormat = resolveToolFormat(options.toolFormat, model, name);
  if (model.toolFormat !== undefined && model.toolFormat !== toolFormat) {
    throw new TypeError(`${name}: the model sends tools in the '${model.toolFormat}' shape, but toolFormat is '${toolFormat}': leave toolFormat out (it is read from the model)`);
  }
  return { swarm, store, model, authorize, onError, toolFormat, limits: checkLimits(givenLimits) };
}
