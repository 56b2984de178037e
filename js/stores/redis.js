// @ts-check
// RedisStore: sessions in Redis, for fleets of Node workers. Takes a connected client of the npm
// `redis` package (v4, v5 or v6: `createClient(...)` then `await client.connect()`); this package
// depends on none. Per session, two keys with the session id as hash tag (so a cluster keeps them
// on one slot):
//   PREFIX{ID}:session      a hash: `version` and `session` (the JSON text), written by one Lua
//                           script that compares the version and writes, atomically on the server;
//   PREFIX{ID}:checkpoints  a list: one JSON text per checkpoint, RPUSHed (never conflicts);
//   PREFIX{ID}:lease        the turn lease (handoff-graph/server): the holder, with a PX expiry
//                           kept by the server's clock, so every worker agrees when it ends;
//   PREFIX{run:ID}:run      a durable state-machine run (js/durable.js): a hash with the fields of
//                           a session's (`version`, the JSON text), saved by the same script.
// A Lua script and not WATCH/MULTI: node-redis shares one connection between concurrent callers,
// and WATCH belongs to the connection, so one caller's WATCH would cover another's writes.
import { checkOptions } from '../options.js';
import { checkId, checkLease, checkpointTexts, checkRun, checkRunId, checkSession, checkTtl, conflict, notASession, runConflict, storedRunProblem, storedSessionProblem, toJSON } from './checks.js';

export { ConflictError } from './errors.js';

/** @import { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js' */

// Method signatures (not function-typed properties): checked bivariantly, so that a client's
// narrower overloads fit, as the interface's methods did.
/**
 * What RedisStore uses of a client of the npm `redis` package (node-redis v4 to v6): pass
 * `createClient(...)`'s client, connected. This package does not depend on `redis`.
 * @typedef {{
 *   eval(script: string, options: { keys: string[], arguments: string[] }): Promise<unknown>,
 *   hGet(key: string, field: string): Promise<unknown>,
 *   lRange(key: string, start: number, stop: number): Promise<ReadonlyArray<unknown>>,
 *   del(keys: string[]): Promise<unknown>,
 * }} RedisClientLike
 */

/**
 * @typedef {object} RedisStoreOptions
 * @property {string} [prefix] Prefix of every key (default 'handoff-graph:').
 * @property {number} [ttlSeconds] Let a session and its checkpoints expire this long after their last write (default: never).
 */

// KEYS[1] the session hash; ARGV: expected version, new version, JSON text, TTL in ms (0: none).
// Returns -1 when saved, else the stored version (0: none stored).
const SAVE = `local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then return stored end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'session', ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return -1`;

