// MemoryStore: sessions in this process's memory; browser-safe; deep copies in and out.
import type { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js';

export { ConflictError } from './errors.js';

export class MemoryStore implements SessionStore, RunStore {
  constructor();
  /** The stored session (a copy), or undefined. */
  get(id: string): Promise<Session | undefined>;
  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither.
   */
  save(session: Session, options?: SaveOptions): Promise<void>;
  /** Appends a checkpoint (any JSON value); never conflicts. */
  appendCheckpoint(id: string, checkpoint: unknown): Promise<void>;
  /** The checkpoints (copies), oldest first. */
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
  /** The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Saves if the stored version equals `run.version` (0 when none is stored), then bumps it; else ConflictError. */
  saveRun(run: RunRecord): Promise<void>;
  /** Removes the run's record; true if there was one. */
  deleteRun(id: string): Promise<boolean>;
}
