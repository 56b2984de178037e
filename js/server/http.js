// @ts-check
// The HTTP pieces of createHandler (js/server/handler.js): errors as `{ error: { code, message } }`
// responses, request bodies read as JSON within the limits (size, nesting, known fields), and the
// routes' server-sent events.
import { checkOptions } from '../options.js';

/**
 * How a turn's events are written: the routes' event stream, or /chat's UI message stream.
 * @typedef {{ headers: Record<string, string>, start(): string, event(event: { type: string, [field: string]: any }): string, end(): string }} StreamFormat
 */

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

/** An answer for a client's mistake (or the server's), with the `{ error: { code, message } }` body. */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {Record<string, string>} [headers]
   */
  constructor(status, code, message, headers = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

// What a turn's stream reports in its `error` event: thrown by the model, the turn running out
// of time, the lease lost to another process, or a save that lost the race.
export class TurnError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {unknown} [cause]
   */
  constructor(code, message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

/**
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function json(status, body, headers = {}) {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** @param {HttpError} error */
export function errorResponse(error) {
  return json(error.status, { error: { code: error.code, message: error.message } }, error.headers);
}

/** @param {number} bytes */
export function randomId(bytes) {
  const data = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

// Reads the body as JSON within `limit` bytes: undefined when there is none.
/**
 * @param {Request} request
 * @param {number} limit
 * @returns {Promise<unknown>}
 */
export async function readJSON(request, limit) {
  const length = request.headers.get('content-length');
  if (length !== null && /^\d+$/.test(length) && Number(length) > limit) throw tooLarge(limit);
  if (request.body === null) return undefined;
  const reader = request.body.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  for (;;) {
    /** @type {ReadableStreamReadResult<Uint8Array>} */
    let step;
    try {
      step = await reader.read();
    } catch {
      throw new HttpError(400, 'invalid_body', 'the request body could not be read to its end');
    }
    if (step.done) break;
    size += step.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(step.value);
  }
  if (size === 0) return undefined;
  const type = request.headers.get('content-type');
  const media = type?.split(';')[0].trim().toLowerCase();
  if (media !== 'application/json') {
    throw new HttpError(415, 'unsupported_media_type', `the body must be JSON, sent as content-type application/json; got ${type === null ? 'no content-type' : JSON.stringify(type.slice(0, 100))}`);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(/** @type {string} a JSON media type above */ (type))?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new HttpError(415, 'unsupported_media_type', `the body must be UTF-8, got charset ${JSON.stringify(charset.slice(0, 40))}`);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new HttpError(400, 'invalid_json', 'the body is not UTF-8 text');
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the body is not JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (depth(value) > MAX_BODY_DEPTH) throw new HttpError(400, 'invalid_request', `the body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`);
  return value;
}

// Bodies nest at most this deep: sessions are copied and stored by functions that recurse once
// per level (JSON.stringify, structured copies), which must not run out of stack on a client's input.
const MAX_BODY_DEPTH = 512;

// The nesting depth of parsed JSON, without recursion.
/**
 * @param {unknown} root
 * @returns {number}
 */
function depth(root) {
  let deepest = 0;
  /** @type {Array<[unknown, number]>} */
  const stack = [[root, 0]];
  while (stack.length > 0) {
    const [value, level] = /** @type {[unknown, number]} */ (stack.pop());
    if (typeof value !== 'object' || value === null) continue;
    if (level + 1 > deepest) deepest = level + 1;
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) stack.push([child, level + 1]);
  }
  return deepest;
}

/** @param {number} limit */
function tooLarge(limit) {
  return new HttpError(413, 'body_too_large', `the body is larger than ${limit} bytes (limits.maxBodyBytes)`);
}

// A JSON object body whose keys are all in `allowed` (like an options object: a typo is an error).
/**
 * @param {unknown} body
 * @param {string[]} allowed
 * @param {string} what
 * @returns {Record<string, any>} the client's JSON fields, read one by one and checked
 */
export function fields(body, allowed, what) {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_request', `${what} must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`);
  }
  try {
    return checkOptions(body, allowed, what);
  } catch (error) {
    throw new HttpError(400, 'invalid_request', /** @type {Error} */ (error).message.replace('unknown option', 'unknown field'));
  }
}

export const notFound = () => new HttpError(404, 'session_not_found', 'no session with this id');

/**
 * @param {string} type
 * @param {unknown} data
 */
function sse(type, data) {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

// The routes' own stream: one server-sent event per swarm event, named by its type.
/** @type {() => StreamFormat} */
export const EVENT_STREAM = () => ({ headers: SSE_HEADERS, start: () => '', event: (event) => sse(event.type, event), end: () => '' });
