// The optimistic-versioning error every session store rejects a stale save with.

/** A save whose `session.version` is not the stored version: another writer saved first. */
export class ConflictError extends Error {
  constructor(message: string, details: { id: string; expected: number; actual: number });
  readonly name: 'ConflictError';
  readonly code: 'ERR_SESSION_CONFLICT';
  /** The session id. */
  readonly id: string;
  /** The version the writer had (`session.version`). */
  readonly expected: number;
  /** The version in the store (0: none stored). */
  readonly actual: number;
}
