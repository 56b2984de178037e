// @ts-check
// What every session store shares: the optimistic-versioning rule and its error (public: every store
// module and the main entry export it). The checks the stores share are internal and live in ./checks.js.
//
// A session is plain JSON with a numeric `version`. `save(session)` succeeds only when the stored
// version equals `session.version` (a session that was never saved counts as version 0); the store
// then keeps version + 1 and sets `session.version` to it. Otherwise it rejects with ConflictError
// and changes nothing: reload with `get(id)`, reapply, save again.

/** A save whose `session.version` is not the stored version: another writer saved first. */
export class ConflictError extends Error {
  /** @readonly @type {'ConflictError'} */
  name = 'ConflictError';

  /**
   * @param {string} message
   * @param {{ id: string, expected: number, actual: number }} details
   */
  constructor(message, { id, expected, actual }) {
    super(message);
    /** @readonly @type {'ERR_SESSION_CONFLICT'} */
    this.code = 'ERR_SESSION_CONFLICT';
    /** The session id. @readonly */
    this.id = id;
    /** The version the writer had (`session.version`). @readonly */
    this.expected = expected;
    /** The version in the store (0: none stored). @readonly */
    this.actual = actual;
  }
}
