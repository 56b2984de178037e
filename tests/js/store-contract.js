// The contract every store keeps, one suite for all of them: MemoryStore, FileStore and
// RedisStore (tests/js/stores.test.mjs) and PostgresStore (tests/js/stores-postgres.test.mjs) run it.
// `open(t)` returns two stores over the same backend, two workers: one MemoryStore twice, two
// FileStores on one directory, two Redis connections, two pg Pools.
//   * sessions and checkpoints (the SessionStore interface: optimistic versioning, ConflictError,
//     copies in and out, the checkpoint log in order, concurrent writers);
//   * what handoff-graph/server adds: turn leases and save(session, { checkpoints });
//   * durable state-machine runs (getRun, saveRun, deleteRun; machine.run / resume).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { Swarm } from 'handoff-graph';
import { ConflictError } from 'handoff-graph/stores/memory';

import { comparable, counter } from './durable-machine.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function swarm() {
  return new Swarm({
    name: 'support',
    agents: [
      { id: 'triage', name: 'Triage', instructions: 'You triage.', entry: true },
      { id: 'human', name: 'Human operator' },
    ],
    edges: [{ from: 'triage', to: 'human', description: 'The user needs a human' }],
  });
}

/** Runs the contract against the stores `open(t)` returns (call `init()` first). */
export function storeContract(name, open) {
  describe(`${name}: the store contract`, () => {
    describe('sessions and checkpoints (SessionStore)', () => {
      test('an unknown session: get() is undefined, listCheckpoints() is []', async (t) => {
        const [store] = await open(t);
        assert.equal(await store.get(randomUUID()), undefined);
        assert.deepEqual(await store.listCheckpoints(randomUUID()), []);
      });

      test('save() of a new session (version 0) stores version 1; get() returns a deep copy', async (t) => {
        const [store, other] = await open(t);
        const s = swarm();
        const session = s.createSession({ variables: { ticket: { id: 'T-1', tags: ['a'] } } });
        assert.equal(session.version, 0);
        assert.equal(await store.save(session), undefined);
        assert.equal(session.version, 1);
        const loaded = await other.get(session.id);
        assert.deepEqual(loaded, session);
        assert.notEqual(loaded, session);
        // Nothing shared in either direction.
        session.variables.ticket.tags.push('changed after save');
        loaded.variables.ticket.tags.push('changed after get');
        assert.deepEqual((await store.get(session.id)).variables.ticket.tags, ['a']);
        // The loaded copy is a session the swarm takes up where it was.
        assert.deepEqual(s.offered(loaded), [{ name: 'transfer_to_human', to: 'human' }]);
        await other.save(loaded);
        assert.equal(loaded.version, 2);
        assert.equal((await store.get(session.id)).version, 2);
      });

      test('a stale save rejects with ConflictError and changes nothing', async (t) => {
        const [store, other] = await open(t);
        const session = swarm().createSession();
        await store.save(session);
        const stale = await other.get(session.id);
        session.variables.winner = 'first';
        await store.save(session);
        stale.variables.winner = 'second';
        const error = await store.save(stale).then(() => assert.fail('a stale save succeeded'), (e) => e);
        assert.ok(error instanceof ConflictError, `${error}`);
        assert.equal(error.name, 'ConflictError');
        assert.equal(error.code, 'ERR_SESSION_CONFLICT');
        assert.deepEqual([error.id, error.expected, error.actual], [session.id, 1, 2]);
        assert.match(error.message, /saved by another writer.*version 2 in the store.*version 1/);
        assert.equal(stale.version, 1, 'a rejected save leaves session.version alone');
        const stored = await other.get(session.id);
        assert.deepEqual([stored.version, stored.variables.winner], [2, 'first']);
        // A session the store has never seen is at version 0: any other version conflicts.
        const ghost = { ...swarm().createSession(), version: 3 };
        await assert.rejects(other.save(ghost), (e) => e instanceof ConflictError && e.expected === 3 && e.actual === 0);
        assert.equal(await store.get(ghost.id), undefined);
      });

      test('checkpoints: any JSON value, kept in order, copies out', async (t) => {
        const [store, other] = await open(t);
        const id = randomUUID();
        const values = [{ turn: 1, outcome: { type: 'handoff', to: 'human' } }, 'text', 42, null, [1, { deep: ['x'] }], 'line\nbreak "quoted" \u2028 é'];
        for (const value of values) await store.appendCheckpoint(id, value);
        const listed = await other.listCheckpoints(id);
        assert.deepEqual(listed, values);
        listed[0].turn = 99;
        assert.equal((await store.listCheckpoints(id))[0].turn, 1);
        assert.equal(await store.get(id), undefined, 'checkpoints do not make a session');
      });

      test('what cannot be stored is a TypeError, before anything is written', async (t) => {
        const [store] = await open(t);
        const session = swarm().createSession();
        for (const bad of [null, 'session', [], { ...session, id: '' }, { ...session, id: 7 }, { ...session, version: -1 }, { ...session, version: 1.5 }, { ...session, version: '0' }]) {
          await assert.rejects(store.save(bad), TypeError, JSON.stringify(bad)?.slice(0, 60));
        }
        await assert.rejects(store.save({ ...session, variables: { n: 10n } }), /is not JSON/);
        await assert.rejects(store.get(''), TypeError);
        await assert.rejects(store.appendCheckpoint(session.id, undefined), TypeError);
        await assert.rejects(store.appendCheckpoint(session.id, () => 1), TypeError);
        assert.equal(await store.get(session.id), undefined);
        assert.deepEqual(await store.listCheckpoints(session.id), []);
      });

      test('two writers of one session: one wins, the other gets ConflictError, no checkpoint is lost', async (t) => {
        const [a, b] = await open(t);
        const s = swarm();
        const base = s.createSession();
        await a.save(base);
        // Both read version 1 before either writes (whatever the speed of each worker's first call).
        let read = 0;
        let bothRead;
        const reads = new Promise((resolve) => (bothRead = resolve));
        const writer = async (store, name) => {
          const session = await store.get(base.id);
          if (++read === 2) bothRead();
          await reads;
          for (let i = 1; i <= 3; i++) {
            session.variables[name] = i;
            await store.appendCheckpoint(base.id, { writer: name, i });
          }
          await store.save(session);
          return session;
        };
        const results = await Promise.allSettled([writer(a, 'A'), writer(b, 'B')]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        assert.equal(won.length, 1, 'exactly one writer wins');
        assert.equal(lost.length, 1);
        assert.ok(lost[0].reason instanceof ConflictError, `${lost[0].reason}`);
        assert.deepEqual([lost[0].reason.expected, lost[0].reason.actual], [1, 2]);
        const winner = won[0].value.variables.A === 3 ? 'A' : 'B';
        const loser = winner === 'A' ? 'B' : 'A';
        let stored = await b.get(base.id);
        assert.deepEqual([stored.version, stored.variables[winner], stored.variables[loser]], [2, 3, undefined]);
        // The loser reloads, reapplies and saves.
        const retry = await (loser === 'A' ? a : b).get(base.id);
        retry.variables[loser] = 3;
        await (loser === 'A' ? a : b).save(retry);
        stored = await a.get(base.id);
        assert.deepEqual([stored.version, stored.variables.A, stored.variables.B], [3, 3, 3]);
        const checkpoints = await a.listCheckpoints(base.id);
        assert.equal(checkpoints.length, 6);
        for (const name of ['A', 'B']) {
          assert.deepEqual(checkpoints.filter((c) => c.writer === name).map((c) => c.i), [1, 2, 3], `writer ${name}'s checkpoints, in order`);
        }
      });

      test('four writers retrying on conflict: no update and no checkpoint is lost', async (t) => {
        const [a, b] = await open(t);
        const base = swarm().createSession({ variables: { count: 0 } });
        await a.save(base);
        const WRITERS = 4;
        const EACH = 10;
        let conflicts = 0;
        const writer = async (store, name) => {
          for (let done = 0; done < EACH; ) {
            const session = await store.get(base.id);
            session.variables.count += 1;
            session.variables[name] = (session.variables[name] ?? 0) + 1;
            try {
              await store.save(session);
            } catch (error) {
              if (!(error instanceof ConflictError)) throw error;
              conflicts++;
              continue;
            }
            done++;
            await store.appendCheckpoint(base.id, { writer: name, done });
          }
        };
        const started = performance.now();
        await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i % 2 === 0 ? a : b, `w${i}`)));
        const stored = await b.get(base.id);
        assert.equal(stored.variables.count, WRITERS * EACH, 'every successful save built on the one before');
        assert.equal(stored.version, 1 + WRITERS * EACH);
        for (let i = 0; i < WRITERS; i++) assert.equal(stored.variables[`w${i}`], EACH);
        const checkpoints = await a.listCheckpoints(base.id);
        assert.equal(checkpoints.length, WRITERS * EACH);
        for (let i = 0; i < WRITERS; i++) {
          assert.deepEqual(checkpoints.filter((c) => c.writer === `w${i}`).map((c) => c.done), Array.from({ length: EACH }, (_, k) => k + 1));
        }
        assert.ok(conflicts > 0, 'the writers did interleave');
        t.diagnostic(`${WRITERS * EACH} saves, ${conflicts} conflicts retried, ${(performance.now() - started).toFixed(0)} ms`);
      });

      test("runTurn({ store }) saves the session; the stored copy goes on in another worker", async (t) => {
        const [store, other] = await open(t);
        const s = swarm();
        const session = s.createSession();
        const model = ({ agent }) => (agent.id === 'triage' ? { toolCalls: [{ id: 'c1', name: 'transfer_to_human', arguments: {} }] } : { text: 'A human here.' });
        for await (const event of s.runTurn(session, 'a person please', { model, store })) void event;
        assert.equal(session.version, 1);
        const loaded = await other.get(session.id);
        assert.deepEqual(loaded, session);
        assert.equal(loaded.active, 'human');
        // runTurn hands the turn's checkpoints to the store's log.
        assert.deepEqual((await other.listCheckpoints(session.id)).map((c) => [c.turn, c.outcome?.type, c.outcome?.to]), [[1, 'handoff', 'human']]);
        for await (const event of s.runTurn(loaded, 'thanks', { model, store: other })) void event;
        assert.deepEqual([loaded.version, loaded.turn], [2, 2]);
        // The first worker's copy is now stale.
        await assert.rejects(async () => {
          for await (const event of s.runTurn(session, 'hello?', { model, store })) void event;
        }, ConflictError);
      });

      test('delete() removes the session and its checkpoints', async (t) => {
        const [store, other] = await open(t);
        const session = swarm().createSession();
        await store.save(session);
        await store.appendCheckpoint(session.id, { n: 1 });
        assert.equal(await other.delete(session.id), true);
        assert.equal(await store.get(session.id), undefined);
        assert.deepEqual(await store.listCheckpoints(session.id), []);
        assert.equal(await other.delete(session.id), false);
        // Deleted, a session starts again at version 0.
        session.version = 0;
        await store.save(session);
        assert.equal(session.version, 1);
      });
    });

    describe('turn leases and save(session, { checkpoints }) (handoff-graph/server)', () => {
      test('one holder at a time; the holder extends it; release by the holder only', async (t) => {
        const [a, b] = await open(t);
        const id = randomUUID();
        assert.equal(await a.acquireLease(id, 'h1', 10_000), true);
        assert.equal(await b.acquireLease(id, 'h2', 10_000), false, 'another holder waits');
        assert.equal(await b.acquireLease(id, 'h1', 10_000), true, 'the holder extends its lease, from any worker');
        assert.equal(await b.releaseLease(id, 'h2'), false, 'a non-holder cannot release it');
        assert.equal(await a.acquireLease(id, 'h2', 10_000), false);
        assert.equal(await b.releaseLease(id, 'h1'), true);
        assert.equal(await a.releaseLease(id, 'h1'), false, 'released once');
        assert.equal(await a.acquireLease(id, 'h2', 10_000), true, 'free again');
        assert.equal(await a.acquireLease(randomUUID(), 'h1', 10_000), true, 'leases are per session');
      });

      test('a lease ends by itself after ttlMs; renewing keeps it', async (t) => {
        const [a, b] = await open(t);
        const id = randomUUID();
        assert.equal(await a.acquireLease(id, 'h1', 300), true);
        assert.equal(await b.acquireLease(id, 'h2', 300), false);
        let taken = false;
        for (let i = 0; i < 200 && !taken; i++) {
          await sleep(25);
          taken = await b.acquireLease(id, 'h2', 10_000);
        }
        assert.ok(taken, 'the expired lease was taken');
        assert.equal(await a.releaseLease(id, 'h1'), false, 'the old holder no longer has it');
        assert.equal(await a.acquireLease(id, 'h1', 300), false);
        // Renewed before it runs out, a lease lasts as long as its holder wants (here 8 renewals of
        // a 2 s lease, 100 ms apart: past its first expiry only if this machine stalls for 2 s).
        const other = randomUUID();
        assert.equal(await a.acquireLease(other, 'h1', 2000), true);
        const started = performance.now();
        for (let i = 0; i < 8 || performance.now() - started < 2500; i++) {
          await sleep(100);
          assert.equal(await a.acquireLease(other, 'h1', 2000), true);
          assert.equal(await b.acquireLease(other, 'h2', 2000), false);
        }
      });

      test('concurrent acquires of a free lease: exactly one wins', async (t) => {
        const [a, b] = await open(t);
        const id = randomUUID();
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).acquireLease(id, `h${i}`, 10_000)));
        assert.equal(results.filter(Boolean).length, 1, results.join());
      });

      test('bad lease arguments are TypeErrors', async (t) => {
        const [a] = await open(t);
        await assert.rejects(a.acquireLease('', 'h', 100), TypeError);
        await assert.rejects(a.acquireLease('id', '', 100), /lease holder/);
        await assert.rejects(a.acquireLease('id', 'h'.repeat(201), 100), /lease holder/);
        for (const ttl of [undefined, 0, -5, NaN, Infinity, '100', 2 ** 31]) await assert.rejects(a.acquireLease('id', 'h', ttl), /ttlMs/, String(ttl));
        await assert.rejects(a.releaseLease('id', 7), /lease holder/);
      });

      test('save(session, { checkpoints }): the checkpoints join the log with the session, in order', async (t) => {
        const [a, b] = await open(t);
        const session = swarm().createSession();
        await a.save(session, { checkpoints: [{ n: 1 }, 'two'] });
        assert.equal(session.version, 1);
        await b.save(session, { checkpoints: [] });
        await a.save(session, { checkpoints: [{ n: 3 }] });
        await b.save(session);
        assert.equal(session.version, 4);
        assert.deepEqual(await b.listCheckpoints(session.id), [{ n: 1 }, 'two', { n: 3 }]);
      });

      test('a save that conflicts appends none of its checkpoints', async (t) => {
        const [a, b] = await open(t);
        const session = swarm().createSession();
        await a.save(session, { checkpoints: [{ n: 1 }] });
        const stale = await b.get(session.id);
        await a.save(session, { checkpoints: [{ n: 2 }] });
        await assert.rejects(b.save(stale, { checkpoints: [{ n: 'lost race' }] }), (e) => e.code === 'ERR_SESSION_CONFLICT');
        assert.deepEqual(await a.listCheckpoints(session.id), [{ n: 1 }, { n: 2 }]);
        // Racing saves of one version: one wins, with its checkpoints only.
        const copies = await Promise.all([a.get(session.id), b.get(session.id), a.get(session.id), b.get(session.id)]);
        const results = await Promise.allSettled(copies.map((c, i) => (i % 2 ? a : b).save(c, { checkpoints: [{ racer: i }, { racer: i, second: true }] })));
        const winners = results.map((r, i) => (r.status === 'fulfilled' ? i : -1)).filter((i) => i >= 0);
        assert.equal(winners.length, 1);
        assert.deepEqual((await a.listCheckpoints(session.id)).slice(2), [{ racer: winners[0] }, { racer: winners[0], second: true }]);
      });

      test('save options are checked before anything is written', async (t) => {
        const [a] = await open(t);
        const session = swarm().createSession();
        await assert.rejects(a.save(session, { checkpoint: [] }), /save\(\) options: unknown option 'checkpoint' \(did you mean 'checkpoints'\?\)/);
        await assert.rejects(a.save(session, { checkpoints: {} }), /checkpoints must be an array/);
        await assert.rejects(a.save(session, { checkpoints: [1n] }), /not JSON/);
        await assert.rejects(a.save(session, 'fast'), /must be an object/);
        assert.equal(session.version, 0);
        assert.equal(await a.get(session.id), undefined);
        assert.deepEqual(await a.listCheckpoints(session.id), []);
      });
    });

  describe('durable runs (RunStore)', () => {
    const snapshot = () => {
      const exec = counter().start({});
      try {
        return exec.snapshot();
      } finally {
        exec.dispose();
      }
    };

    test('saveRun: versions, conflicts, copies; deleteRun; runs and sessions apart', async (t) => {
      const [store, other] = await open(t);
      const id = `run-${randomUUID()}`;
      assert.equal(await store.getRun(id), undefined);
      const run = { format: 'handoff-graph/run', id, version: 0, machine: 'counter', status: 'running', stepsRun: 0, snapshot: snapshot() };
      await store.saveRun(run);
      assert.equal(run.version, 1);
      const read = await other.getRun(id);
      assert.deepEqual(read, run);
      read.machine = 'changed';
      assert.equal((await store.getRun(id)).machine, 'counter', 'a copy');
      await assert.rejects(other.saveRun({ ...run, version: 0 }), (e) => e instanceof ConflictError && e.code === 'ERR_SESSION_CONFLICT' && e.expected === 0 && e.actual === 1 && /run '.*' was checkpointed by another process/.test(e.message));
      await other.saveRun({ ...run, status: 'done' });
      await assert.rejects(store.saveRun(run), (e) => e instanceof ConflictError && e.expected === 1 && e.actual === 2);
      assert.equal((await store.getRun(id)).status, 'done');
      // Racing saves of one version: exactly one wins.
      const copies = await Promise.all([store.getRun(id), other.getRun(id), store.getRun(id), other.getRun(id)]);
      const results = await Promise.allSettled(copies.map((c, i) => (i % 2 ? store : other).saveRun({ ...c, stepsRun: i })));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      assert.equal((await store.getRun(id)).version, 3);
      // Runs and sessions do not share ids' storage.
      assert.equal(await store.get(id), undefined);
      assert.equal(await other.deleteRun(id), true);
      assert.equal(await store.deleteRun(id), false);
      assert.equal(await store.getRun(id), undefined);
    });

    test('what is not a run record is a TypeError, before anything is written', async (t) => {
      const [store] = await open(t);
      const run = { format: 'handoff-graph/run', id: `run-${randomUUID()}`, version: 0, machine: 'counter', status: 'running', snapshot: snapshot() };
      for (const bad of [null, { ...run, id: '' }, { ...run, format: 'x' }, { ...run, status: 'paused' }, { ...run, snapshot: {} }, { ...run, version: -1 }, { ...run, version: 0.5 }]) {
        await assert.rejects(store.saveRun(bad), TypeError, JSON.stringify(bad)?.slice(0, 80));
      }
      await assert.rejects(store.getRun(''), TypeError);
      assert.equal(await store.getRun(run.id), undefined);
    });

    test('machine.run(state, { store, runId }) checkpoints every step; resume on the other store goes on', async (t) => {
      const [store, other] = await open(t);
      const uninterrupted = comparable(await counter().run({}));
      const runId = `run-${randomUUID()}`;
      // A run that stops at step 4 (its handler never returns: a process that died there).
      const hanging = counter({ hangAt: 5 });
      const steps = [];
      void hanging.run({}, { store, runId, onStep: (record) => steps.push(record.step) });
      // onStep comes after the step's checkpoint: once step 4 is reported, it is in the store.
      while (steps.length < 4) await sleep(2);
      assert.deepEqual(steps, [1, 2, 3, 4]);
      assert.equal((await other.getRun(runId)).stepsRun, 4);
      const result = await counter().resume(runId, { store: other });
      assert.deepEqual(comparable(result), uninterrupted);
      const record = await store.getRun(runId);
      assert.deepEqual([record.status, record.stepsRun, record.version], ['done', 10, 11]);
    });
  });
  });
}
