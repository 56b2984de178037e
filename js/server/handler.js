// @ts-check
// createHandler: a swarm served over HTTP as one Fetch-API function, (Request) => Promise<Response>,
// for any runtime that speaks Request and Response (Node 20, Deno, Bun, workers); serve() in
// ./node.js puts it on node:http. The routes and their errors are documented in docs/server.md.
//
// The handler keeps nothing between requests: sessions live in the store, so any number of
// processes can serve the same sessions. A turn holds the session's lease in the store (one turn
// at a time per session, across processes; a second gets 409) and renews it while it runs; its
// result is saved with one version-checked save that also appends its checkpoints, so a turn
// lands whole or not at all, and a holder whose lease ran out can never overwrite a later turn.
import { checkOptions } from '../options.js';
import { TOOL_FORMATS } from '../tool-calls.js';
import { chatFormat, chatRequest } from './chat.js';
import { errorResponse, EVENT_STREAM, fields, HttpError, json, notFound, randomId, readJSON, TurnError } from './http.js';

/** @import { ModelAnswer, ModelRequest, Session, SessionStore, Swarm, SwarmEvent, ToolFormat } from '../index.js' */
/** @import { StreamFormat } from './http.js' */

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

/** @typedef {(options: { model: (request: any) => Promise<unknown>, toolFormat?: ToolFormat, maxModelCalls: number, signal: AbortSignal }) => AsyncIterable<SwarmEvent>} TurnStart */

const HANDLER_OPTIONS = ['swarm', 'store', 'model', 'authorize', 'limits', 'toolFormat', 'onError'];
const CHAT_HANDLER_OPTIONS = HANDLER_OPTIONS.filter((key) => key !== 'swarm');
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

// Session ids the server makes are 24 characters of base64url (144 random bits). Ids that a host
// stored by other means are served too if they are made of the same alphabet; anything else in
// that place of a path cannot name a session.
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const APPROVAL_ID = /^[A-Za-z0-9_-]{1,128}$/;

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

// The `done` event tells where the session stands; the session itself is at GET /sessions/:id
// (its histories grow with the conversation, and a stream is no place to repeat them every turn).
/**
 * @param {{ type: string, [field: string]: unknown }} event
 * @param {Session} session
 * @returns {{ type: string, [field: string]: unknown }}
 */
function doneEvent(event, session) {
  const { session: _omitted, ...rest } = event;
  return { ...rest, session: { id: session.id, version: session.version, active: session.active, turn: session.turn, hops: session.hops } };
}

/**
 * The HTTP API over `swarm` and `store` (docs/server.md).
 *
 * @param options `swarm`: a Swarm; `store`: a session store with leases (the package's Memory,
 *   File and Redis stores); `model`: the model function runTurn calls; `authorize(request,
 *   sessionId)`: true to let a request through, false (403) or a Response to send instead;
 *   `limits`: { maxBodyBytes, maxModelCalls, turnLeaseMs, turnTimeoutMs }; `toolFormat`: the
 *   shape of the tools the model gets (runTurn's: by default the model's own, as an adapter's
 *   says, else 'openai-chat'); `onError(error,
 *   request)`: told of the server's own failures (default: console.error)
 * @param {HandlerOptions} options
 * @returns {(request: Request) => Promise<Response>}
 */
export function createHandler(options) {
  if (options === undefined) throw new TypeError('createHandler needs { swarm, store, model }');
  return build(checkOptions(options, HANDLER_OPTIONS, 'createHandler options'), 'createHandler').handler;
}

/**
 * POST /chat alone, for an application with its own server (a Next.js route handler, a Hono or
 * Express route): the AI SDK's UI message stream protocol, as `useChat` speaks it (docs/server.md#chat-uis-usechat).
 * Every request is answered as a chat request, whatever its path; methods other than POST get 405.
 *
 * @param {Swarm} swarm a Swarm
 * @param {ChatHandlerOptions} options createHandler's options but `swarm`
 * @returns {(request: Request) => Promise<Response>}
 */
