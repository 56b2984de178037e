// @ts-check
// FileStore: sessions in a directory, for Node. Per session:
//   NAME.json              the session, replaced whole: written to a temporary file, fsynced, then
//                          renamed over the old one, so a reader (or a process killed mid-save)
//                          only ever sees a complete session, the old one or the new one;
//   NAME.checkpoints.jsonl its checkpoint log, one JSON value a line, appended with O_APPEND (one
//                          write each); a line cut short by a killed process is ignored on read
//                          and reported (onTornLine), and the next append starts on a new line;
//   NAME.lock              held during a save only (optimistic versioning: compare the stored
//                          version, then write);
//   NAME.commit            while save(session, { checkpoints }) runs: the version it writes and
//                          the log's size before its lines. A save killed before its rename
//                          leaves it behind, and the next save (or read) ignores the lines past
//                          that size: the checkpoints land with the session or not at all;
//   NAME.lease             the turn lease of handoff-graph/server: holder, expiry, owner pid;
//   NAME.run.json          a durable state-machine run (js/durable.js), replaced whole like a
//                          session under NAME.run.lock (a session's NAME never holds a '.').
// NAME is the session id made safe for every file system (see fileName below).
//
// Scope: processes on ONE host sharing a local file system. The lock is a file created with
// link(2) (atomic, fails if it exists) that names its owner's pid and host; a lock whose owner
// process is gone (a kill mid-save) is broken by the next writer, as is any lock older than
// `staleLockMs`. Network file systems (NFS, SMB) and several hosts need RedisStore.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, truncate, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkOptions } from '../options.js';
import { describe } from '../text.js';
import { appendLines, readOwnJSON, replaceFile } from './file-io.js';
import { alive, breakIfStale, HOST, isStale, lockFile, ownerOf, unlockFile } from './file-lock.js';
import { checkId, checkLease, checkpointTexts, checkRun, checkRunId, checkSession, checkTtl, conflict, runConflict, storedRunProblem, storedSessionProblem, toJSON } from './checks.js';

export { ConflictError } from './errors.js';

/** @import { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js' */

/**
 * A line of a checkpoint log that is not whole JSON (a write cut short by a killed process).
 * @typedef {object} TornLine
 * @property {string} id
 * @property {string} path The log file.
 * @property {number} line 1-based line number.
 * @property {number} offset Byte offset of the line in the file.
 * @property {string} text The line's first 200 characters.
 * @property {string} reason
 */

/**
 * @typedef {object} FileStoreOptions
 * @property {boolean} [fsync] Flush every save and append to the disk (default true): survives a power cut too.
 * @property {number} [lockTimeoutMs] How long a save waits for another save of the same session (default 10000).
 * @property {number} [staleLockMs] A lock older than this is broken even if its owner seems alive (default 30000).
 * @property {(info: TornLine) => void} [onTornLine] Told of each torn line once (default: a process warning, code HANDOFF_GRAPH_TORN_CHECKPOINT).
 */

const FILE_STORE_OPTIONS = ['fsync', 'lockTimeoutMs', 'staleLockMs', 'onTornLine'];

/**
 * The file name stem for a session id: a-z, 0-9, '_' and '-' stay, an upper-case letter becomes
 * '^' and its lower case (so that case-insensitive file systems keep 'A' and 'a' apart), any other
 * UTF-8 byte becomes %XX. Stems past 120 characters are cut and end in '~' and the id's SHA-256.
 * (The file name stem of a session id: safe on every file system, case-insensitive ones too.)
 * @param {string} id
 * @returns {string}
 */
export function fileName(id) {
  let stem = '';
  for (const byte of new TextEncoder().encode(checkId(id))) {
    const c = String.fromCharCode(byte);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_' || c === '-') stem += c;
    else if (c >= 'A' && c <= 'Z') stem += `^${c.toLowerCase()}`;
    else stem += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (stem.length > 120) stem = `${stem.slice(0, 50)}~${createHash('sha256').update(id).digest('hex')}`;
  return stem;
}

/**
 * @param {string} file
 * @param {string} why
 */
function notASession(file, why) {
  return Object.assign(new Error(`${file} is not a session (${why}); it was changed outside the FileStore`), { code: 'ERR_NOT_A_SESSION', path: file });
}

// The JSON in `file`: null when there is no file, else { value } or, when the text does not parse,
// { problem } (the parser's reason).
/**
 * @param {string} file
 * @returns {Promise<{ value: unknown, problem?: undefined } | { value?: undefined, problem: string } | null>}
 */
async function readJson(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: /** @type {Error} */ (error).message };
  }
}

