// @ts-check
// PostgresStore: sessions, checkpoint logs, turn leases and durable state-machine runs in
// PostgreSQL, for fleets of Node workers that already keep their state there. Takes a `Pool` of the
// npm `pg` package (or anything with its `query(text, values)`: a pg `Client`, a compatible
// pool); this package depends on none. Four tables, made on first use (or by `migrate()`):
//   PREFIXsessions     id, version, the session's JSON text (type json: kept as written), expiry;
//   PREFIXcheckpoints  one row per checkpoint: the session id, a bigserial `seq` that orders the
//                      log, the JSON text, expiry;
//   PREFIXleases       the turn lease of a session (handoff-graph/server): its holder and its
//                      expiry, judged by the database's clock (clock_timestamp()), so every worker
//                      agrees when it ends;
//   PREFIXruns         durable state-machine runs (js/durable.js): id, version, the record's JSON.
// Every write is ONE statement (data-modifying CTEs where it writes two tables), so it is atomic
// without a transaction and needs no dedicated connection: a compare-and-write that loses a race
// waits on the row lock, then sees the winner's version (READ COMMITTED re-checks its WHERE) and
// writes nothing.
import { checkOptions } from '../options.js';
import { describe } from '../text.js';
import { checkId, checkLease, checkpointTexts, checkRun, checkRunId, checkSession, checkTtl, conflict, notASession, runConflict, storedRunProblem, storedSessionProblem, toJSON } from './checks.js';

export { ConflictError } from './errors.js';

/** @import { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js' */

/**
 * What PostgresStore uses of a `Pool` of the npm `pg` package (`new Pool({ connectionString })`;
 * a pg `Client` or a pg-compatible pool works too). This package does not depend on `pg`.
 * @typedef {{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }> }} PostgresPoolLike
 */

/**
 * @typedef {object} PostgresStoreOptions
 * @property {PostgresPoolLike} pool A pg Pool (required).
 * @property {string} [schema] The schema of the tables (default 'public'; made when missing): a lower-case SQL name.
 * @property {string} [tablePrefix] Prefix of the four table names (default 'handoff_graph_'): empty or a lower-case SQL name.
 * @property {number} [ttlSeconds] A session, its checkpoints and a run count as gone this long after their last write (default: never).
 */