export function createChatHandler(swarm, options) {
  if (options === undefined) throw new TypeError('createChatHandler(swarm, options) needs the options { store, model }');
  const { chat } = build({ ...checkOptions(options, CHAT_HANDLER_OPTIONS, 'createChatHandler options'), swarm }, 'createChatHandler');
  return chat;
}

/**
 * @param {HandlerOptions} options
 * @param {string} name
 */
function build(options, name) {
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
  // An adapter's model says which shape of tools it sends (runTurn reads it from the model too).
  const toolFormat = options.toolFormat ?? model.toolFormat ?? 'openai-chat';
  if (!TOOL_FORMATS.includes(toolFormat)) throw new TypeError(`${name}: toolFormat must be one of ${TOOL_FORMATS.join(', ')}`);
  if (model.toolFormat !== undefined && model.toolFormat !== toolFormat) {
    throw new TypeError(`${name}: the model sends tools in the '${model.toolFormat}' shape, but toolFormat is '${toolFormat}': leave toolFormat out (it is read from the model)`);
  }
  const limits = checkLimits(givenLimits);
  /** @type {(error: unknown, request: Request) => void} */
  const report = (error, request) => {
    try {
      (onError ?? ((e) => console.error('handoff-graph/server:', e)))(error, request);
    } catch {
      // a failing error reporter must not turn a response into another failure
    }
  };

  // The routes: [method, pattern] → what answers; a pattern's ':id' is a session id, ':approval' an approval id.
  /** @typedef {{ id?: string, approval?: string }} RouteParams the `:id` and `:approval` segments of a route */
  /** @type {Array<{ method: string, path: string[], run: (request: Request, params: RouteParams) => Promise<Response> }>} */
  const routes = [
    { method: 'POST', path: ['sessions'], run: createSession },
    { method: 'GET', path: ['sessions', ':id'], run: getSession },
    { method: 'POST', path: ['sessions', ':id', 'turns'], run: runTurn },
    { method: 'GET', path: ['sessions', ':id', 'checkpoints'], run: listCheckpoints },
    { method: 'POST', path: ['sessions', ':id', 'approvals', ':approval'], run: resolveApproval },
    { method: 'POST', path: ['chat'], run: chat },
    { method: 'GET', path: ['chat', ':id', 'stream'], run: chatStream },
  ];

  /** @param {string[]} segments */
  function match(segments) {
    /** @type {Array<{ route: (typeof routes)[number], params: RouteParams }>} */
    const found = [];
    for (const route of routes) {
      if (route.path.length !== segments.length) continue;
      /** @type {RouteParams} */
      const params = {};
      let ok = true;
      for (const [i, part] of route.path.entries()) {
        if (part.startsWith(':')) {
          if (segments[i] === '') ok = false;
          else params[part === ':id' ? 'id' : 'approval'] = segments[i];
        } else if (part !== segments[i]) ok = false;
      }
      if (ok) found.push({ route, params });
    }
    return found;
  }

  /** @param {Request} request */
  async function createSession(request) {
    const { variables } = fields(await readJSON(request, limits.maxBodyBytes), ['variables'], 'POST /sessions body');
    if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) {
      throw new HttpError(400, 'invalid_request', 'variables must be a JSON object');
    }
    let session;
    try {
      session = swarm.createSession({ id: randomId(18), variables: variables ?? {} });
    } catch (error) {
      if (error instanceof TypeError || error instanceof RangeError) throw new HttpError(400, 'invalid_request', error.message);
      throw error;
    }
    await store.save(session);
    return json(201, { id: session.id }, { location: `/sessions/${session.id}` });
  }

  /**
   * @param {string} id
   * @returns {Promise<Session>}
   */
  async function load(id) {
    const session = await store.get(id);
    if (session === undefined) throw notFound();
    return session;
  }

  /**
   * @param {Request} _request
   * @param {RouteParams} params
   */
  async function getSession(_request, { id }) {
    return json(200, await load(/** @type {string} the route has :id */ (id)));
  }

  /**
   * @param {Request} _request
   * @param {RouteParams} params
   */
  async function listCheckpoints(_request, { id }) {
    const sessionId = /** @type {string} the route has :id */ (id);
    await load(sessionId);
    return json(200, { checkpoints: await store.listCheckpoints(sessionId) });
  }

  // Resumes the turn that paused for approval `approval` (docs/server.md#approvals): the same
  // lease, stream and save as a turn, with swarm.resolveApproval in place of runTurn.
  /**
   * @param {Request} request
   * @param {RouteParams} params
   * @returns {Promise<Response>}
   */
  async function resolveApproval(request, params) {
    // The route has :id and :approval.
    const { id, approval } = /** @type {Required<RouteParams>} */ (params);
    const body = fields(await readJSON(request, limits.maxBodyBytes), ['approve', 'reason'], 'POST /sessions/:id/approvals/:approvalId body');
    if (typeof body.approve !== 'boolean') throw new HttpError(400, 'invalid_request', 'approve must be true or false');
    if (body.reason !== undefined && typeof body.reason !== 'string') throw new HttpError(400, 'invalid_request', 'reason must be a string');
    checkApproval(await load(id), approval);
    const holder = randomId(12);
    if (!(await store.acquireLease(id, holder, limits.turnLeaseMs))) {
      throw new HttpError(409, 'turn_in_progress', 'a turn of this session is running; retry when it is done', { 'retry-after': '1' });
    }
    let session;
    try {
      // Read again under the lease: another request may have decided this approval meanwhile.
      session = await load(id);
      checkApproval(session, approval);
    } catch (error) {
      await store.releaseLease(id, holder).catch((e) => report(e, request));
      throw error;
    }
    const decision = { approve: body.approve, ...(body.reason === undefined ? {} : { reason: body.reason }) };
    return streamTurn(request, session, holder, (turnOptions) => swarm.resolveApproval(session, approval, { ...decision, ...turnOptions }));
  }

  // 404 for an approval the session never had, 409 for one already decided.
  /**
   * @param {Session} session
   * @param {string} approval
   */
  function checkApproval(session, approval) {
    /** @type {unknown} */
    const approvals = session.approvals;
    const record = typeof approvals === 'object' && approvals !== null && Object.hasOwn(approvals, approval) ? /** @type {Record<string, any>} */ (approvals)[approval] : undefined;
    if (record === undefined) throw new HttpError(404, 'approval_not_found', 'this session has no approval with this id');
    if (record.status !== 'pending') throw new HttpError(409, 'approval_resolved', `this approval was already decided (${record.status})`);
  }

  // The approval a session waits for: its next turn must wait for the decision.
  /** @param {Session} session */
  function pendingApproval(session) {
    /** @type {unknown} */
    const approvals = session.approvals;
    if (typeof approvals !== 'object' || approvals === null) return undefined;
    return Object.values(approvals).find((/** @type {any} */ a) => a?.status === 'pending');
  }

  /**
   * @param {Request} request
   * @param {RouteParams} params
   */
  async function runTurn(request, params) {
    const id = /** @type {string} the route has :id */ (params.id);
    const body = fields(await readJSON(request, limits.maxBodyBytes), ['input'], 'POST /sessions/:id/turns body');
    if (body.input === undefined) throw new HttpError(400, 'invalid_request', 'input is required: { "input": "the user\'s message" }');
    if (typeof body.input !== 'string' || body.input.length === 0) throw new HttpError(400, 'invalid_request', 'input must be a non-empty string');
    await load(id);  // 404 before a lease is taken: no lease is ever made for a session that does not exist
    const holder = randomId(12);
    if (!(await store.acquireLease(id, holder, limits.turnLeaseMs))) {
      throw new HttpError(409, 'turn_in_progress', 'another turn of this session is running; retry when it is done', { 'retry-after': '1' });
    }
    let session;
    try {
      // Read again under the lease: the turn before this one may have saved since the first read.
      session = await load(id);
      const pending = pendingApproval(session);
      if (pending !== undefined) {
        throw new HttpError(409, 'approval_pending', `the session waits for the decision on approval ${pending.approvalId}: POST /sessions/${id}/approvals/${pending.approvalId} first`);
      }
    } catch (error) {
      await store.releaseLease(id, holder).catch((e) => report(e, request));
      throw error;
    }
    return streamTurn(request, session, holder, (turnOptions) => swarm.runTurn(session, body.input, turnOptions));
  }

  // POST /chat (docs/server.md#chat-uis-usechat): useChat's request, answered as a turn (a new
  // user message) or a resumed one (the answer to an approval), in the AI SDK's UI message stream.
  // The chat id is the session id: the session is made by the first turn that saves. Runs under
  // the same lease, timeout and single version-checked save as the routes' turns.
  /** @param {Request} request */
  async function chat(request) {
    const body = fields(await readJSON(request, limits.maxBodyBytes), ['id', 'messages', 'trigger', 'messageId'], 'POST /chat body');
    let asked;
    try {
      asked = chatRequest(body);
    } catch (error) {
      throw new HttpError(400, 'invalid_request', `POST /chat body: ${/** @type {Error} */ (error).message}`);
    }
    const { id } = asked;
    if (!SESSION_ID.test(id)) throw new HttpError(400, 'invalid_request', 'id (the chat id) must be 1 to 128 of A-Z a-z 0-9 _ - (useChat makes such ids)');
    // The id is in the body: authorize sees it once the body is read, before the session is looked up.
    const denied = await authorized(request, id);
    if (denied !== null) return denied;
    if (asked.kind === 'approval' && (await store.get(id)) === undefined) throw notFound();
    const holder = randomId(12);
    if (!(await store.acquireLease(id, holder, limits.turnLeaseMs))) {
      throw new HttpError(409, 'turn_in_progress', 'another turn of this chat is running; retry when it is done', { 'retry-after': '1' });
    }
    /** @type {Session} */
    let session;
    /** @type {TurnStart} */
    let start;
    try {
      // Under the lease: a new chat's session is made here and saved by its first turn.
      session = (await store.get(id)) ?? swarm.createSession({ id });
      if (asked.kind === 'message') {
        const pending = pendingApproval(session);
        if (pending !== undefined) {
          throw new HttpError(409, 'approval_pending', `the chat waits for the decision on approval ${pending.approvalId} (the tool part in state approval-requested): answer it with addToolApprovalResponse first`);
        }
        const { input } = asked;
        start = (turnOptions) => swarm.runTurn(session, input, turnOptions);
      } else {
        const decision = asked.decisions.find((d) => /** @type {Record<string, any> | undefined} */ (session.approvals)?.[d.approvalId]?.status === 'pending') ?? asked.decisions[0];
        checkApproval(session, decision.approvalId);
        const resolution = { approve: decision.approved, ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
        start = (turnOptions) => swarm.resolveApproval(session, decision.approvalId, { ...resolution, ...turnOptions });
      }
    } catch (error) {
      await store.releaseLease(id, holder).catch((e) => report(e, request));
      throw error;
    }
    return streamTurn(request, session, holder, start, chatFormat({ swarm, continuing: asked.kind === 'approval' }));
  }

  // GET /chat/:id/stream: useChat's `resume` asks for the stream of a turn still running. There is
  // never one to resume: a turn whose client goes away is aborted (a running turn is tied to its
  // request), so the answer is 204, which the AI SDK reads as "no active stream".
  async function chatStream() {
    return new Response(null, { status: 204 });
  }

  // null when `authorize` lets the request through, else the answer to send.
  /**
   * @param {Request} request
   * @param {string | null} id
   * @returns {Promise<Response | null>}
   */
  async function authorized(request, id) {
    if (authorize === undefined) return null;
    const verdict = await authorize(request, id);
    if (verdict instanceof Response) return verdict;
    if (verdict !== true) throw new HttpError(403, 'forbidden', 'this request is not allowed');
    return null;
  }

  // `start(options)`: the swarm's events for runTurn's options (a turn, or a resumed one).
  // `format`: how the events are written (the routes' event stream, or /chat's UI message stream).
  /**
   * @param {Request} request
   * @param {Session} session
   * @param {string} holder
   * @param {TurnStart} start
   * @param {StreamFormat} [format]
   */
  function streamTurn(request, session, holder, start, format = EVENT_STREAM()) {
    const abort = new AbortController();
    const events = turnEvents(request, session, holder, abort, start);
    const encoder = new TextEncoder();
    let started = false;
    const body = new ReadableStream({
      async pull(controller) {
        if (!started) {
          started = true;
          const opening = format.start();
          if (opening !== '') return controller.enqueue(encoder.encode(opening));
        }
        // An event the format writes nothing for is skipped here: a pull that enqueues nothing
        // would never be called again.
        for (;;) {
          const step = await events.next();
          if (step.done === true) {
            const closing = format.end();
            if (closing !== '') controller.enqueue(encoder.encode(closing));
            controller.close();
            return;
          }
          const text = format.event(step.value);
          if (text !== '') return controller.enqueue(encoder.encode(text));
        }
      },
      async cancel() {
        // The client went away: the turn stops, nothing is saved, and the client may retry it.
        abort.abort(new TurnError('client_gone', 'the client closed the stream'));
        await events.return();
      },
    });
    return new Response(body, { status: 200, headers: format.headers });
  }

  /**
   * @param {Request} request
   * @param {Session} session
   * @param {string} holder
   * @param {AbortController} abort
   * @param {TurnStart} start
   * @returns {AsyncGenerator<{ type: string, [field: string]: any }, void>}
   */
  async function* turnEvents(request, session, holder, abort, start) {
    const { id } = session;
    const { signal } = abort;
    /** @type {(code: string, message: string) => void} */
    const fail = (code, message) => abort.abort(new TurnError(code, message));
    const timeout = setTimeout(() => fail('turn_timeout', `the turn took longer than ${limits.turnTimeoutMs} ms (limits.turnTimeoutMs)`), limits.turnTimeoutMs);
    // Renewals under way: the lease is given back only once they have landed (see the finally).
    /** @type {Set<Promise<unknown>>} */
    const renewing = new Set();
    const renewal = setInterval(() => {
      // An aborted turn whose client no longer reads stays suspended until the client goes: its
      // lease runs out meanwhile instead of being held for a turn that will never save.
      if (signal.aborted) return clearInterval(renewal);
      const renewed = store.acquireLease(id, holder, limits.turnLeaseMs).then(
        (held) => held || fail('lease_lost', 'the turn lost its lease on the session (it was not renewed in time) and stopped; nothing was saved'),
        (error) => report(error, request),
      );
      renewing.add(renewed);
      renewed.finally(() => renewing.delete(renewed));
    }, Math.floor(limits.turnLeaseMs / 3));
    // A model call ends when the model answers or the turn is aborted, whichever comes first.
    /** @type {(modelRequest: any) => Promise<unknown>} runTurn's request, passed on with the turn's signal */
    const guarded = (modelRequest) => {
      signal.throwIfAborted();
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        Promise.resolve()
          .then(() => model({ ...modelRequest, signal }))
          .then(resolve, (error) => reject(new TurnError('model_error', `the model failed: ${error?.message ?? String(error)}`, error)))
          .finally(() => signal.removeEventListener('abort', onAbort));
      });
    };
    try {
      for await (const event of start({ model: guarded, toolFormat, maxModelCalls: limits.maxModelCalls, signal })) {
        // The turn's own `error` event is followed by its error, which the catch below reports.
        if (event.type === 'error') continue;
        if (event.type !== 'done') {
          yield event;
          continue;
        }
        signal.throwIfAborted();
        // Still ours? (A lease can only be lost by a holder that stalled longer than its TTL; the
        // version check of the save below catches the rest.)
        if (!(await store.acquireLease(id, holder, limits.turnLeaseMs))) throw new TurnError('lease_lost', 'the turn lost its lease on the session before it could save; nothing was saved');
        const checkpoints = session.checkpoints;
        session.checkpoints = [];
        try {
          await store.save(session, { checkpoints });
        } catch (error) {
          if (/** @type {{ code?: unknown } | undefined} */ (error)?.code === 'ERR_SESSION_CONFLICT') throw new TurnError('conflict', 'another turn of this session was saved first; this turn was not saved', error);
          throw error;
        }
        yield doneEvent(event, session);
        return;
      }
      throw new TurnError('turn_failed', 'the turn ended without a done event');
    } catch (caught) {
      const error = signal.aborted && !(caught instanceof TurnError) ? signal.reason : caught;
      if (error instanceof TurnError) {
        if (error.code === 'client_gone') return;
        if (error.code !== 'model_error') report(error, request);
        yield { type: 'error', error: { code: error.code, message: error.message } };
      } else {
        report(error, request);
        const message = error instanceof Error ? error.message : String(error);
        yield { type: 'error', error: { code: 'turn_failed', message: `the turn failed: ${message}` } };
      }
    } finally {
      clearTimeout(timeout);
      clearInterval(renewal);
      // A renewal sent before the end can reach the store after the release (a pg Pool runs them
      // on other connections) and take the lease again, for a whole turnLeaseMs: wait for it first.
      await Promise.allSettled(renewing);
      await store.releaseLease(id, holder).catch((error) => report(error, request));
    }
  }

  // Answers `run()`: an HttpError as its JSON answer, any other failure as a 500 (told to onError).
  /**
   * @param {Request} request
   * @param {() => Promise<Response>} run
   * @returns {Promise<Response>}
   */
  async function answer(request, run) {
    try {
      return await run();
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      report(error, request);
      return errorResponse(new HttpError(500, 'internal', 'the server failed to answer this request'));
    }
  }

  /** @param {Request} request */
  async function chatOnly(request) {
    if (request.method !== 'POST') return errorResponse(new HttpError(405, 'method_not_allowed', 'a chat takes POST (useChat\'s requests)', { allow: 'POST' }));
    return answer(request, () => chat(request));
  }

  /** @param {Request} request */
  async function handler(request) {
    let url;
    try {
      url = new URL(request.url);
    } catch {
      return errorResponse(new HttpError(400, 'invalid_request', 'the request URL cannot be read'));
    }
    const segments = url.pathname.split('/').slice(1);
    const found = match(segments);
    if (found.length === 0) return errorResponse(new HttpError(404, 'not_found', 'no such route; see docs/server.md for the routes'));
    const hit = found.find((f) => f.route.method === request.method);
    if (hit === undefined) {
      const allow = [...new Set(found.map((f) => f.route.method))].join(', ');
      return errorResponse(new HttpError(405, 'method_not_allowed', `${url.pathname.length > 100 ? 'this route' : url.pathname} takes ${allow}`, { allow }));
    }
    const { id, approval } = hit.params;
    return answer(request, async () => {
      // Ids are checked first, so that authorize only ever sees one of the server's own shape.
      if (id !== undefined && !SESSION_ID.test(id)) throw notFound();
      if (approval !== undefined && !APPROVAL_ID.test(approval)) throw new HttpError(404, 'approval_not_found', 'no approval with this id');
      // POST /chat reads its id from the body and asks authorize itself.
      if (hit.route.run !== chat) {
        const denied = await authorized(request, id ?? null);
        if (denied !== null) return denied;
      }
      return hit.route.run(request, hit.params);
    });
  }

  return { handler, chat: chatOnly };
}