/** @param {NodeJS.ErrnoException} error */
const ignoreMissing = (error) => {
  if (error.code !== 'ENOENT') throw error;
};

/**
 * Sessions in a directory, for Node processes on one host.
 * @implements {SessionStore}
 * @implements {RunStore}
 */
export class FileStore {
  /** @type {string} */
  #dir;
  /** @type {boolean} */
  #fsync;
  /** @type {number} */
  #lockTimeoutMs;
  /** @type {number} */
  #staleLockMs;
  /** @type {(info: TornLine) => void} */
  #onTornLine;
  /** @type {Set<string>} */
  #reported = new Set();
  /** @type {Promise<string | undefined> | null} */
  #ready = null;

  /**
   * @param {string | URL} directory where the files go (created if missing)
   * @param {FileStoreOptions} [options] `fsync` (default true): flush every save and append to the disk, so they also
   *   survive a power cut, not only a killed process; `lockTimeoutMs` (default 10000): how long a
   *   save waits for another save of the same session; `staleLockMs` (default 30000): a lock older
   *   than this is broken even if its owner seems alive; `onTornLine(info)`: told of each line of
   *   a checkpoint log that is not whole JSON (default: a process warning, once per line).
   */
  constructor(directory, options) {
    if (directory === undefined) throw new TypeError('new FileStore(directory, options): the directory is missing');
    if (typeof directory !== 'string' && !(directory instanceof URL)) throw new TypeError(`new FileStore(directory): directory must be a path or a file: URL, got ${describe(directory)}`);
    const { fsync = true, lockTimeoutMs = 10_000, staleLockMs = 30_000, onTornLine } = checkOptions(options, FILE_STORE_OPTIONS, 'FileStore options');
    if (typeof fsync !== 'boolean') throw new TypeError(`FileStore options.fsync must be a boolean, got ${describe(fsync)}`);
    for (const [name, ms] of Object.entries({ lockTimeoutMs, staleLockMs })) {
      if (typeof ms !== 'number' || !(ms >= 0)) throw new TypeError(`FileStore options.${name} must be a number >= 0, got ${describe(ms)}`);
    }
    if (onTornLine !== undefined && typeof onTornLine !== 'function') throw new TypeError(`FileStore options.onTornLine must be a function, got ${describe(onTornLine)}`);
    this.#dir = path.resolve(directory instanceof URL ? fileURLToPath(directory) : directory);
    this.#fsync = fsync;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#staleLockMs = staleLockMs;
    this.#onTornLine =
      onTornLine ??
      ((info) => process.emitWarning(`${info.path}:${info.line}: ${info.reason}; the line is ignored`, { code: 'HANDOFF_GRAPH_TORN_CHECKPOINT' }));
  }

  /** How long a save waits for the lock, and when a lock is stale (js/stores/file-lock.js). */
  get #lockLimits() {
    return { timeoutMs: this.#lockTimeoutMs, staleMs: this.#staleLockMs };
  }

  /** The directory, absolute. */
  get directory() {
    return this.#dir;
  }

