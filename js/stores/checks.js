// @ts-check
// The checks every session store shares, internal to the package (no entry
// exports it): the session id, a session before a save, a session read back from a store, JSON texts, and
// what the HTTP server adds to the contract (checkpoints saved with the session, turn leases).
// The error a stale save rejects with, ConflictError, is public and lives in ./errors.js.
import { checkOptions } from '../options.js';
import { describeGiven as describe } from '../text.js';
import { ConflictError } from './errors.js';


/**
 * The ConflictError of a stale save of session `id`.
 * @param {string} id
 * @param {number} expected the version the writer had
 * @param {number} actual the version in the store
 */
export function conflict(id, expected, actual) {
  return new ConflictError(
    `session '${id}' was saved by another writer: it is at version ${actual} in the store, this copy is at version ${expected}; get() it again, reapply, then save()`,
    { id, expected, actual },
  );
}

/**
 * Checks a session id: a non-empty string.
 * @param {unknown} id
 * @returns {string}
 */
export function checkId(id) {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError(`a session id is a non-empty string, got ${describe(id)}`);
  return id;
}

/**
 * Checks a session before a save; returns its id and version.
 * @param {unknown} session
 * @returns {{ id: string, version: number }}
 */
export function checkSession(session) {
  if (!isObject(session)) {
    throw new TypeError(`save() takes a session object, got ${describe(session)}`);
  }
  const id = checkId(session.id);
  const { version } = session;
  if (!isCount(version)) {
    const has = version === undefined ? 'no version' : `version ${describe(version)}`;
    throw new TypeError(`session '${id}' has ${has}: a session's version is an integer >= 0 (0 before its first save)`);
  }
  return { id, version };
}

const SESSION_FORMAT = 'handoff-graph/session';
/** @type {(value: unknown) => value is Record<string, unknown>} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** @type {(value: unknown) => value is number} */
const isCount = (value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0;
/** @type {(value: unknown) => string} */
const named = (value) => (value === undefined ? 'missing' : describe(value));

/**
 * Why a value read back from a store is not the stored session `id` (docs/handoffs.md, "The
 * session"), or null when it is one: the format, the id, a version >= 1 (it was saved), and each
 * documented field of its type.
 * @param {unknown} value
 * @param {string} id
 * @returns {string | null}
 */
export function storedSessionProblem(value, id) {
  if (!isObject(value)) return `it holds ${describe(value)}, not a session object`;
  if (value.format !== SESSION_FORMAT) return `its format is ${JSON.stringify(value.format) ?? 'missing'}, not "${SESSION_FORMAT}"`;
  if (value.id !== id) return `it holds session ${JSON.stringify(value.id) ?? 'without an id'}, not '${id}'`;
  if (!isCount(value.version) || value.version < 1) return `its version is ${named(value.version)}: a saved session has an integer version >= 1`;
  for (const key of ['swarm', 'active']) {
    if (typeof value[key] !== 'string') return `its ${key} is ${named(value[key])}, not a string`;
  }
  for (const key of ['hops', 'turn']) {
    if (!isCount(value[key])) return `its ${key} is ${named(value[key])}, not an integer >= 0`;
  }
  for (const key of ['selections', 'variables', 'histories']) {
    if (!isObject(value[key])) return `its ${key} is ${named(value[key])}, not an object`;
  }
  for (const [agent, history] of Object.entries(/** @type {Record<string, unknown>} */ (value.histories))) {
    if (!Array.isArray(history)) return `its history of '${agent}' is ${named(history)}, not an array`;
  }
  if (!Array.isArray(value.checkpoints)) return `its checkpoints are ${named(value.checkpoints)}, not an array`;
  return null;
}

/**
 * The JSON text of `value`, or a TypeError that says what cannot be stored.
 * @param {unknown} value
 * @param {string} what
 * @returns {string}
 */
export function toJSON(value, what) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what} is not JSON: ${/** @type {Error} */ (error).message}`);
  }
  if (text === undefined) throw new TypeError(`${what} is not JSON: got ${describe(value)}`);
  return text;
}

// ------------------------------------------------------------------------------------------
// What the HTTP server (handoff-graph/server) adds to the contract, shared by the three stores:
// `save(session, { checkpoints })` keeps a turn's checkpoints in the same atomic step as the
// session (both or neither, so a killed process or a lost race never leaves a checkpoint without
// the session that made it), and turn leases (`acquireLease`, `releaseLease`): one holder per
// session at a time, with an expiry so that a holder that died frees the session by itself.

const SAVE_OPTIONS = ['checkpoints'];

/**
 * The JSON texts of `options.checkpoints` of a save (checked before anything is written).
 * @param {{ checkpoints?: unknown } | undefined} options
 * @param {string} id
 * @returns {string[]}
 */
export function checkpointTexts(options, id) {
  const { checkpoints = [] } = checkOptions(options, SAVE_OPTIONS, 'save() options');
  if (!Array.isArray(checkpoints)) throw new TypeError(`save() options: checkpoints must be an array, got ${describe(checkpoints)}`);
  return checkpoints.map((checkpoint) => toJSON(checkpoint, `a checkpoint of session '${id}'`));
}

/**
 * Checks the id and holder of acquireLease / releaseLease.
 * @param {unknown} id
 * @param {unknown} holder
 * @returns {void}
 */
export function checkLease(id, holder) {
  checkId(id);
  if (typeof holder !== 'string' || holder.length === 0 || holder.length > 200) {
    throw new TypeError(`a lease holder is a string of 1 to 200 characters, got ${describe(holder)}`);
  }
}

/**
 * Checks the TTL of acquireLease; returns it in whole milliseconds.
 * @param {unknown} ttlMs
 * @returns {number}
 */
export function checkTtl(ttlMs) {
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs < 1 || ttlMs > 2 ** 31 - 1) {
    throw new TypeError(`a lease's ttlMs is a number of milliseconds from 1 to 2^31 - 1, got ${describe(ttlMs)}`);
  }
  return Math.ceil(ttlMs);
}

