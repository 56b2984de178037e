// PostgresStore (issue 35) on a real PostgreSQL server from Debian's postgresql package, made by
// initdb in a temporary directory and started on 127.0.0.1 on a free port (as the `postgres` user
// when the tests run as root), stopped after (tests/js/postgres-server.js): the shared store
// contract (tests/js/store-contract.js), then what PostgresStore adds: its tables, made on first
// use by any number of processes at once; schemas and prefixes; rows changed outside the store;
// ttlSeconds and the leases' expiry by the database's clock; sweep(); its refusals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { init } from 'handoff-graph';
import { ConflictError } from 'handoff-graph/stores/memory';
import { PostgresStore, ConflictError as PostgresConflictError } from 'handoff-graph/stores/postgres';
import pg from 'pg';

import { startPostgres } from './postgres-server.js';
import { storeContract, swarm } from './store-contract.js';

await init();

const STORE_URL = new URL('../../js/stores/postgres.js', import.meta.url).href;

describe('PostgresStore (a real PostgreSQL server on 127.0.0.1)', () => {
  let server;
  const pools = [];
  // Started by the first test that needs it rather than by a before() hook, so that a missing
  // PostgreSQL makes every test FAIL with the reason (a failed hook would cancel them).
  let starting;
  const database = () => (starting ??= startPostgres().then((s) => (server = s)));
  const connect = async () => {
    const pool = new pg.Pool({ connectionString: (await database()).url, max: 4 });
    pool.on('error', () => {});
    pools.push(pool);
    return pool;
  };
  const sql = async (text, values) => (await (pools[0] ?? (await connect())).query(text, values)).rows;

  after(async () => {
    await Promise.all(pools.map((p) => p.end().catch(() => {})));
    await starting?.catch(() => {});
    await server?.stop();
  });

  test('postgres starts on 127.0.0.1 on a free port and takes a connection', async (t) => {
    await database();
    t.diagnostic(`PostgreSQL ${server.version} up on 127.0.0.1:${server.port} in ${server.startedMs.toFixed(0)} ms (initdb included)`);
  });

  test('every store rejects with the same ConflictError class', () => {
    assert.equal(PostgresConflictError, ConflictError);
  });

  test('neither the store nor the server imports pg or ai: they bundle with nothing from node_modules', async () => {
    const { build } = await import('esbuild');
    const root = fileURLToPath(new URL('../../', import.meta.url));
    for (const entry of ['js/stores/postgres.js', 'js/server/fetch.js']) {
      const result = await build({ entryPoints: [path.join(root, entry)], bundle: true, platform: 'neutral', format: 'esm', write: false, logLevel: 'silent', metafile: true, absWorkingDir: root });
      const inputs = Object.keys(result.metafile.inputs);
      assert.deepEqual(inputs.filter((file) => !file.startsWith('js/')), [], entry);
    }
  });

  // Two pools: two workers (their tables made ahead, so that a worker's first call is as quick as the other's).
  storeContract('PostgresStore', async () => {
    const stores = [new PostgresStore({ pool: await connect(), tablePrefix: 'contract_' }), new PostgresStore({ pool: await connect(), tablePrefix: 'contract_' })];
    await Promise.all(stores.map((store) => store.migrate()));
    return stores;
  });

  test('four tables, made on first use; a session is a row, its checkpoints rows in order, as JSON kept as written', async () => {
    const store = new PostgresStore({ pool: await connect(), tablePrefix: 'tables_' });
    assert.deepEqual(store.tables(), { sessions: '"public"."tables_sessions"', checkpoints: '"public"."tables_checkpoints"', leases: '"public"."tables_leases"', runs: '"public"."tables_runs"' });
    assert.deepEqual(await sql("SELECT tablename FROM pg_tables WHERE tablename LIKE 'tables\\_%'"), []);
    const session = swarm().createSession({ id: 'k1', variables: { z: 1, a: 2 } });
    await store.save(session, { checkpoints: [{ n: 1 }] });
    await store.appendCheckpoint('k1', { n: 2 });
    assert.deepEqual((await sql("SELECT tablename FROM pg_tables WHERE tablename LIKE 'tables\\_%' ORDER BY 1")).map((r) => r.tablename), ['tables_checkpoints', 'tables_leases', 'tables_runs', 'tables_sessions']);
    const [row] = await sql('SELECT id, version, session::text AS text, expires_at FROM tables_sessions');
    assert.deepEqual([row.id, row.version, row.expires_at], ['k1', '1', null]);
    assert.equal(row.text, JSON.stringify({ ...session }), 'the JSON text as the store wrote it (key order kept)');
    assert.deepEqual((await sql("SELECT checkpoint::text AS c FROM tables_checkpoints WHERE session_id = 'k1' ORDER BY seq")).map((r) => r.c), ['{"n":1}', '{"n":2}']);
    // A session with many checkpoints at once keeps their order.
    const many = Array.from({ length: 500 }, (_, n) => ({ n }));
    await store.save(session, { checkpoints: many });
    assert.deepEqual((await store.listCheckpoints('k1')).slice(2), many);
  });

  test('migrate() is idempotent, and ten processes making the tables at once all succeed', async () => {
    const store = new PostgresStore({ pool: await connect(), tablePrefix: 'migrate_' });
    await store.migrate();
    await store.migrate();
    await new PostgresStore({ pool: await connect(), tablePrefix: 'migrate_' }).migrate();
    // Without the advisory lock, concurrent CREATE TABLE IF NOT EXISTS fail now and then with a
    // duplicate key in pg_type: ten processes with a fresh prefix, each making the tables first thing.
    const code = `
      const { PostgresStore } = await import(${JSON.stringify(STORE_URL)});
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({ connectionString: process.env.URL });
      const store = new PostgresStore({ pool, tablePrefix: 'race_' });
      await store.save({ format: 'handoff-graph/session', id: process.env.ID, version: 0, swarm: '', active: 'a', hops: 0, turn: 0, selections: {}, variables: {}, histories: {}, checkpoints: [] });
      await pool.end();`;
    const procs = Array.from({ length: 10 }, (_, i) => {
      const proc = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: new URL('../../', import.meta.url), env: { ...process.env, URL: server.url, ID: `p${i}` }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      proc.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
      return once(proc, 'exit').then(([code]) => ({ code, stderr }));
    });
    for (const { code, stderr } of await Promise.all(procs)) assert.equal(code, 0, stderr);
    assert.equal((await sql('SELECT count(*)::int AS n FROM race_sessions'))[0].n, 10);
  });

  test('tables a migration role made serve a role that may only read and write them', async () => {
    const admin = new PostgresStore({ pool: await connect(), tablePrefix: 'owned_' });
    await admin.migrate();
    const t = admin.tables();
    await sql(`CREATE ROLE hg_app LOGIN;
      GRANT SELECT, INSERT, UPDATE, DELETE ON ${Object.values(t).join(', ')} TO hg_app;
      GRANT USAGE ON SEQUENCE owned_checkpoints_seq_seq TO hg_app;`);
    assert.deepEqual(await sql("SELECT has_schema_privilege('hg_app', 'public', 'CREATE') AS c"), [{ c: false }]);
    const pool = new pg.Pool({ connectionString: server.url.replace('//postgres@', '//hg_app@') });
    pool.on('error', () => {});
    pools.push(pool);
    const app = new PostgresStore({ pool, tablePrefix: 'owned_' });
    const session = swarm().createSession({ id: 'app-1' });
    await app.save(session, { checkpoints: [{ n: 1 }] });
    assert.equal(await app.acquireLease('app-1', 'h', 1000), true);
    assert.deepEqual([(await app.get('app-1')).version, await app.listCheckpoints('app-1')], [1, [{ n: 1 }]]);
    // Where the tables are missing, the role's lack of rights is PostgreSQL's own error.
    await assert.rejects(new PostgresStore({ pool, tablePrefix: 'unmade_' }).get('x'), /permission denied for schema public/);
  });

  test('a schema of its own is made when missing; prefixes and schemas are namespaces', async () => {
    const pool = await connect();
    const store = new PostgresStore({ pool, schema: 'hg_app', tablePrefix: '' });
    await store.save(swarm().createSession({ id: 's1' }));
    assert.deepEqual(store.tables().sessions, '"hg_app"."sessions"');
    assert.deepEqual((await sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'hg_app' ORDER BY 1")).map((r) => r.table_name), ['checkpoints', 'leases', 'runs', 'sessions']);
    assert.equal(await new PostgresStore({ pool, tablePrefix: 'other_' }).get('s1'), undefined);
    assert.equal((await new PostgresStore({ pool, schema: 'hg_app', tablePrefix: '' }).get('s1')).id, 's1');
  });

  test('a row that is not a session or a run, changed outside the store, is an error naming it', async () => {
    const store = new PostgresStore({ pool: await connect(), tablePrefix: 'junk_' });
    await store.migrate();
    await sql(`INSERT INTO junk_sessions (id, version, session) VALUES ('j1', 1, '{"format":"something else"}'), ('j2', 1, '[1,2]')`);
    await assert.rejects(store.get('j1'), {
      code: 'ERR_NOT_A_SESSION',
      message: `PostgreSQL table "public"."junk_sessions" row 'j1' is not a session (its format is "something else", not "handoff-graph/session"); it was changed outside the store`,
    });
    await assert.rejects(store.get('j2'), /row 'j2' is not a session \(it holds an array, not a session object\)/);
    await sql(`INSERT INTO junk_runs (id, version, run) VALUES ('r1', 1, '{"format":"handoff-graph/run","id":"other"}')`);
    await assert.rejects(store.getRun('r1'), { code: 'ERR_NOT_A_RUN', message: `PostgreSQL table "public"."junk_runs" row 'r1' is not a run (it holds run "other", not 'r1'); it was changed outside the store` });
    // What get() refuses, save() never writes.
    await assert.rejects(store.save({ id: 'j3', version: 0, format: 'handoff-graph/session' }), { name: 'TypeError', message: "session 'j3' is not a session of the documented format: its swarm is missing, not a string" });
  });

  test('ttlSeconds: rows carry an expiry from the database clock; past it they count as gone, and sweep() removes them', async () => {
    const store = new PostgresStore({ pool: await connect(), tablePrefix: 'ttl_', ttlSeconds: 60 });
    const session = swarm().createSession({ id: 't1' });
    await store.save(session, { checkpoints: [{ n: 1 }] });
    await store.appendCheckpoint('t1', { n: 2 });
    const [{ seconds }] = await sql("SELECT extract(epoch FROM expires_at - clock_timestamp())::float8 AS seconds FROM ttl_sessions WHERE id = 't1'");
    assert.ok(seconds > 50 && seconds <= 60, String(seconds));
    assert.equal((await sql("SELECT count(*)::int AS n FROM ttl_checkpoints WHERE expires_at > clock_timestamp() + interval '50 seconds'"))[0].n, 2);
    // Expire everything (as if a minute had passed).
    const expire = () => sql("UPDATE ttl_sessions SET expires_at = clock_timestamp() - interval '1 second'").then(() => sql("UPDATE ttl_checkpoints SET expires_at = clock_timestamp() - interval '1 second'"));
    await expire();
    assert.equal(await store.get('t1'), undefined);
    assert.deepEqual(await store.listCheckpoints('t1'), []);
    assert.equal(await store.delete('t1'), false, 'nothing live to delete');
    // A new session under that id starts at version 0; the old log is gone, not revived.
    const again = swarm().createSession({ id: 't1' });
    await store.save(again, { checkpoints: [{ n: 'new' }] });
    assert.equal(again.version, 1);
    assert.deepEqual(await store.listCheckpoints('t1'), [{ n: 'new' }]);
    await expire();
    await store.appendCheckpoint('t1', { n: 'appended' });
    assert.deepEqual(await store.listCheckpoints('t1'), [{ n: 'appended' }]);
    // A stale version of an expired session conflicts as a save of an unknown one does.
    await expire();
    await assert.rejects(store.save(again), (e) => e instanceof ConflictError && e.expected === 1 && e.actual === 0);
    // A lease left by a process that died: expired, removed by sweep().
    await store.acquireLease('t2', 'dead', 1);
    await sql("UPDATE ttl_leases SET expires_at = clock_timestamp() - interval '1 second'");
    assert.deepEqual(await store.sweep(), { sessions: 1, checkpoints: 1, leases: 1, runs: 0 });
    assert.deepEqual(await sql('SELECT count(*)::int AS n FROM ttl_sessions'), [{ n: 0 }]);
  });

  test('a lease expires by the database clock: one whose expiry has passed is free, and its old holder cannot release it', async () => {
    const pool = await connect();
    const store = new PostgresStore({ pool, tablePrefix: 'lease_' });
    assert.equal(await store.acquireLease('L', 'h1', 60_000), true);
    const [{ seconds }] = await sql("SELECT extract(epoch FROM expires_at - clock_timestamp())::float8 AS seconds FROM lease_leases WHERE session_id = 'L'");
    assert.ok(seconds > 50 && seconds <= 60, String(seconds));
    assert.equal(await store.acquireLease('L', 'h2', 60_000), false);
    await sql("UPDATE lease_leases SET expires_at = clock_timestamp() - interval '1 millisecond'");
    assert.equal(await store.acquireLease('L', 'h2', 60_000), true);
    assert.equal(await store.releaseLease('L', 'h1'), false);
    assert.equal(await store.releaseLease('L', 'h2'), true);
    assert.deepEqual(await sql('SELECT count(*)::int AS n FROM lease_leases'), [{ n: 0 }]);
  });

  test('what the store cannot take is a TypeError: options, ids PostgreSQL text cannot hold', async () => {
    const pool = await connect();
    assert.throws(() => new PostgresStore(), /the options are missing/);
    assert.throws(() => new PostgresStore({}), /pool is missing/);
    assert.throws(() => new PostgresStore({ pool: {} }), /pool must be a Pool of the npm package pg/);
    assert.throws(() => new PostgresStore({ pool, tablePrefx: 'x' }), /PostgresStore options: unknown option 'tablePrefx' \(did you mean 'tablePrefix'\?\)/);
    assert.throws(() => new PostgresStore({ pool, ttlSecond: 5 }), /unknown option 'ttlSecond' \(did you mean 'ttlSeconds'\?\)/);
    for (const schema of ['Public', 'a;drop', '', '1x', 'x'.repeat(64), 7]) assert.throws(() => new PostgresStore({ pool, schema }), /schema must be a lower-case SQL name/, String(schema));
    for (const tablePrefix of ['a"b', 'A_', '9', 'x'.repeat(41)]) assert.throws(() => new PostgresStore({ pool, tablePrefix }), /tablePrefix must be/, tablePrefix);
    for (const ttlSeconds of [0, -1, 1e-9, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, '60']) assert.throws(() => new PostgresStore({ pool, ttlSeconds }), /ttlSeconds must be a positive number/, String(ttlSeconds));
    const store = new PostgresStore({ pool, tablePrefix: 'refuse_' });
    for (const id of ['a\u0000b', 'lone \ud800 high', 'lone \udc00 low']) {
      await assert.rejects(store.get(id), /cannot hold U\+0000 or a lone surrogate/);
      await assert.rejects(store.save({ ...swarm().createSession(), id }), /cannot hold U\+0000 or a lone surrogate/);
      await assert.rejects(store.acquireLease(id, 'h', 100), /cannot hold/);
      await assert.rejects(store.getRun(id), /cannot hold/);
    }
    // Anything else is stored and read back as it was: pairs, escapes, U+0000 inside the JSON.
    const odd = swarm().createSession({ id: 'emoji 🎉 é "quote" \\ back', variables: { nul: 'a\u0000b', lone: '\ud800', sep: '\u2028' } });
    await store.save(odd);
    assert.deepEqual(await store.get(odd.id), odd);
  });

  test('a server that cannot be reached: the store rejects with the driver\'s error, and works once it can', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:1/postgres`, connectionTimeoutMillis: 2000 });
    pool.on('error', () => {});
    const store = new PostgresStore({ pool });
    await assert.rejects(store.get('x'), /ECONNREFUSED|connect/);
    await pool.end();
    // A fresh id space per run of this file: nothing about the failed store stuck.
    const ok = new PostgresStore({ pool: await connect(), tablePrefix: 'reach_' });
    assert.equal(await ok.get(randomUUID()), undefined);
  });
});