  /**
   * The files of session `id`.
   * @param {string} id
   * @returns {{ session: string, checkpoints: string, lock: string }}
   */
  paths(id) {
    const base = path.join(this.#dir, fileName(id));
    return { session: `${base}.json`, checkpoints: `${base}.checkpoints.jsonl`, lock: `${base}.lock` };
  }

  #ensureDir() {
    this.#ready ??= mkdir(this.#dir, { recursive: true }).catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /**
   * The stored session, or undefined. A file that is not a session of the documented format (not
   * JSON, not an object, another format, another id, a field of the wrong type) rejects with an
   * Error naming the file (`code` 'ERR_NOT_A_SESSION', `path`); so does a save over such a file.
   * @param {string} id
   * @returns {Promise<Session | undefined>}
   */
  async get(id) {
    return (await this.#read(this.paths(id).session, id)) ?? undefined;
  }

  // The session in `file`, or null when there is none. Saves replace the file whole, so anything
  // else was written by something other than this store: an error that names the file.
  /**
   * @param {string} file
   * @param {string} id
   * @returns {Promise<Session | null>}
   */
  async #read(file, id) {
    const read = await readJson(file);
    if (read === null) return null;
    const problem = read.problem ?? storedSessionProblem(read.value, id);
    if (problem !== null) throw notASession(file, problem);
    return /** @type {Session} */ (read.value);
  }

  /**
   * @param {string} file
   * @param {string} id
   * @returns {Promise<number>}
   */
  async #storedVersion(file, id) {
    const session = await this.#read(file, id);
    return session === null ? 0 : session.version;
  }

  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither. The file is
   * replaced atomically (temporary file, fsync, rename).
   * @param {Session} session
   * @param {SaveOptions} [options]
   * @returns {Promise<void>}
   */
  async save(session, options) {
    const { id, version } = checkSession(session);
    const next = version + 1;
    // What get() would refuse is never written.
    const problem = storedSessionProblem({ ...session, version: next }, id);
    if (problem !== null) throw new TypeError(`session '${id}' is not a session of the documented format: ${problem}`);
    const text = `${toJSON({ ...session, version: next }, `session '${id}'`)}\n`;
    const checkpoints = checkpointTexts(options, id);
    await this.#ensureDir();
    const paths = this.paths(id);
    const journal = this.#extra(id, 'commit');
    const lock = await lockFile(paths.lock, this.#lockLimits);
    try {
      await this.#settle(paths, journal, id);
      const actual = await this.#storedVersion(paths.session, id);
      if (actual !== version) throw conflict(id, version, actual);
      if (checkpoints.length > 0) {
        // The journal first: from here until the rename, the lines past logSize are not yet the log's.
        const logSize = await stat(paths.checkpoints).then((info) => info.size, (error) => (error.code === 'ENOENT' ? 0 : Promise.reject(error)));
        await replaceFile(journal, JSON.stringify({ version: next, logSize }), this.#fsync, this.#dir);
        await appendLines(paths.checkpoints, checkpoints.map((json) => `${json}\n`).join(''), this.#fsync);
      }
      await replaceFile(paths.session, text, this.#fsync, this.#dir);
      if (checkpoints.length > 0) await unlink(journal).catch(ignoreMissing);
    } finally {
      await unlockFile(lock);
    }
    session.version = next;
  }

  // NAME.commit and NAME.lease, beside the files paths() names.
  /**
   * @param {string} id
   * @param {string} suffix
   */
  #extra(id, suffix) {
    return path.join(this.#dir, `${fileName(id)}.${suffix}`);
  }

  // Under the lock: a journal left by a save killed before its rename (the stored version is
  // below the journal's) means the log's lines past logSize belong to no session: cut them.
  /**
   * @param {{ session: string, checkpoints: string }} paths
   * @param {string} journal
   * @param {string} id
   */
  async #settle(paths, journal, id) {
    const pending = await readOwnJSON(journal);
    if (pending === null) return;
    if ((await this.#storedVersion(paths.session, id)) < pending.version) {
      await truncate(paths.checkpoints, pending.logSize).catch(ignoreMissing);
    }
    await unlink(journal).catch(ignoreMissing);
  }

  /**
   * Appends a checkpoint (any JSON value) as one line, in one O_APPEND write; never conflicts:
   * appends from several writers all land, each line whole.
   * @param {string} id
   * @param {unknown} checkpoint
   * @returns {Promise<void>}
   */
  async appendCheckpoint(id, checkpoint) {
    const line = `${toJSON(checkpoint, `a checkpoint of session '${checkId(id)}'`)}\n`;
    await this.#ensureDir();
    await appendLines(this.paths(id).checkpoints, line, this.#fsync);
  }

  /**
   * The checkpoints, oldest first; torn lines are skipped and reported to `onTornLine`.
   * @param {string} id
   * @returns {Promise<unknown[]>}
   */
  async listCheckpoints(id) {
    const { checkpoints, torn } = await this.readCheckpoints(id);
    for (const info of torn) {
      const key = `${info.path}\0${info.offset}\0${info.text.length}`;
      if (this.#reported.has(key)) continue;
      this.#reported.add(key);
      this.#onTornLine(info);
    }
    return checkpoints;
  }

  /**
   * The checkpoint log as read, torn lines listed (and not reported).
   * @param {string} id
   * @returns {Promise<{ checkpoints: unknown[], torn: TornLine[] }>}
   */
  async readCheckpoints(id) {
    const { session, checkpoints: file } = this.paths(id);
    let buffer;
    try {
      buffer = await readFile(file);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return { checkpoints: [], torn: [] };
      throw error;
    }
    // The journal after the log: lines a save appended before its rename are in the log only
    // after that save wrote its journal, so a journal still there (or left by a killed save)
    // says where the session's log ends.
    const pending = await readOwnJSON(this.#extra(id, 'commit'));
    if (pending !== null && (await this.#storedVersion(session, id)) < pending.version) buffer = buffer.subarray(0, pending.logSize);
    /** @type {unknown[]} */
    const checkpoints = [];
    /** @type {TornLine[]} */
    const torn = [];
    let start = 0;
    for (let line = 1; start < buffer.length; line++) {
      const newline = buffer.indexOf(0x0a, start);
      const end = newline === -1 ? buffer.length : newline;
      const text = buffer.toString('utf8', start, end);
      if (text.length > 0) {
        if (newline === -1) {
          torn.push({ id, path: file, line, offset: start, text: text.slice(0, 200), reason: 'the last line has no newline: a write cut short' });
        } else {
          try {
            checkpoints.push(JSON.parse(text));
          } catch (error) {
            torn.push({ id, path: file, line, offset: start, text: text.slice(0, 200), reason: `not JSON (${/** @type {Error} */ (error).message}): a write cut short` });
          }
        }
      }
      start = end + 1;
    }
    return { checkpoints, torn };
  }

  /**
   * Removes the session and its checkpoint log; true if there was anything to remove.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async delete(id) {
    const paths = this.paths(id);
    await this.#ensureDir();
    const lock = await lockFile(paths.lock, this.#lockLimits);
    let removed = 0;
    try {
      for (const file of [paths.session, paths.checkpoints]) {
        removed += await unlink(file).then(() => 1, (error) => (error.code === 'ENOENT' ? 0 : Promise.reject(error)));
      }
      for (const suffix of ['commit', 'lease']) await unlink(this.#extra(id, suffix)).catch(ignoreMissing);
    } finally {
      await unlockFile(lock);
    }
    return removed > 0;
  }

  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds, or extends it when
   * `holder` has it already: true; false while another holder's lease lasts. A lease whose owner
   * was a process of this host that is gone (a kill -9) has ended, whatever its expiry
   * (handoff-graph/server).
   * @param {string} id
   * @param {string} holder
   * @param {number} ttlMs
   * @returns {Promise<boolean>}
   */
  async acquireLease(id, holder, ttlMs) {
    checkLease(id, holder);
    const ttl = checkTtl(ttlMs);
    await this.#ensureDir();
    const file = this.#extra(id, 'lease');
    const lock = await lockFile(this.paths(id).lock, this.#lockLimits);
    try {
      const lease = await readOwnJSON(file);
      if (lease !== null && lease.holder !== holder && this.#leaseLasts(lease)) return false;
      // Not flushed: a power cut that loses the lease file also ended every process that held one.
      await replaceFile(file, JSON.stringify({ holder, expires: Date.now() + ttl, host: HOST, pid: process.pid }), false, this.#dir);
      return true;
    } finally {
      await unlockFile(lock);
    }
  }

  /**
   * Gives the lease up if `holder` still has it: true; false when it had expired or was another's.
   * @param {string} id
   * @param {string} holder
   * @returns {Promise<boolean>}
   */
  async releaseLease(id, holder) {
    checkLease(id, holder);
    const file = this.#extra(id, 'lease');
    await this.#ensureDir();
    const lock = await lockFile(this.paths(id).lock, this.#lockLimits);
    try {
      const lease = await readOwnJSON(file);
      if (lease === null || lease.holder !== holder) return false;
      await unlink(file).catch(ignoreMissing);
      return this.#leaseLasts(lease);
    } finally {
      await unlockFile(lock);
    }
  }

  /** @param {{ holder: string, expires: number, host?: string, pid?: number }} lease */
  #leaseLasts(lease) {
    if (lease.host === HOST && Number.isInteger(lease.pid) && !alive(/** @type {number} */ (lease.pid))) return false;
    return lease.expires > Date.now();
  }

  /**
   * The file of the durable run `id` (NAME.run.json).
   * @param {string} id
   * @returns {string}
   */
  runPath(id) {
    return path.join(this.#dir, `${fileName(checkRunId(id))}.run.json`);
  }

  // The run in `file`, or null; anything but a run record written by this store is an error naming the file.
  /**
   * @param {string} file
   * @param {string} id
   * @returns {Promise<RunRecord | null>}
   */
  async #readRun(file, id) {
    const read = await readJson(file);
    if (read === null) return null;
    const problem = read.problem ?? storedRunProblem(read.value, id);
    if (problem !== null) throw Object.assign(new Error(`${file} is not a run (${problem}); it was changed outside the FileStore`), { code: 'ERR_NOT_A_RUN', path: file });
    return /** @type {RunRecord} */ (read.value);
  }

  /**
   * The record of the durable run `id` (machine.run(state, { store, runId })), or undefined.
   * @param {string} id
   * @returns {Promise<RunRecord | undefined>}
   */
  async getRun(id) {
    return (await this.#readRun(this.runPath(id), id)) ?? undefined;
  }

  /**
   * Saves a run's record if the stored version is `run.version` (0 when none is stored), then
   * sets `run.version` to the new version; rejects with ConflictError otherwise. The file is
   * replaced atomically (temporary file, fsync, rename) under a lock, as a session's.
   * @param {RunRecord} run
   * @returns {Promise<void>}
   */
  async saveRun(run) {
    const { id, version } = checkRun(run);
    const next = version + 1;
    const text = `${toJSON({ ...run, version: next }, `run '${id}'`)}\n`;
    await this.#ensureDir();
    const file = this.runPath(id);
    const lock = await lockFile(`${file.slice(0, -'.json'.length)}.lock`, this.#lockLimits);
    try {
      const stored = await this.#readRun(file, id);
      const actual = stored === null ? 0 : stored.version;
      if (actual !== version) throw runConflict(id, version, actual);
      await replaceFile(file, text, this.#fsync, this.#dir);
    } finally {
      await unlockFile(lock);
    }
    run.version = next;
  }

  /**
   * Removes the run's record; true if there was one.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  async deleteRun(id) {
    return unlink(this.runPath(id)).then(() => true, (error) => (error.code === 'ENOENT' ? false : Promise.reject(error)));
  }

  /**
   * Removes what processes of this host that died mid-save left behind: temporary files and
   * locks. Never needed for correctness (a later save breaks a dead owner's lock, and temporary
   * files are never read); returns the names removed.
   * @returns {Promise<string[]>}
   */
  async sweep() {
    /** @type {string[]} */
    let names;
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return [];
      throw error;
    }
    /** @type {string[]} */
    const removed = [];
    for (const name of names) {
      const file = path.join(this.#dir, name);
      const temp = /\.tmp-(\d+)-[0-9a-f]+$/.exec(name);
      if (temp !== null) {
        if (alive(Number(temp[1]))) continue;
        await unlink(file).catch(ignoreMissing);
        removed.push(name);
      } else if (name.endsWith('.lock')) {
        if ((await breakIfStale(file, this.#staleLockMs)) === 'broken') removed.push(name);
      } else if (name.endsWith('.lock.break')) {
        const seen = await ownerOf(file);
        if (seen !== null && seen.age > 1000 && (seen.owner === null || isStale(seen, this.#staleLockMs))) {
          await unlink(file).catch(ignoreMissing);
          removed.push(name);
        }
      }
    }
    return removed;
  }
}
