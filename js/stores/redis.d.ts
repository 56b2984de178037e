// RedisStore: sessions in Redis, for fleets of Node workers (docs/handoffs.md).
import type { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js';

export { ConflictError } from './errors.js';

/**
 * What RedisStore uses of a client of the npm `redis` package (node-redis v4 to v6): pass
 * `createClient(...)`'s client, connected. This package does not depend on `redis`.
 */
export interface RedisClientLike {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGet(key: string, field: string): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<ReadonlyArray<unknown>>;
  del(keys: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prefix of every key (default 'handoff-graph:'). */
  prefix?: string;
  /** Let a session and its checkpoints expire this long after their last write (default: never). */
  ttlSeconds?: number;
}

export class RedisStore implements SessionStore, RunStore {
  constructor(client: RedisClientLike, options?: RedisStoreOptions);
  /** The Redis keys of session `id`. */
  keys(id: string): { session: string; checkpoints: string };
  /** The stored session, or undefined. */
  get(id: string): Promise<Session | undefined>;
  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither. The compare and
   * the write are one Lua script, atomic on the server.
   */
  save(session: Session, options?: SaveOptions): Promise<void>;
  /** Appends a checkpoint (any JSON value) to a list; never conflicts. */
  appendCheckpoint(id: string, checkpoint: unknown): Promise<void>;
  /** The checkpoints, oldest first. */
  listCheckpoints(id: string): Promise<unknown[]>;
  /** Removes the session and its checkpoints; true if there was anything to remove. */
  delete(id: string): Promise<boolean>;
  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds, or extends it when
   * `holder` has it already: true; false while another holder's lease lasts (handoff-graph/server).
   */
  acquireLease(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` still has it: true; false when it had expired or was another's. */
  releaseLease(id: string, holder: string): Promise<boolean>;
  /** The Redis key of the durable run `id`. */
  runKey(id: string): string;
  /** The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Saves if the stored version equals `run.version` (0 when none is stored), then bumps it; else ConflictError. */
  saveRun(run: RunRecord): Promise<void>;
  /** Removes the run's record; true if there was one. */
  deleteRun(id: string): Promise<boolean>;
}
