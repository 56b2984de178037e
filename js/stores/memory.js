// MemoryStore: sessions and checkpoint logs in this process's memory (the default store).
// Browser-safe: no Node built-ins. Everything is kept as JSON text, so what goes in and what comes
// out are deep copies: changing a session after save() or after get() never changes the store.
import { checkOptions } from '../options.js';
import { checkId, checkSession, conflict, toJSON } from './errors.js';

export { ConflictError } from './errors.js';

export class MemoryStore {
  /** id -> { version, json } */
  #sessions = new Map();
  /** id -> JSON text of each checkpoint, in append order */
  #checkpoints = new Map();

  /** @param options none: a MemoryStore takes no options (an object with keys is a TypeError) */
  constructor(options) {
    checkOptions(options, [], 'MemoryStore options');
  }

  /** The stored session `id` (a copy), or undefined. */
  async get(id) {
    const entry = this.#sessions.get(checkId(id));
    return entry === undefined ? undefined : JSON.parse(entry.json);
  }

  /**
   * Saves `session` if the stored version is `session.version` (0 when none is stored), then sets
   * `session.version` to the new version. Rejects with ConflictError otherwise.
   */
  async save(session) {
    const { id, version } = checkSession(session);
    const next = version + 1;
    const json = toJSON({ ...session, version: next }, `session '${id}'`);
    // No await before the write: the check and the write are one step of the event loop.
    const actual = this.#sessions.get(id)?.version ?? 0;
    if (actual !== version) throw conflict(id, version, actual);
    this.#sessions.set(id, { version: next, json });
    session.version = next;
  }

  /** Appends a checkpoint (any JSON value) to the session's log; never conflicts. */
  async appendCheckpoint(id, checkpoint) {
    const json = toJSON(checkpoint, `a checkpoint of session '${checkId(id)}'`);
    let log = this.#checkpoints.get(id);
    if (log === undefined) this.#checkpoints.set(id, (log = []));
    log.push(json);
  }

  /** The session's checkpoints (copies), oldest first; [] when there are none. */
  async listCheckpoints(id) {
    return (this.#checkpoints.get(checkId(id)) ?? []).map((json) => JSON.parse(json));
  }

  /** Removes the session and its checkpoints; true if there was anything to remove. */
  async delete(id) {
    checkId(id);
    const had = this.#sessions.has(id) || this.#checkpoints.has(id);
    this.#sessions.delete(id);
    this.#checkpoints.delete(id);
    return had;
  }
}