// ------------------------------------------------------------------------------------------
// Durable state-machine runs (js/durable.js): one record per run id, replaced whole by
// `saveRun(run)` under the same optimistic versioning as sessions, read by `getRun(id)`.

const RUN_FORMAT = 'handoff-graph/run';
/** @type {readonly unknown[]} */
const RUN_STATUSES = ['running', 'done'];

/**
 * Checks a run id: a non-empty string.
 * @param {unknown} id
 * @returns {string}
 */
export function checkRunId(id) {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError(`a run id is a non-empty string, got ${describe(id)}`);
  return id;
}

/**
 * The ConflictError of a stale saveRun of run `id`.
 * @param {string} id
 * @param {number} expected the version the writer had
 * @param {number} actual the version in the store
 */
export function runConflict(id, expected, actual) {
  return new ConflictError(
    `run '${id}' was checkpointed by another process: it is at version ${actual} in the store, this one is at version ${expected}; two processes are advancing the same run`,
    { id, expected, actual },
  );
}

/**
 * Why `value` is not the record of run `id` with a version >= `least`, or null when it is one.
 * @param {unknown} value
 * @param {string} id
 * @returns {string | null}
 */
export function storedRunProblem(value, id, least = 1) {
  if (!isObject(value)) return `it holds ${describe(value)}, not a run object`;
  if (value.format !== RUN_FORMAT) return `its format is ${JSON.stringify(value.format) ?? 'missing'}, not "${RUN_FORMAT}"`;
  if (value.id !== id) return `it holds run ${JSON.stringify(value.id) ?? 'without an id'}, not '${id}'`;
  if (!isCount(value.version) || value.version < least) return `its version is ${named(value.version)}: a run's version is an integer >= ${least}`;
  if (typeof value.machine !== 'string') return `its machine is ${named(value.machine)}, not a string`;
  if (!RUN_STATUSES.includes(value.status)) return `its status is ${named(value.status)}, not one of ${RUN_STATUSES.join(', ')}`;
  if (!isObject(value.snapshot) || value.snapshot.format !== 'handoff-graph/execution') return 'its snapshot is not an execution snapshot (exec.snapshot())';
  return null;
}

/**
 * Checks a run record before a save; returns its id and version.
 * @param {unknown} run
 * @returns {{ id: string, version: number }}
 */
export function checkRun(run) {
  if (!isObject(run)) throw new TypeError(`saveRun() takes a run record, got ${describe(run)}`);
  const id = checkRunId(run.id);
  const problem = storedRunProblem(run, id, 0);
  if (problem !== null) throw new TypeError(`run '${id}' is not a run record of the documented format: ${problem}`);
  return { id, version: /** @type {number} */ (run.version) };
}

/**
 * Why a value read back from a store is not session `id`, for an error that names where it was read.
 * @param {string} where
 * @param {string} why
 */
export function notASession(where, why) {
  return Object.assign(new Error(`${where} is not a session (${why}); it was changed outside the store`), { code: 'ERR_NOT_A_SESSION', path: where });
}
