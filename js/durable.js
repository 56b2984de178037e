// @ts-check
// Durable state-machine runs (docs/state-machine.md, "Durable runs"): `machine.run(state, { store,
// runId })` keeps the run's record in a store (MemoryStore, FileStore, RedisStore, PostgresStore:
// getRun, saveRun) and replaces it after every step with the execution's snapshot;
// `machine.resume(runId, { store })` reads it back, on any process, and continues from there. A
// step is the unit: a process killed during step N+1 resumes from the checkpoint after step N and
// runs step N+1 again, so a handler runs at least once per step (make side effects idempotent, or
// key them by run id and step).
//
// The record is plain JSON with a version, saved like a session (optimistic: the store keeps it
// only if its version is the one read), so two processes that resume the same run cannot both
// advance it: the second one's first checkpoint rejects with ConflictError and it stops.
import { describe } from './text.js';

/** @import { ExecutionSnapshot, RunRecord, RunStore } from './index.js' */

/**
 * What a checkpoint reads of an execution (js/machine.js's Execution).
 * @typedef {{ snapshot(): ExecutionSnapshot, done: boolean, stepsRun: number }} CheckpointedExecution
 */

export const RUN_FORMAT = /** @type {const} */ ('handoff-graph/run');

/**
 * Checks `store` and `runId` of run() or resume(runId, { store }): null when neither is given
 * (not durable), else { store, runId }.
 * @param {unknown} store
 * @param {unknown} runId
 * @param {string} where
 * @returns {{ store: RunStore, runId: string } | null}
 */
export function checkDurable(store, runId, where, usage = 'run(state, { store, runId })') {
  if (store === undefined && runId === undefined) return null;
  if (store === undefined) throw new TypeError(`${where}: ${usage} needs a store to checkpoint into (a MemoryStore, FileStore, RedisStore or PostgresStore)`);
  if (typeof (/** @type {any} a caller's value, checked here */ (store))?.getRun !== 'function' || typeof (/** @type {any} */ (store))?.saveRun !== 'function') {
    throw new TypeError(`${where}.store must be a store of runs (getRun, saveRun): a MemoryStore, FileStore, RedisStore or PostgresStore, got ${describe(store)}`);
  }
  if (runId === undefined) throw new TypeError(`${where}: a durable run needs a runId, the id it is checkpointed and resumed under`);
  if (typeof runId !== 'string' || runId.length === 0) throw new TypeError(`${where}: runId must be a non-empty string, got ${describe(runId)}`);
  return { store: /** @type {RunStore} */ (store), runId };
}

/** The record of a durable run in its store, replaced after every step. */
export class RunCheckpoints {
  /** @type {RunStore} */
  #store;
  /** @type {RunRecord & { input?: unknown }} */
  #record;

  /**
   * @param {RunStore} store
   * @param {RunRecord & { input?: unknown }} record
   */
  constructor(store, record) {
    this.#store = store;
    this.#record = record;
  }

  /** @returns {string} */
  get runId() {
    return this.#record.id;
  }

  /**
   * The snapshot of the last checkpoint (for machine.resume).
   * @returns {ExecutionSnapshot}
   */
  get snapshot() {
    return this.#record.snapshot;
  }

  /**
   * Claims `runId` in the store with the execution's first snapshot; a run already there is an error.
   * @param {{ store: RunStore, runId: string }} durable
   * @param {string} machine
   * @param {CheckpointedExecution} execution
   * @returns {Promise<RunCheckpoints>}
   */
  static async begin({ store, runId }, machine, execution) {
    // `input`: the state the run started from, which a replay starts from (docs/replay.md).
    const snapshot = execution.snapshot();
    /** @type {RunRecord & { input: unknown }} */
    const record = { format: RUN_FORMAT, id: runId, version: 0, machine, status: 'running', stepsRun: 0, input: snapshot.state, snapshot, updatedAt: new Date().toISOString() };
    try {
      await store.saveRun(record);
    } catch (error) {
      if (/** @type {{ code?: unknown } | undefined} */ (error)?.code !== 'ERR_SESSION_CONFLICT') throw error;
      throw Object.assign(new Error(`run '${runId}' is in the store already: continue it with machine.resume('${runId}', { store }), or start this run under another runId`, { cause: error }), { code: 'ERR_RUN_EXISTS', runId });
    }
    return new RunCheckpoints(store, record);
  }

  /**
   * The run `runId` of machine `machine`, as its last checkpoint left it; an unknown id is an error.
   * @param {{ store: RunStore, runId: string }} durable
   * @param {string} machine
   * @returns {Promise<RunCheckpoints>}
   */
  static async load({ store, runId }, machine) {
    const record = await store.getRun(runId);
    if (record === undefined) {
      throw Object.assign(new Error(`resume('${runId}', { store }): the store has no run '${runId}' (started with machine.run(state, { store, runId }) on this store?)`), { code: 'ERR_RUN_NOT_FOUND', runId });
    }
    if (record.machine !== machine) {
      throw Object.assign(new Error(`resume('${runId}', { store }): run '${runId}' is a run of machine '${record.machine}', not of '${machine}'`), { code: 'ERR_RUN_MACHINE', runId });
    }
    return new RunCheckpoints(store, record);
  }

  /**
   * Replaces the record with the execution's snapshot now (between steps).
   * @param {CheckpointedExecution} execution
   * @returns {Promise<void>}
   */
  async save(execution) {
    /** @type {RunRecord & { input?: unknown }} */
    const record = {
      ...this.#record,
      status: execution.done ? 'done' : 'running',
      stepsRun: execution.stepsRun,
      snapshot: execution.snapshot(),
      updatedAt: new Date().toISOString(),
    };
    await this.#store.saveRun(record);
    this.#record = record;
  }
}
