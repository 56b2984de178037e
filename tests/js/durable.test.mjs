// Durable state-machine runs: machine.run(state, { store, runId }) checkpoints after every step,
// machine.resume(runId, { store }) continues from the last checkpoint. In one process with a
// MemoryStore (a failed step is retried, a finished run resumes to its result, unknown ids and
// taken ids are errors, two resumers cannot both advance a run), then across processes: a child
// process killed with SIGKILL in the middle of step 5, resumed by a second process, on a FileStore,
// on a real redis-server and on a real PostgreSQL server, ends with the result of an uninterrupted
// run. Also the smaller fixes around it: resume('not json') and the stores' shared refusal of non-session data.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ConflictError, init, StateMachine } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { MemoryStore } from 'handoff-graph/stores/memory';
import { PostgresStore } from 'handoff-graph/stores/postgres';
import { RedisStore } from 'handoff-graph/stores/redis';
import pg from 'pg';
import { createClient } from 'redis';

import { comparable, counter } from './durable-machine.js';
import { startPostgres } from './postgres-server.js';
import { startRedis } from './redis-server.js';

await init();

const CHILD = fileURLToPath(new URL('./durable-child.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function temporaryDirectory(t) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-durable-'));
  t.after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

const uninterrupted = comparable(await counter().run({}));