/**
 * What sweep() removed, per table.
 * @typedef {object} PostgresSweep
 * @property {number} sessions
 * @property {number} checkpoints
 * @property {number} leases
 * @property {number} runs
 */

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const TABLES = ['sessions', 'checkpoints', 'leases', 'runs'];
// A row with an expiry counts as absent once it has passed (ttlSeconds); sweep() deletes such rows.
/** @type {(alias: string) => string} */
const LIVE = (alias) => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > clock_timestamp())`;

// U+0000, or a surrogate that is not half of a pair.
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what is refused
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * PostgreSQL keeps no U+0000 in text, and a lone surrogate would reach it as U+FFFD: two ids would be one.
 * @param {string} id
 * @param {string} what
 */
function checkKey(id, what) {
  if (UNSTORABLE.test(id)) {
    throw new TypeError(`a ${what} id in a PostgresStore cannot hold U+0000 or a lone surrogate (PostgreSQL text cannot keep them), got ${JSON.stringify(id)}`);
  }
  return id;
}

/**
 * Sessions, checkpoints, turn leases and durable runs in PostgreSQL.
 * @implements {SessionStore}
 * @implements {RunStore}
 */
export class PostgresStore {
  /** @type {PostgresPoolLike} */
  #pool;
  /** @type {number | null} */
  #ttlSeconds;
  /** @type {string} */
  #schema;
  /** @type {string} */
  #prefix;
  /** Qualified, quoted table names. @type {{ sessions: string, checkpoints: string, leases: string, runs: string }} */
  #t;
  /** The migration of this store's tables: started by the first call, shared by the calls after. @type {Promise<void> | null} */
  #ready = null;

  /**
   * @param {PostgresStoreOptions} options `pool`: a pg Pool (required); `schema` (default 'public'); `tablePrefix` of the
   *   four tables (default 'handoff_graph_'); `ttlSeconds`: a session, its checkpoints and a run
   *   count as gone that long after their last write (default: never)
   */
  constructor(options) {
    if (options === undefined) throw new TypeError('new PostgresStore({ pool }): the options are missing: pass { pool: new Pool(...) } (the npm package pg)');
    const { pool, schema = 'public', tablePrefix = 'handoff_graph_', ttlSeconds } = checkOptions(options, ['pool', 'schema', 'tablePrefix', 'ttlSeconds'], 'PostgresStore options');
    if (pool === undefined) throw new TypeError('new PostgresStore({ pool }): pool is missing: pass a Pool of the npm package pg (new Pool({ connectionString }))');
    if (typeof /** @type {Record<string, unknown> | undefined} */ (pool)?.query !== 'function') throw new TypeError(`new PostgresStore({ pool }): pool must be a Pool of the npm package pg (new Pool(...)), it has no query(): got ${describe(pool)}`);
    if (typeof schema !== 'string' || !IDENTIFIER.test(schema) || schema.length > 63) {
      throw new TypeError(`PostgresStore: schema must be a lower-case SQL name (a-z, 0-9, _; 1 to 63 characters, not starting with a digit), got ${describe(schema)}`);
    }
    if (typeof tablePrefix !== 'string' || !(tablePrefix === '' || IDENTIFIER.test(tablePrefix)) || tablePrefix.length > 40) {
      throw new TypeError(`PostgresStore: tablePrefix must be empty or a lower-case SQL name (a-z, 0-9, _; up to 40 characters, not starting with a digit), got ${describe(tablePrefix)}`);
    }
    if (ttlSeconds !== undefined && !(typeof ttlSeconds === 'number' && ttlSeconds >= 0.001 && ttlSeconds <= 2 ** 31 - 1)) {
      throw new TypeError(`PostgresStore: ttlSeconds must be a positive number of seconds from 0.001 to 2^31 - 1, got ${describe(ttlSeconds)}`);
    }
    this.#pool = pool;
    this.#schema = schema;
    this.#prefix = tablePrefix;
    this.#ttlSeconds = ttlSeconds ?? null;
    this.#t = /** @type {{ sessions: string, checkpoints: string, leases: string, runs: string }} */ (Object.fromEntries(TABLES.map((name) => [name, `"${schema}"."${tablePrefix}${name}"`])));
  }

  /**
   * The four tables, qualified and quoted ("schema"."prefix" + name).
   * @returns {{ sessions: string, checkpoints: string, leases: string, runs: string }}
   */
  tables() {
    return { ...this.#t };
  }

  /**
   * Creates the schema (when it does not exist) and the four tables and their index, if missing:
   * idempotent, and safe when several processes do it at once (a transaction-scoped advisory lock
   * serialises them). When the four tables exist it only checks that, so a role with no right to
   * create (only to read and write them) can use tables a migration made. Every other method does
   * it on first use; call it ahead to fail early.
   * @returns {Promise<void>}
   */
  async migrate() {
    this.#ready ??= this.#migrate().catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  async #migrate() {
    const t = this.#t;
    const lockKey = `handoff-graph ${this.#schema}.${this.#prefix}`;
    // One simple-protocol query of several statements is one transaction: the advisory lock is
    // held until its end. CREATE SCHEMA only when missing (its IF NOT EXISTS still needs the right
    // to create schemas).
    // Tables that exist already are not made again: CREATE TABLE IF NOT EXISTS needs the right
    // to create in the schema even then, which an application's role often lacks (a migration
    // role made them).
    const { rows: present } = await this.#pool.query('SELECT count(to_regclass(name))::int AS n FROM unnest($1::text[]) AS t(name)', [Object.values(t)]);
    if (present[0].n === TABLES.length) return;
    const { rows } = await this.#pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.#schema]);
    await this.#pool.query(`SELECT pg_advisory_xact_lock(hashtext('${lockKey}'));
${rows.length === 0 ? `CREATE SCHEMA IF NOT EXISTS "${this.#schema}";` : ''}
CREATE TABLE IF NOT EXISTS ${t.sessions} (
  id text PRIMARY KEY,
  version bigint NOT NULL,
  session json NOT NULL,
  expires_at timestamptz
);
CREATE TABLE IF NOT EXISTS ${t.checkpoints} (
  seq bigserial PRIMARY KEY,
  session_id text NOT NULL,
  checkpoint json NOT NULL,
  expires_at timestamptz
);
CREATE INDEX IF NOT EXISTS "${this.#prefix}checkpoints_session" ON ${t.checkpoints} (session_id, seq);
CREATE TABLE IF NOT EXISTS ${t.leases} (
  session_id text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS ${t.runs} (
  id text PRIMARY KEY,
  version bigint NOT NULL,
  run json NOT NULL,
  expires_at timestamptz
);`);
  }

  /**
   * @param {string} text
   * @param {unknown[]} [values]
   */
  async #query(text, values) {
    await this.migrate();
    return this.#pool.query(text, values);
  }

  /** The expiry of a write: an SQL expression (NULL without ttlSeconds). */
  get #expiry() {
    return this.#ttlSeconds === null ? 'NULL::timestamptz' : `clock_timestamp() + make_interval(secs => ${this.#ttlSeconds})`;
  }

  /**
   * With ttlSeconds, the CTEs that make a write to the log of the sessions `ids` (a SELECT) behave
   * as one on a Redis list with an expiry: a log whose expiry has passed is gone (its rows are
   * removed), and the write gives the live rows the new expiry (the rows it adds have it too).
   */
  /** @param {string} ids */
  #logExpiry(ids) {
    if (this.#ttlSeconds === null) return '';
    const t = this.#t.checkpoints;
    return `,
cleared AS (DELETE FROM ${t} c WHERE c.session_id IN (${ids}) AND NOT ${LIVE('c')}
  AND NOT EXISTS (SELECT 1 FROM ${t} l WHERE l.session_id = c.session_id AND ${LIVE('l')})),
extended AS (UPDATE ${t} c SET expires_at = ${this.#expiry} WHERE c.session_id IN (${ids}) AND ${LIVE('c')})`;
  }

  /**
   * The stored session, or undefined. A row that is not a session rejects with an Error (`code` 'ERR_NOT_A_SESSION').
   * @param {string} id
   * @returns {Promise<Session | undefined>}
   */
  async get(id) {
    checkKey(checkId(id), 'session');
    const { rows } = await this.#query(`SELECT session::text AS json FROM ${this.#t.sessions} s WHERE id = $1 AND ${LIVE('s')}`, [id]);
    if (rows.length === 0) return undefined;
    const where = `PostgreSQL table ${this.#t.sessions} row '${id}'`;
    let session;
    try {
      session = JSON.parse(rows[0].json);
    } catch (error) {
      throw notASession(where, /** @type {Error} */ (error).message);
    }
    const problem = storedSessionProblem(session, id);
    if (problem !== null) throw notASession(where, problem);
    return session;
  }

  /**
   * The statement that writes row `id` of `table` at version $3 with JSON $4 if its version is $2
   * (0: no live row), returning the id when it wrote. $1 is the id.
   */
  /**
   * @param {string} table
   * @param {string} column
   * @param {number} version
   */
  #compareAndWrite(table, column, version) {
    if (version === 0) {
      // No row, or one whose expiry has passed (it counts as absent).
      return `INSERT INTO ${table} AS r (id, version, ${column}, expires_at) VALUES ($1, $3, $4::json, ${this.#expiry})
ON CONFLICT (id) DO UPDATE SET version = excluded.version, ${column} = excluded.${column}, expires_at = excluded.expires_at
WHERE NOT ${LIVE('r')} AND $2::bigint = 0
RETURNING r.id`;
    }
    return `UPDATE ${table} AS r SET version = $3, ${column} = $4::json, expires_at = ${this.#expiry}
WHERE r.id = $1 AND r.version = $2 AND ${LIVE('r')}
RETURNING r.id`;
  }

  /** The live version of row `id` of `table`, 0 when there is none (for a ConflictError). */
  /**
   * @param {string} table
   * @param {string} id
   */
  async #storedVersion(table, id) {
    const { rows } = await this.#query(`SELECT version FROM ${table} r WHERE id = $1 AND ${LIVE('r')}`, [id]);
    return rows.length === 0 ? 0 : Number(rows[0].version);
  }

  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same statement: both or neither.
   * @param {Session} session
   * @param {SaveOptions} [options]
   * @returns {Promise<void>}
   */
  async save(session, options) {
    const { id, version } = checkSession(session);
    checkKey(id, 'session');
    const next = version + 1;
    // What get() would refuse is never written (as every store).
    const problem = storedSessionProblem({ ...session, version: next }, id);
    if (problem !== null) throw new TypeError(`session '${id}' is not a session of the documented format: ${problem}`);
    const json = toJSON({ ...session, version: next }, `session '${id}'`);
    const checkpoints = checkpointTexts(options, id);
    const write = this.#compareAndWrite(this.#t.sessions, 'session', version);
    let saved;
    if (checkpoints.length === 0) {
      saved = (await this.#query(write, [id, version, next, json])).rows.length === 1;
    } else {
      // The checkpoints join the log only if the session was written: the same statement, so
      // both or neither. With a TTL, the log's older rows get the session's new expiry too.
      const { rows } = await this.#query(
        `WITH saved AS (${write}),
appended AS (
  INSERT INTO ${this.#t.checkpoints} (session_id, checkpoint, expires_at)
  SELECT saved.id, c.text::json, ${this.#expiry} FROM saved, unnest($5::text[]) WITH ORDINALITY AS c(text, n) ORDER BY c.n
)${this.#logExpiry('SELECT id FROM saved')}
SELECT count(*)::int AS saved FROM saved`,
        [id, version, next, json, checkpoints],
      );
      saved = rows[0].saved === 1;
    }
    if (!saved) throw conflict(id, version, await this.#storedVersion(this.#t.sessions, id));
    session.version = next;
  }

  /**
   * Appends a checkpoint (any JSON value) as a row; never conflicts.
   * @param {string} id
   * @param {unknown} checkpoint
   * @returns {Promise<void>}
   */
  async appendCheckpoint(id, checkpoint) {
    checkKey(checkId(id), 'session');
    const json = toJSON(checkpoint, `a checkpoint of session '${id}'`);
    if (this.#ttlSeconds === null) {
      await this.#query(`INSERT INTO ${this.#t.checkpoints} (session_id, checkpoint) VALUES ($1, $2::json)`, [id, json]);
      return;
    }
    // As a Redis list with an expiry: a log whose expiry passed is gone (its rows are removed
    // first), and each write gives the whole log a new one.
    await this.#query(
      `WITH written AS (SELECT $1::text AS id)${this.#logExpiry('SELECT id FROM written')}
INSERT INTO ${this.#t.checkpoints} (session_id, checkpoint, expires_at) VALUES ($1, $2::json, ${this.#expiry})`,
      [id, json],
    );
  }

  /**
   * The checkpoints, oldest first.
   * @param {string} id
   * @returns {Promise<unknown[]>}
   */
  async listCheckpoints(id) {
    checkKey(checkId(id), 'session');
    const live = this.#ttlSeconds === null ? '' : ` AND EXISTS (SELECT 1 FROM ${this.#t.checkpoints} l WHERE l.session_id = $1 AND ${LIVE('l')})`;
    const { rows } = await this.#query(`SELECT checkpoint::text AS json FROM ${this.#t.checkpoints} WHERE session_id = $1${live} ORDER BY seq`, [id]);
    return rows.map((row) => JSON.parse(row.json));
  }

  /**
   * Removes the session, its checkpoints and its lease; true if there was a session or a checkpoint to remove.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async delete(id) {
    checkKey(checkId(id), 'session');
    const { rows } = await this.#query(
      `WITH s AS (DELETE FROM ${this.#t.sessions} r WHERE id = $1 RETURNING ${LIVE('r')} AS live),
c AS (DELETE FROM ${this.#t.checkpoints} r WHERE session_id = $1 RETURNING ${LIVE('r')} AS live),
l AS (DELETE FROM ${this.#t.leases} WHERE session_id = $1)
SELECT (SELECT count(*) FROM s WHERE live) + (SELECT count(*) FROM c WHERE live) AS removed`,
      [id],
    );
    return Number(rows[0].removed) > 0;
  }

  /**
   * The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. A row
   * that is not one is an error naming it.
   * @param {string} id
   * @returns {Promise<RunRecord | undefined>}
   */
  async getRun(id) {
    checkKey(checkRunId(id), 'run');
    const { rows } = await this.#query(`SELECT run::text AS json FROM ${this.#t.runs} r WHERE id = $1 AND ${LIVE('r')}`, [id]);
    if (rows.length === 0) return undefined;
    const where = `PostgreSQL table ${this.#t.runs} row '${id}'`;
    let run;
    let problem;
    try {
      run = JSON.parse(rows[0].json);
      problem = storedRunProblem(run, id);
    } catch (error) {
      problem = /** @type {Error} */ (error).message;
    }
    if (problem !== null) throw Object.assign(new Error(`${where} is not a run (${problem}); it was changed outside the store`), { code: 'ERR_NOT_A_RUN', path: where });
    return run;
  }

  /**
   * Saves a run's record if the stored version is `run.version` (0 when none is stored), then
   * sets `run.version` to the new version; rejects with ConflictError otherwise.
   * @param {RunRecord} run
   * @returns {Promise<void>}
   */
  async saveRun(run) {
    const { id, version } = checkRun(run);
    checkKey(id, 'run');
    const next = version + 1;
    const json = toJSON({ ...run, version: next }, `run '${id}'`);
    const { rows } = await this.#query(this.#compareAndWrite(this.#t.runs, 'run', version), [id, version, next, json]);
    if (rows.length !== 1) throw runConflict(id, version, await this.#storedVersion(this.#t.runs, id));
    run.version = next;
  }

  /**
   * Removes the run's record; true if there was one.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async deleteRun(id) {
    checkKey(checkRunId(id), 'run');
    const { rows } = await this.#query(`DELETE FROM ${this.#t.runs} r WHERE id = $1 RETURNING ${LIVE('r')} AS live`, [id]);
    return rows.length === 1 && rows[0].live === true;
  }

  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds (the database's clock),
   * or extends it when `holder` has it already: true; false while another holder's lease lasts.
   * @param {string} id
   * @param {string} holder
   * @param {number} ttlMs
   * @returns {Promise<boolean>}
   */
  async acquireLease(id, holder, ttlMs) {
    checkLease(id, holder);
    checkKey(id, 'session');
    checkKey(holder, 'lease holder');
    const ttl = checkTtl(ttlMs);
    // Two acquires of one row: the second waits for the first's row lock, then re-checks the
    // WHERE against the row the first wrote (and finds another's live lease).
    const { rows } = await this.#query(
      `INSERT INTO ${this.#t.leases} AS l (session_id, holder, expires_at) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
WHERE l.holder = excluded.holder OR l.expires_at <= clock_timestamp()
RETURNING 1`,
      [id, holder, ttl],
    );
    return rows.length === 1;
  }

  /**
   * Gives the lease up if `holder` still has it: true; false when it had expired or was another's.
   * @param {string} id
   * @param {string} holder
   * @returns {Promise<boolean>}
   */
  async releaseLease(id, holder) {
    checkLease(id, holder);
    checkKey(id, 'session');
    checkKey(holder, 'lease holder');
    const { rows } = await this.#query(`DELETE FROM ${this.#t.leases} WHERE session_id = $1 AND holder = $2 RETURNING expires_at > clock_timestamp() AS live`, [id, holder]);
    return rows.length === 1 && rows[0].live === true;
  }

  /**
   * Deletes the rows that count as gone: sessions, checkpoints and runs past their ttlSeconds,
   * and leases past their expiry (left by a process that died mid-turn). Reads never see them
   * anyway; this only frees the space. Resolves to the number of rows of each table removed.
   * @returns {Promise<PostgresSweep>}
   */
  async sweep() {
    const { rows } = await this.#query(
      `WITH s AS (DELETE FROM ${this.#t.sessions} r WHERE NOT ${LIVE('r')} RETURNING 1),
c AS (DELETE FROM ${this.#t.checkpoints} r WHERE NOT ${LIVE('r')}
  AND NOT EXISTS (SELECT 1 FROM ${this.#t.checkpoints} l WHERE l.session_id = r.session_id AND ${LIVE('l')}) RETURNING 1),
l AS (DELETE FROM ${this.#t.leases} r WHERE r.expires_at <= clock_timestamp() RETURNING 1),
u AS (DELETE FROM ${this.#t.runs} r WHERE NOT ${LIVE('r')} RETURNING 1)
SELECT (SELECT count(*) FROM s)::int AS sessions, (SELECT count(*) FROM c)::int AS checkpoints, (SELECT count(*) FROM l)::int AS leases, (SELECT count(*) FROM u)::int AS runs`,
    );
    return rows[0];
  }
}