// KEYS[1] the checkpoint list; ARGV: JSON text, TTL in ms (0: none).
const APPEND = `redis.call('RPUSH', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

// save(session, { checkpoints }): SAVE, then the checkpoints RPUSHed, in one script (atomic on the
// server: both or neither). KEYS[1] the session hash, KEYS[2] the checkpoint list; ARGV: expected
// version, new version, JSON text, TTL in ms (0: none), then one JSON text per checkpoint.
const SAVE_WITH_CHECKPOINTS = `local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if stored ~= tonumber(ARGV[1]) then return stored end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'session', ARGV[3])
for i = 5, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if tonumber(ARGV[4]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return -1`;

// KEYS[1] the lease; ARGV: holder, TTL in ms. Takes a free (or expired: Redis removed it) lease,
// or extends the holder's own. Returns 1 when the holder has it, else 0.
const ACQUIRE_LEASE = `local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// KEYS[1] the lease; ARGV: holder. Removes it only if it is still the holder's.
const RELEASE_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0`;

// Replies are strings, or Buffers for a client whose typeMapping asks for them.
/** @type {(reply: unknown) => string | null} */
const text = (reply) => (reply === null || reply === undefined ? null : typeof reply === 'string' ? reply : String(reply));

/**
 * Sessions in Redis, for fleets of Node workers.
 * @implements {SessionStore}
 * @implements {RunStore}
 */
export class RedisStore {
  /** @type {RedisClientLike} */
  #client;
  /** @type {string} */
  #prefix;
  /** @type {number} */
  #ttlMs;

  /**
   * @param {RedisClientLike} client a connected client of the npm `redis` package (node-redis v4 to v6)
   * @param {RedisStoreOptions} [options] `prefix` of every key (default 'handoff-graph:'); `ttlSeconds`: let a session
   *   and its checkpoints expire that long after their last write (default: never)
   */
  constructor(client, options) {
    if (client === undefined) {
      throw new TypeError('new RedisStore(client, options): the client is missing: pass a connected client of the npm redis package (createClient())');
    }
    const { prefix = 'handoff-graph:', ttlSeconds } = checkOptions(options, ['prefix', 'ttlSeconds'], 'RedisStore options');
    for (const method of ['eval', 'hGet', 'lRange', 'del']) {
      if (typeof /** @type {Record<string, unknown> | undefined} */ (client)?.[method] !== 'function') {
        throw new TypeError(`new RedisStore(client): client must be a client of the npm 'redis' package (createClient()), it has no ${method}()`);
      }
    }
    if (typeof prefix !== 'string') throw new TypeError('prefix must be a string');
    if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) throw new TypeError('ttlSeconds must be a positive number');
    this.#client = client;
    this.#prefix = prefix;
    this.#ttlMs = ttlSeconds === undefined ? 0 : Math.ceil(ttlSeconds * 1000);
  }

  /**
   * The Redis keys of session `id`.
   * @param {string} id
   * @returns {{ session: string, checkpoints: string }}
   */
  keys(id) {
    const base = `${this.#prefix}{${checkId(id)}}`;
    return { session: `${base}:session`, checkpoints: `${base}:checkpoints` };
  }

  /**
   * The stored session, or undefined. A value that is not that session is an error naming its key
   * (`code` 'ERR_NOT_A_SESSION').
   * @param {string} id
   * @returns {Promise<Session | undefined>}
   */
  async get(id) {
    const key = this.keys(id).session;
    const json = text(await this.#client.hGet(key, 'session'));
    if (json === null) return undefined;
    let session;
    try {
      session = JSON.parse(json);
    } catch (error) {
      throw notASession(`Redis key ${key}`, /** @type {Error} */ (error).message);
    }
    const problem = storedSessionProblem(session, id);
    if (problem !== null) throw notASession(`Redis key ${key}`, problem);
    return session;
  }

  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither. The compare and
   * the write are one Lua script, atomic on the server.
   * @param {Session} session
   * @param {SaveOptions} [options]
   * @returns {Promise<void>}
   */
  async save(session, options) {
    const { id, version } = checkSession(session);
    const next = version + 1;
    // What get() would refuse is never written (as FileStore and MemoryStore).
    const problem = storedSessionProblem({ ...session, version: next }, id);
    if (problem !== null) throw new TypeError(`session '${id}' is not a session of the documented format: ${problem}`);
    const json = toJSON({ ...session, version: next }, `session '${id}'`);
    const checkpoints = checkpointTexts(options, id);
    const keys = this.keys(id);
    const args = [String(version), String(next), json, String(this.#ttlMs)];
    const reply = Number(
      checkpoints.length === 0
        ? await this.#client.eval(SAVE, { keys: [keys.session], arguments: args })
        : await this.#client.eval(SAVE_WITH_CHECKPOINTS, { keys: [keys.session, keys.checkpoints], arguments: [...args, ...checkpoints] }),
    );
    if (reply !== -1) throw conflict(id, version, reply);
    session.version = next;
  }

  /**
   * Appends a checkpoint (any JSON value) to a list; never conflicts.
   * @param {string} id
   * @param {unknown} checkpoint
   * @returns {Promise<void>}
   */
  async appendCheckpoint(id, checkpoint) {
    const json = toJSON(checkpoint, `a checkpoint of session '${checkId(id)}'`);
    await this.#client.eval(APPEND, { keys: [this.keys(id).checkpoints], arguments: [json, String(this.#ttlMs)] });
  }

  /**
   * The checkpoints, oldest first.
   * @param {string} id
   * @returns {Promise<unknown[]>}
   */
  async listCheckpoints(id) {
    const items = await this.#client.lRange(this.keys(id).checkpoints, 0, -1);
    // A list item is never nil: text() gives a string here.
    return items.map((item) => JSON.parse(/** @type {string} */ (text(item))));
  }

  /**
   * Removes the session and its checkpoints; true if there was anything to remove.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async delete(id) {
    const { session, checkpoints } = this.keys(id);
    const removed = Number(await this.#client.del([session, checkpoints]));
    await this.#client.del([this.#leaseKey(id)]);
    return removed > 0;
  }

  /**
   * The Redis key of the durable run `id`.
   * @param {string} id
   * @returns {string}
   */
  runKey(id) {
    return `${this.#prefix}{run:${checkRunId(id)}}:run`;
  }

  /**
   * The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. A
   * value that is not one is an error naming its key.
   * @param {string} id
   * @returns {Promise<RunRecord | undefined>}
   */
  async getRun(id) {
    const key = this.runKey(id);
    const json = text(await this.#client.hGet(key, 'session'));
    if (json === null) return undefined;
    let run;
    try {
      run = JSON.parse(json);
    } catch (error) {
      throw Object.assign(new Error(`Redis key ${key} is not a run (${/** @type {Error} */ (error).message}); it was changed outside the store`), { code: 'ERR_NOT_A_RUN', path: key });
    }
    const problem = storedRunProblem(run, id);
    if (problem !== null) throw Object.assign(new Error(`Redis key ${key} is not a run (${problem}); it was changed outside the store`), { code: 'ERR_NOT_A_RUN', path: key });
    return run;
  }

  /**
   * Saves a run's record if the stored version is `run.version` (0 when none is stored), then
   * sets `run.version` to the new version; rejects with ConflictError otherwise. One script:
   * atomic on the server.
   * @param {RunRecord} run
   * @returns {Promise<void>}
   */
  async saveRun(run) {
    const { id, version } = checkRun(run);
    const next = version + 1;
    const json = toJSON({ ...run, version: next }, `run '${id}'`);
    const reply = Number(await this.#client.eval(SAVE, { keys: [this.runKey(id)], arguments: [String(version), String(next), json, String(this.#ttlMs)] }));
    if (reply !== -1) throw runConflict(id, version, reply);
    run.version = next;
  }

  /**
   * Removes the run's record; true if there was one.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async deleteRun(id) {
    return Number(await this.#client.del([this.runKey(id)])) > 0;
  }

  /** @param {string} id */
  #leaseKey(id) {
    return `${this.#prefix}{${checkId(id)}}:lease`;
  }

  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds (Redis's clock), or
   * extends it when `holder` has it already: true; false while another holder's lease lasts
   * (handoff-graph/server).
   * @param {string} id
   * @param {string} holder
   * @param {number} ttlMs
   * @returns {Promise<boolean>}
   */
  async acquireLease(id, holder, ttlMs) {
    checkLease(id, holder);
    const ttl = checkTtl(ttlMs);
    return Number(await this.#client.eval(ACQUIRE_LEASE, { keys: [this.#leaseKey(id)], arguments: [holder, String(ttl)] })) === 1;
  }

  /**
   * Gives the lease up if `holder` still has it: true; false when it had expired or was another's.
   * @param {string} id
   * @param {string} holder
   * @returns {Promise<boolean>}
   */
  async releaseLease(id, holder) {
    checkLease(id, holder);
    return Number(await this.#client.eval(RELEASE_LEASE, { keys: [this.#leaseKey(id)], arguments: [holder] })) === 1;
  }
}