describe('durable runs in one process (MemoryStore)', () => {
  test('a durable run ends as a plain one; its record is checkpointed after every step', async () => {
    const store = new MemoryStore();
    const seen = [];
    const result = await counter().run({}, { store, runId: 'r1', onStep: () => seen.push(store.getRun('r1')) });
    assert.deepEqual(comparable(result), uninterrupted);
    assert.equal(uninterrupted.stepsRun, 10);
    // onStep hears of a step after its checkpoint: the record then holds that step.
    const records = await Promise.all(seen);
    assert.deepEqual(records.map((r) => r.stepsRun), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(records.map((r) => r.version), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'version 1 is the start');
    const record = await store.getRun('r1');
    assert.equal(record.format, 'handoff-graph/run');
    assert.equal(record.machine, 'counter');
    assert.equal(record.status, 'done');
    assert.equal(record.snapshot.format, 'handoff-graph/execution');
    // Resuming a finished run runs nothing and resolves its result.
    const again = await counter({ hangAt: 1 }).resume('r1', { store });
    assert.deepEqual(comparable(again), uninterrupted);
  });

  test('a step that failed is retried by resume(): the run ends as an uninterrupted one', async () => {
    const store = new MemoryStore();
    let calls = 0;
    // The counter's states, with a double that fails once, at step 4.
    const machine = new StateMachine({ name: 'counter', start: 'add', reducers: { log: 'append' } });
    machine.addState('add', ({ state, step }) => ({ n: (state.n ?? 0) + 1, log: [`add@${step}`] }));
    machine.addState('double', ({ state, step }) => {
      if (step === 4 && calls++ === 0) throw new Error('the model timed out');
      return { n: state.n * 2, log: [`double@${step}`] };
    });
    machine.addState('summary', ({ state }) => ({ summary: `n=${state.n}` }));
    machine.addEdge('add', 'double', 'n < 20');
    machine.addEdge('add', 'summary');
    machine.addEdge('double', 'add');
    machine.addEdge('summary', '__end__');
    await assert.rejects(machine.run({}, { store, runId: 'flaky' }), /the model timed out/);
    const record = await store.getRun('flaky');
    assert.equal(record.status, 'running');
    assert.equal(record.stepsRun, 3, 'the last checkpoint is the one after step 3');
    const result = await machine.resume('flaky', { store });
    assert.deepEqual(comparable(result), uninterrupted);
  });

  test('a run stopped by its signal stays at its last checkpoint and resumes from there', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const stopped = await counter().run({}, { store, runId: 'paused', signal: controller.signal, onStep: (record) => record.step === 3 && controller.abort() });
    assert.equal(stopped.reason, 'aborted');
    const record = await store.getRun('paused');
    assert.deepEqual([record.status, record.stepsRun], ['running', 3]);
    assert.deepEqual(comparable(await counter().resume('paused', { store })), uninterrupted);
  });

  test('errors: an unknown run id, a run id taken, another machine\'s run, options', async () => {
    const store = new MemoryStore();
    await assert.rejects(counter().resume('nope', { store }), { code: 'ERR_RUN_NOT_FOUND', message: "resume('nope', { store }): the store has no run 'nope' (started with machine.run(state, { store, runId }) on this store?)" });
    await counter().run({}, { store, runId: 'taken' });
    await assert.rejects(counter().run({}, { store, runId: 'taken' }), { code: 'ERR_RUN_EXISTS' });
    const other = new StateMachine({ name: 'other', start: 'a' });
    other.addState('a');
    other.addEdge('a', '__end__');
    await assert.rejects(other.resume('taken', { store }), { code: 'ERR_RUN_MACHINE', message: "resume('taken', { store }): run 'taken' is a run of machine 'counter', not of 'other'" });
    await assert.rejects(counter().run({}, { store }), /a durable run needs a runId/);
    await assert.rejects(counter().run({}, { runId: 'x' }), /needs a store to checkpoint into/);
    await assert.rejects(counter().run({}, { store: {}, runId: 'x' }), /store must be a store of runs \(getRun, saveRun\)/);
    await assert.rejects(counter().run({}, { store, runId: '' }), /runId must be a non-empty string/);
    await assert.rejects(counter().resume('taken', { store, runid: 'x' }), /resume options: unknown option 'runid'/);
    await assert.rejects(counter().resume(42, { store }), /runId must be a non-empty string/);
  });

  test('two processes resuming one run: the second one\'s checkpoint conflicts and it stops', async () => {
    const store = new MemoryStore();
    const slow = counter({ hangAt: 3 });
    // A run left at its checkpoint after step 2 (its process gone).
    const started = slow.run({}, { store, runId: 'shared' });
    while ((await store.getRun('shared'))?.stepsRun !== 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const first = counter().resume('shared', { store });
    const second = counter().resume('shared', { store });
    const settled = await Promise.allSettled([first, second]);
    const won = settled.filter((r) => r.status === 'fulfilled');
    const lost = settled.filter((r) => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.deepEqual(comparable(won[0].value), uninterrupted);
    assert.equal(lost.length, 1);
    assert.ok(lost[0].reason instanceof ConflictError, String(lost[0].reason));
    assert.match(lost[0].reason.message, /run 'shared' was checkpointed by another process/);
    void started;  // hangs forever at step 3, as a killed process would
  });
});

// Runs tests/js/durable-child.mjs; resolves { lines, code, signal, stderr }. `killAfter`: SIGKILL
// the child once it printed `step <killAfter>` (its handler of the next step never returns).
function child(args, { killAfter } = {}) {
  const proc = spawn(process.execPath, [CHILD, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (killAfter !== undefined && out.split('\n').includes(`step ${killAfter}`)) proc.kill('SIGKILL');
  });
  proc.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  return once(proc, 'exit').then(([code, signal]) => ({ lines: out.split('\n').filter(Boolean), code, signal, stderr: err }));
}

async function killedThenResumed(kind, location) {
  const runId = `run-${randomUUID()}`;
  const killed = await child(['run', kind, location, runId, '5'], { killAfter: 4 });
  assert.equal(killed.signal, 'SIGKILL', killed.stderr);
  assert.deepEqual(killed.lines, ['step 1', 'step 2', 'step 3', 'step 4']);
  const resumed = await child(['resume', kind, location, runId, '0']);
  assert.equal(resumed.code, 0, resumed.stderr);
  // Step 5 runs again (it never finished), then the rest.
  assert.deepEqual(resumed.lines.slice(0, -1), ['step 5', 'step 6', 'step 7', 'step 8', 'step 9', 'step 10']);
  const { result } = JSON.parse(resumed.lines.at(-1));
  assert.deepEqual(comparable(result), uninterrupted);
  return runId;
}

describe('a run killed mid-step, resumed by another process', () => {
  test('FileStore', async (t) => {
    const dir = await temporaryDirectory(t);
    const runId = await killedThenResumed('file', dir);
    const record = await new FileStore(dir).getRun(runId);
    assert.equal(record.status, 'done');
    assert.equal(record.version, 11, 'the start (1), 4 steps by the first process, 6 by the second');
  });

  describe('RedisStore (a real redis-server)', () => {
    let redis;
    let client;
    before(async () => {
      redis = await startRedis();
      client = createClient({ url: redis.url });
      await client.connect();
    });
    after(async () => {
      await client?.quit();
      await redis?.stop();
    });

    test('killed, resumed, the same result', async () => {
      const runId = await killedThenResumed('redis', redis.url);
      const store = new RedisStore(client);
      const record = await store.getRun(runId);
      assert.equal(record.status, 'done');
      assert.equal(await client.type(store.runKey(runId)), 'hash');
      assert.equal(await store.deleteRun(runId), true);
      assert.equal(await store.getRun(runId), undefined);
    });

    test('a key that does not hold a run or a session is an error naming it', async () => {
      const store = new RedisStore(client);
      await client.hSet(store.runKey('junk'), 'session', '{"format":"something else"}');
      await assert.rejects(store.getRun('junk'), { code: 'ERR_NOT_A_RUN', message: `Redis key ${store.runKey('junk')} is not a run (its format is "something else", not "handoff-graph/run"); it was changed outside the store` });
      await client.hSet(store.keys('junk').session, 'session', 'not json');
      await assert.rejects(store.get('junk'), (error) => error.code === 'ERR_NOT_A_SESSION' && error.message.startsWith(`Redis key ${store.keys('junk').session} is not a session (`));
      await assert.rejects(store.save({ id: 'junk2', version: 0, format: 'handoff-graph/session' }), { name: 'TypeError', message: "session 'junk2' is not a session of the documented format: its swarm is missing, not a string" });
    });
  });
});

describe('a run killed mid-step, resumed by another process: PostgresStore (a real PostgreSQL server)', () => {
  let server;
  let pool;
  before(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url });
    pool.on('error', () => {});
  });
  after(async () => {
    await pool?.end();
    await server?.stop();
  });

  test('killed, resumed, the same result; the record is a row of handoff_graph_runs', async () => {
    const runId = await killedThenResumed('postgres', server.url);
    const store = new PostgresStore({ pool });
    const record = await store.getRun(runId);
    assert.deepEqual([record.status, record.version], ['done', 11]);
    const { rows } = await pool.query('SELECT version, run::text AS json FROM handoff_graph_runs WHERE id = $1', [runId]);
    assert.deepEqual([rows[0].version, JSON.parse(rows[0].json)], ['11', record]);
    assert.equal(await store.deleteRun(runId), true);
    assert.equal(await store.getRun(runId), undefined);
  });
});

