// FileStore: sessions in a directory, for Node processes on one host (docs/handoffs.md).
import type { RunRecord, RunStore, SaveOptions, Session, SessionStore } from '../index.js';

export { ConflictError } from './errors.js';

/** A line of a checkpoint log that is not whole JSON (a write cut short by a killed process). */
export interface TornLine {
  id: string;
  /** The log file. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line in the file. */
  offset: number;
  /** The line's first 200 characters. */
  text: string;
  reason: string;
}

export interface FileStoreOptions {
  /** Flush every save and append to the disk (default true): survives a power cut too. */
  fsync?: boolean;
  /** How long a save waits for another save of the same session (default 10000). */
  lockTimeoutMs?: number;
  /** A lock older than this is broken even if its owner seems alive (default 30000). */
  staleLockMs?: number;
  /** Told of each torn line once (default: a process warning, code HANDOFF_GRAPH_TORN_CHECKPOINT). */
  onTornLine?: (info: TornLine) => void;
}

/** The file name stem of a session id (safe on every file system, case-insensitive ones too). */
export function fileName(id: string): string;

export class FileStore implements SessionStore, RunStore {
  constructor(directory: string | URL, options?: FileStoreOptions);
  /** The directory, absolute. */
  readonly directory: string;
  /** The files of session `id`. */
  paths(id: string): { session: string; checkpoints: string; lock: string };
  /**
   * The stored session, or undefined. A file that is not a session of the documented format (not
   * JSON, not an object, another format, another id, a field of the wrong type) rejects with an
   * Error naming the file (`code` 'ERR_NOT_A_SESSION', `path`); so does a save over such a file.
   */
  get(id: string): Promise<Session | undefined>;
  /**
   * Saves if the stored version equals `session.version` (0 when none is stored), then sets
   * `session.version` to the new version; rejects with ConflictError otherwise.
   * `options.checkpoints` join the checkpoint log in the same atomic step: both or neither. The file is
   * replaced atomically (temporary file, fsync, rename).
   */
  save(session: Session, options?: SaveOptions): Promise<void>;
  /** Appends a checkpoint (any JSON value) as one line, in one O_APPEND write; never conflicts. */
  appendCheckpoint(id: string, checkpoint: unknown): Promise<void>;
  /** The checkpoints, oldest first; torn lines are skipped and reported to `onTornLine`. */
  listCheckpoints(id: string): Promise<unknown[]>;
  /** The checkpoint log as read, torn lines listed (and not reported). */
  readCheckpoints(id: string): Promise<{ checkpoints: unknown[]; torn: TornLine[] }>;
  /** Removes the session and its checkpoint log; true if there was anything to remove. */
  delete(id: string): Promise<boolean>;
  /** Removes temporary files and locks left by dead processes of this host; the names removed. */
  sweep(): Promise<string[]>;
  /**
   * Takes the lease of session `id` for `holder` for `ttlMs` milliseconds, or extends it when
   * `holder` has it already: true; false while another holder's lease lasts (handoff-graph/server).
   */
  acquireLease(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` still has it: true; false when it had expired or was another's. */
  releaseLease(id: string, holder: string): Promise<boolean>;
  /** The file of the durable run `id` (NAME.run.json). */
  runPath(id: string): string;
  /** The record of the durable run `id` (machine.run(state, { store, runId })), or undefined. */
  getRun(id: string): Promise<RunRecord | undefined>;
  /** Saves if the stored version equals `run.version` (0 when none is stored), then bumps it; else ConflictError. */
  saveRun(run: RunRecord): Promise<void>;
  /** Removes the run's record; true if there was one. */
  deleteRun(id: string): Promise<boolean>;
}
