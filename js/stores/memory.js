// @ts-check
// MemoryStore: sessions and checkpoint logs in this process's memory (the default store), and the
// records of durable state-machine runs (js/durable.js).
// Browser-safe: no Node built-ins. Everything is kept as JSON text, so what goes in and what comes
// out are deep copies: changing a session after save() or after get() never changes the store.
import { checkOptions } from '../options.js';
import { checkId, checkLease, checkpointTexts, checkRun, checkRunId, checkSession, checkTtl, conflict, runConflict, storedSessionProblem, toJSON } from './checks.js';

export { ConflictError } from './errors.js';

/** @import { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js' */

/**
 * Sessions in this process's memory; browser-safe; deep copies in and out.
 * @implements {SessionStore}
 * @implements {RunStore}
 */
export class MemoryStore {
  /** id -> { version, json } @type {Map<string, { version: number, json: string }>} */
  #sessions = new Map();
  /** id -> JSON text of each checkpoint, in append order @type {Map<string, string[]>} */
  #checkpoints = new Map();
  /** id -> { holder, expires } (performance.now() milliseconds) @type {Map<string, { holder: string, expires: number }>} */
  #leases = new Map();
  /** run id -> { version, json } @type {Map<string, { version: number, json: string }>} */
  #runs = new Map();

  /** @param {Record<string, never>} [options] none: a MemoryStore takes no options (an object with keys is a TypeError) */
  constructor(options) {
    checkOptions(options, [], 'MemoryStore options');
  }

  /**
   * The stored session (a copy), or undefined.
   * @param {string} id
   * @returns {Promise<Session | undefined>}
   */
  async get(id) {
    const entry = this.#sessions.get(checkId(id));
    return entry === undefined ? undefined : JSON.parse(entry.json);
  }

  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither.
   * @param {Session} session
   * @param {SaveOptions} [options]
   * @returns {Promise<void>}
   */
  async save(session, options) {
    const { id, version } = checkSession(session);
    const next = version + 1;
    // The same sessions as every store: what FileStore and RedisStore refuse, this one does too.
    const problem = storedSessionProblem({ ...session, version: next }, id);
    if (problem !== null) throw new TypeError(`session '${id}' is not a session of the documented format: ${problem}`);
    const json = toJSON({ ...session, version: next }, `session '${id}'`);
    const checkpoints = checkpointTexts(options, id);
    // No await before the write: the check and the write are one step of the event loop.
    const actual = this.#sessions.get(id)?.version ?? 0;
    if (actual !== version) throw conflict(id, version, actual);
    this.#sessions.set(id, { version: next, json });
    if (checkpoints.length > 0) {
      const log = this.#checkpoints.get(id);
      if (log === undefined) this.#checkpoints.set(id, [...checkpoints]);
      else log.push(...checkpoints);
    }
    session.version = next;
  }

  /**
   * Appends a checkpoint (any JSON value); never conflicts.
   * @param {string} id
   * @param {unknown} checkpoint
   * @returns {Promise<void>}
   */
  async appendCheckpoint(id, checkpoint) {
    const json = toJSON(checkpoint, `a checkpoint of session '${checkId(id)}'`);
    const log = this.#checkpoints.get(id);
    if (log === undefined) this.#checkpoints.set(id, [json]);
    else log.push(json);
  }

  /**
   * The checkpoints (copies), oldest first.
   * @param {string} id
   * @returns {Promise<unknown[]>}
   */
  async listCheckpoints(id) {
    return (this.#checkpoints.get(checkId(id)) ?? []).map((json) => JSON.parse(json));
  }

  /**
   * Removes the session and its checkpoints; true if there was anything to remove.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async delete(id) {
    checkId(id);
    const had = this.#sessions.has(id) || this.#checkpoints.has(id);
    this.#sessions.delete(id);
    this.#checkpoints.delete(id);
    this.#leases.delete(id);
    return had;
  }

  /**
   * The record of the durable run `id` (machine.run(state, { store, runId })), or undefined.
   * @param {string} id
   * @returns {Promise<RunRecord | undefined>}
   */
  async getRun(id) {
    const entry = this.#runs.get(checkRunId(id));
    return entry === undefined ? undefined : JSON.parse(entry.json);
  }

  /**
   * Saves if the stored version equals `run.version` (0 when none is stored), then bumps it; else ConflictError.
   * @param {RunRecord} run
   * @returns {Promise<void>}
   */
  async saveRun(run) {
    const { id, version } = checkRun(run);
    const next = version + 1;
    const json = toJSON({ ...run, version: next }, `run '${id}'`);
    const actual = this.#runs.get(id)?.version ?? 0;
    if (actual !== version) throw runConflict(id, version, actual);
    this.#runs.set(id, { version: next, json });
    run.version = next;
  }

  /**
   * Removes the run's record; true if there was one.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async deleteRun(id) {
    return this.#runs.delete(checkRunId(id));
  }

  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds, or extends it when
   * `holder` has it already: true; false while another holder's lease lasts (handoff-graph/server).
   * @param {string} id
   * @param {string} holder
   * @param {number} ttlMs
   * @returns {Promise<boolean>}
   */
  async acquireLease(id, holder, ttlMs) {
    checkLease(id, holder);
    const ttl = checkTtl(ttlMs);
    const now = performance.now();
    const lease = this.#leases.get(id);
    if (lease !== undefined && lease.holder !== holder && lease.expires > now) return false;
    this.#leases.set(id, { holder, expires: now + ttl });
    return true;
  }

  /**
   * Gives the lease up if `holder` still has it: true; false when it had expired or was another's.
   * @param {string} id
   * @param {string} holder
   * @returns {Promise<boolean>}
   */
  async releaseLease(id, holder) {
    checkLease(id, holder);
    const lease = this.#leases.get(id);
    if (lease === undefined || lease.holder !== holder) return false;
    this.#leases.delete(id);
    return lease.expires > performance.now();
  }
}