describe('the run stores', () => {
  test('MemoryStore and FileStore keep the same run contract (versions, conflicts, copies, refusals)', async (t) => {
    const dir = await temporaryDirectory(t);
    for (const store of [new MemoryStore(), new FileStore(dir, { fsync: false })]) {
      const name = store.constructor.name;
      assert.equal(await store.getRun('r'), undefined, name);
      const snapshot = (() => {
        const exec = counter().start({});
        try {
          return exec.snapshot();
        } finally {
          exec.dispose();
        }
      })();
      const run = { format: 'handoff-graph/run', id: 'r', version: 0, machine: 'counter', status: 'running', snapshot };
      await store.saveRun(run);
      assert.equal(run.version, 1, name);
      const read = await store.getRun('r');
      assert.deepEqual(read, run, name);
      read.machine = 'changed';
      assert.equal((await store.getRun('r')).machine, 'counter', `${name}: a copy`);
      await assert.rejects(store.saveRun({ ...run, version: 0 }), (e) => e instanceof ConflictError && e.actual === 1, name);
      for (const bad of [null, { ...run, id: '' }, { ...run, format: 'x' }, { ...run, status: 'paused' }, { ...run, snapshot: {} }, { ...run, version: -1 }]) {
        await assert.rejects(store.saveRun(bad), TypeError, `${name} ${JSON.stringify(bad)?.slice(0, 80)}`);
      }
      assert.equal(await store.deleteRun('r'), true, name);
      assert.equal(await store.deleteRun('r'), false, name);
      // Runs and sessions do not share ids' storage.
      assert.equal(await store.get('r'), undefined, name);
    }
    const file = new FileStore(dir).runPath('bad');
    await writeFile(file, '{"format":');
    await assert.rejects(new FileStore(dir).getRun('bad'), { code: 'ERR_NOT_A_RUN' });
  });

  test('MemoryStore refuses what FileStore and RedisStore refuse: data that is not a session', async () => {
    await assert.rejects(new MemoryStore().save({ id: 'x', version: 0, format: 'handoff-graph/session' }), {
      name: 'TypeError',
      message: "session 'x' is not a session of the documented format: its swarm is missing, not a string",
    });
    await assert.rejects(new MemoryStore().save({ id: 'x', version: 0, anything: true }), /its format is missing, not "handoff-graph\/session"/);
  });
});

describe('resume(snapshot) text', () => {
  test("resume('not json') is a TypeError that says what was wrong, with the parser's reason as its cause", () => {
    const machine = counter();
    assert.throws(() => machine.resume('not json'), (error) => {
      assert.equal(error.name, 'TypeError');
      assert.match(error.message, /^resume\(\) takes a snapshot from exec\.snapshot\(\) \(an object or its JSON text\), got text that is not JSON \(.+\); to continue a durable run by its id, pass the store: resume\(runId, \{ store \}\)$/);
      assert.ok(error.cause instanceof SyntaxError);
      return true;
    });
    assert.throws(() => machine.resume('{"format":"x"}'), /resume\(\) takes a snapshot from exec\.snapshot\(\)/);
  });
});
