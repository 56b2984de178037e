// Scale-out on a shared store, for real: `handoff-graph serve` processes sharing one database (a
// redis-server from Debian, tests/js/server/scale.test.mjs; a PostgreSQL server from Debian,
// scale-postgres.test.mjs). A session created on one process continues on another; a turn running
// on one blocks a turn of the same session on another (409); a process killed with SIGKILL
// mid-turn leaves the session and its checkpoints as they were, and the turn can be retried once
// the dead process's lease has expired; 100 sessions × 5 turns, each turn also sent at the same
// moment to the other process, lose and duplicate no checkpoint.
//
// `backend.start()` starts the database: { url (the --store value), leaseHeld(id): whether
// session id's lease is live, leases(): how many leases are left, stop() }.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { MODEL_FILE, SWARM_FILE, readEvents, request, sleep, startCli, turn } from './harness.js';

const LEASE_MS = 1000;

export function scaleSuite(name, backend) {
  describe(`two server processes sharing one ${name}`, () => {
    let database;
    let a;
    let b;
    const processes = [];
    const launch = async () => {
      const server = await startCli(['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0', '--store', database.url, '--turn-lease-ms', String(LEASE_MS)]);
      processes.push(server);
      assert.ok(server.url, `a server did not start:\n${server.output().stderr}`);
      return server;
    };

    before(async () => {
      database = await backend.start();
      // At the same moment: both make PostgreSQL's tables at start-up (one waits for the other).
      [a, b] = await Promise.all([launch(), launch()]);
    });

    after(async () => {
      await Promise.all(processes.map((p) => p.stop('SIGKILL')));
      await database?.stop();
    });

    test('a session created on one process continues on the other', async () => {
      const created = await request(a.url, 'POST', 'sessions', { variables: { plan: 'gold' } });
      assert.equal(created.status, 201);
      const { id } = created.body;
      const seen = [];
      for (const [server, input] of [[b, 'one'], [a, 'two'], [b, 'three']]) {
        const result = await turn(server.url, id, input);
        assert.equal(result.events.at(-1).event, 'done', JSON.stringify(result.events.at(-1)));
        seen.push(result.events.at(-1).data.session);
      }
      assert.deepEqual(seen.map((s) => [s.version, s.turn, s.active]), [[2, 1, 'billing'], [3, 2, 'triage'], [4, 3, 'billing']]);
      const fromA = await request(a.url, 'GET', `sessions/${id}`);
      const fromB = await request(b.url, 'GET', `sessions/${id}`);
      assert.deepEqual(fromA.body, fromB.body);
      assert.deepEqual(fromA.body.variables, { plan: 'gold' });
      const log = (await request(b.url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
      assert.deepEqual(log.map((c) => [c.turn, c.outcome.from, c.outcome.to]), [[1, 'triage', 'billing'], [2, 'billing', 'triage'], [3, 'triage', 'billing']]);
    });

    test('a turn running on one process: the same session on the other gets 409', async () => {
      const { id } = (await request(a.url, 'POST', 'sessions', {})).body;
      // 'hang' holds the turn on `a` (its second model call never answers) until its client leaves.
      const leaving = new AbortController();
      const response = await fetch(new URL(`sessions/${id}/turns`, a.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hang on"}', signal: leaving.signal });
      const running = readEvents(response, async ({ event }) => {
        if (event !== 'tool_result') return;
        const blocked = await turn(b.url, id, 'second');
        assert.equal(blocked.status, 409);
        assert.deepEqual(blocked.body.error.code, 'turn_in_progress');
        leaving.abort();
      });
      assert.deepEqual((await running).events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result']);
      // The client left: `a` gave the lease back; the session is as it was, and `b` runs the next turn.
      let result;
      for (let i = 0; i < 200; i++) {
        result = await turn(b.url, id, 'third');
        if (result.status !== 409) break;
        await sleep(20);
      }
      assert.equal(result.events.at(-1).data.session.version, 2);
    });

    test('SIGKILL of a process mid-turn: the last checkpoint stays, and the turn can be retried elsewhere', async (t) => {
      const doomed = await launch();
      const { id } = (await request(doomed.url, 'POST', 'sessions', {})).body;
      assert.equal((await turn(doomed.url, id, 'first')).events.at(-1).event, 'done');
      const before = (await request(b.url, 'GET', `sessions/${id}`)).body;
      const logBefore = (await request(b.url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
      assert.equal(logBefore.length, 1);
      // The second turn hands off (a checkpoint, in the dying process's memory), then waits on the
      // model: killed there.
      const response = await fetch(new URL(`sessions/${id}/turns`, doomed.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"hang up"}' });
      const { events, error } = await readEvents(response, async ({ event }) => {
        if (event === 'tool_result') {
          assert.equal(await database.leaseHeld(id), true, 'the dying turn holds the lease');
          doomed.proc.kill('SIGKILL');
        }
      });
      assert.deepEqual(events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result']);
      assert.ok(error !== null, 'the stream broke off');
      assert.equal((await doomed.exited).signal, 'SIGKILL');
      assert.deepEqual((await request(b.url, 'GET', `sessions/${id}`)).body, before, 'the session is as the last turn left it');
      assert.deepEqual((await request(a.url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints, logBefore, 'no checkpoint of the killed turn');
      // Retried on another process: 409 while the dead process's lease lasts, then it runs.
      const started = performance.now();
      let retried;
      let refused = 0;
      for (;;) {
        retried = await turn(a.url, id, 'once more: hang up');
        if (retried.status !== 409) break;
        refused++;
        assert.ok(performance.now() - started < 20 * LEASE_MS, 'the lease never expired');
        await sleep(50);
      }
      t.diagnostic(`${name}: retry refused ${refused} times (409) for ${(performance.now() - started).toFixed(0)} ms until the killed process's ${LEASE_MS} ms lease expired`);
      assert.ok(refused > 0, 'the killed turn still held the lease');
      assert.equal(retried.status, 200);
      const done = retried.events.at(-1);
      assert.equal(done.event, 'done', JSON.stringify(done));
      assert.deepEqual([done.data.session.version, done.data.session.turn], [before.version + 1, before.turn + 1]);
      const log = (await request(b.url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
      assert.deepEqual(log.map((c) => [c.turn, c.outcome.from, c.outcome.to]), [[1, 'triage', 'billing'], [2, 'billing', 'triage']]);
    });

    test('100 concurrent sessions × 5 turns, each turn raced by a copy on the other process: no checkpoint lost or duplicated', async (t) => {
      const SESSIONS = 100;
      const ROUNDS = 5;
      const servers = [a, b];
      const started = performance.now();
      const ids = await Promise.all(Array.from({ length: SESSIONS }, async (_, i) => {
        const created = await request(servers[i % 2].url, 'POST', 'sessions', { variables: { n: i } });
        assert.equal(created.status, 201);
        return created.body.id;
      }));
      const outcomes = await Promise.all(ids.map(async (id, i) => {
        const statuses = [];
        const versions = [];
        for (let round = 0; round < ROUNDS; round++) {
          const primary = servers[(i + round) % 2];
          const copy = servers[(i + round + 1) % 2];
          const results = await Promise.all([turn(primary.url, id, `session ${i} round ${round}`), turn(copy.url, id, `session ${i} round ${round} (copy)`)]);
          for (const result of results) {
            statuses.push(result.status);
            if (result.status === 200) {
              const last = result.events.at(-1);
              assert.equal(last.event, 'done', JSON.stringify(last));
              versions.push(last.data.session.version);
            }
          }
          assert.ok(results.some((r) => r.status === 200), `session ${i} round ${round}: ${results.map((r) => r.status)}`);
        }
        return { id, statuses, versions };
      }));
      const elapsed = performance.now() - started;
      let turns = 0;
      let conflicts = 0;
      for (const { id, statuses, versions } of outcomes) {
        assert.deepEqual(statuses.filter((s) => s !== 200 && s !== 409), [], 'only 200 and 409');
        const ok = statuses.filter((s) => s === 200).length;
        turns += ok;
        conflicts += statuses.length - ok;
        const session = (await request(a.url, 'GET', `sessions/${id}`)).body;
        const log = (await request(b.url, 'GET', `sessions/${id}/checkpoints`)).body.checkpoints;
        assert.equal(session.version, 1 + ok, `${id}: one save per turn that ran`);
        assert.equal(session.turn, ok);
        assert.deepEqual([...versions].sort((x, y) => x - y), Array.from({ length: ok }, (_, k) => k + 2), `${id}: each turn's done reports its own version`);
        assert.deepEqual(log.map((c) => c.turn), Array.from({ length: ok }, (_, k) => k + 1), `${id}: one checkpoint per turn, in order, none twice`);
        for (const [k, c] of log.entries()) assert.deepEqual([c.outcome.from, c.outcome.to], k % 2 === 0 ? ['triage', 'billing'] : ['billing', 'triage']);
        const inputs = session.histories[session.active].filter((m) => m.role === 'user').map((m) => m.content);
        assert.equal(inputs.length, ok, `${id}: every turn's input is in the history once`);
        assert.equal(new Set(inputs).size, ok);
      }
      assert.ok(turns >= SESSIONS * ROUNDS);
      t.diagnostic(`${name}: ${SESSIONS} sessions × ${ROUNDS} rounds on 2 processes: ${turns} turns ran, ${conflicts} racing copies got 409, in ${(elapsed / 1000).toFixed(1)} s (${(turns / (elapsed / 1000)).toFixed(0)} turns/s, scripted model with no delay)`);
      assert.equal(await database.leases(), 0, 'every lease was given back');
    });
  });
}
