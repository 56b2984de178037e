// PostgresStore: sessions, checkpoints, turn leases and durable runs in PostgreSQL (docs/handoffs.md).
import type { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js';

export { ConflictError } from './errors.js';

/**
 * What PostgresStore uses of a `Pool` of the npm `pg` package (`new Pool({ connectionString })`;
 * a pg `Client` or a pg-compatible pool works too). This package does not depend on `pg`.
 */
export interface PostgresPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface PostgresStoreOptions {
  /** A pg Pool (required). */
  pool: PostgresPoolLike;
  /** The schema of the tables (default 'public'; made when missing): a lower-case SQL name. */
  schema?: string;
  /** Prefix of the four table names (default 'handoff_graph_'): empty or a lower-case SQL name. */
  tablePrefix?: string;
  /** A session, its checkpoints and a run count as gone this long after their last write (default: never). */
  ttlSeconds?: number;
}

/** What sweep() removed, per table. */
export interface PostgresSweep {
  sessions: number;
  checkpoints: number;
  leases: number;
  runs: number;
}

export class PostgresStore implements SessionStore, RunStore {
  constructor(options: PostgresStoreOptions);
  /** The four tables, qualified and quoted ("schema"."prefix" + name). */
  tables(): { sessions: string; checkpoints: string; leases: string; runs: string };
  /**
   * Makes the schema (when missing), the tables and their index, if missing: idempotent, safe for
   * several processes at once. Every other method does it on first use.
   */
  migrate(): Promise<void>;
  /** The stored session, or undefined. A row that is not a session rejects with an Error (`code` 'ERR_NOT_A_SESSION'). */
  get(id: string): Promise<Session | undefined>;
  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same statement: both or neither.
   */
  save(session: Session, options?: SaveOptions): Promise<void>;
  /** Appends a checkpoint (any JSON value) as a row; never conflicts. */
  appendCheckpoint(id: string, checkpoint: unknown): Promise<void>;
  /** The checkpoints, oldest first. */
  listCheckpoints(id: string): Promise<unknown[]>;
  /** Removes the session, its checkpoints and its lease; true if there was a session or a checkpoint to remove. */
  delete(id: string): Promise<boolean>;
  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds (the database's clock),
   * or extends it when `holder` has it already: true; false while another holder's lease lasts.
   */
  acquireLease(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` still has it: true; false when it had expired or was another's. */
  releaseLease(id: string, holder: string): Promise<boolean>;
  /** The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Saves if the stored version equals `run.version` (0 when none is stored), then bumps it; else ConflictError. */
  saveRun(run: RunRecord): Promise<void>;
  /** Removes the run's record; true if there was one. */
  deleteRun(id: string): Promise<boolean>;
  /** Deletes the rows past their expiry (ttlSeconds; leases left by dead processes); the count per table. */
  sweep(): Promise<PostgresSweep>;
}
