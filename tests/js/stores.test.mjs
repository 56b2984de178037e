// Session stores (issue 6, point 7): one contract suite (tests/js/store-contract.js) run against
// MemoryStore, FileStore and RedisStore (a real redis-server from Debian, started here on
// 127.0.0.1 on a free port and stopped after; PostgresStore's run is in stores-postgres.test.mjs),
// then what each store adds: FileStore's atomic files, torn-line handling, dead-owner locks
// and a child process SIGKILLed mid-write; several processes saving one session; Redis keys and TTL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { init } from 'handoff-graph';
import { FileStore, ConflictError as FileConflictError } from 'handoff-graph/stores/file';
import { MemoryStore, ConflictError } from 'handoff-graph/stores/memory';
import { RedisStore, ConflictError as RedisConflictError } from 'handoff-graph/stores/redis';
import { createClient } from 'redis';

import { startRedis } from './redis-server.js';
import { storeContract, swarm } from './store-contract.js';

await init();

const FILE_STORE_URL = new URL('../../js/stores/file.js', import.meta.url).href;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function temporaryDirectory(t) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-stores-'));
  t.after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

// ------------------------------------------------------------------------------------------
// The contract every store keeps: one suite for every store (tests/js/store-contract.js).

test('every store rejects with the same ConflictError class', () => {
  assert.equal(FileConflictError, ConflictError);
  assert.equal(RedisConflictError, ConflictError);
});

test('MemoryStore is browser-safe: it bundles for the browser with no Node built-in', async () => {
  const { build } = await import('esbuild');
  const entry = new URL('../../js/stores/memory.js', import.meta.url);
  const result = await build({ entryPoints: [fileURLToPath(entry)], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true, absWorkingDir: fileURLToPath(new URL('../../', import.meta.url)) });
  const inputs = Object.keys(result.metafile.inputs).sort();
  assert.deepEqual(inputs, ['js/options.js', 'js/stores/checks.js', 'js/stores/errors.js', 'js/stores/memory.js', 'js/text.js']);
  // And the Node store does not pretend to be: its imports are node: built-ins.
  await assert.rejects(build({ entryPoints: [fileURLToPath(new URL('file.js', entry))], bundle: true, platform: 'browser', write: false, logLevel: 'silent' }), /node:fs\/promises/);
});

// ------------------------------------------------------------------------------------------

storeContract('MemoryStore', async () => {
  const store = new MemoryStore();
  return [store, store];
});

// ------------------------------------------------------------------------------------------

storeContract('FileStore', async (t) => {
  const dir = await temporaryDirectory(t);
  return [new FileStore(dir), new FileStore(dir)];
});

// The child processes below: a FileStore in another process, on the same directory.
// `fileSizeLimitKiB`: run it under `ulimit -f`, so that a write past that size is cut short.
function child(code, env = {}, { fileSizeLimitKiB } = {}) {
  const args = ['--input-type=module', '-e', `import { FileStore, ConflictError } from ${JSON.stringify(FILE_STORE_URL)};\n${code}`];
  const [command, argv] =
    fileSizeLimitKiB === undefined ? [process.execPath, args] : ['bash', ['-c', `ulimit -f ${fileSizeLimitKiB} && exec "$0" "$@"`, process.execPath, ...args]];
  const proc = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.output = '';
  proc.stdoutText = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => {
    proc.output += d;
    proc.stdoutText += d;
  });
  proc.stderr.setEncoding('utf8').on('data', (d) => (proc.output += d));
  proc.exited = once(proc, 'exit');
  return proc;
}

async function untilOutput(proc, pattern, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!pattern.test(proc.output)) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`child exited before printing ${pattern}:\n${proc.output}`);
    if (Date.now() > deadline) throw new Error(`child did not print ${pattern} in ${ms} ms:\n${proc.output}`);
    await sleep(5);
  }
}

describe('FileStore', () => {
  test('one JSON file per session, one JSON-lines log; no lock or temporary file left', async (t) => {
    const dir = await temporaryDirectory(t);
    const store = new FileStore(dir);
    const session = { ...swarm().createSession({ id: 'Ticket 7/é' }) };
    await store.save(session);
    await store.appendCheckpoint(session.id, { n: 1 });
    await store.appendCheckpoint(session.id, { n: 2 });
    assert.deepEqual((await readdir(dir)).sort(), ['^ticket%207%2F%C3%A9.checkpoints.jsonl', '^ticket%207%2F%C3%A9.json']);
    assert.deepEqual(JSON.parse(await readFile(store.paths(session.id).session, 'utf8')), session);
    assert.equal(await readFile(store.paths(session.id).checkpoints, 'utf8'), '{"n":1}\n{"n":2}\n');
    // Ids that differ only in case, or that are long, get files of their own.
    await store.save({ ...session, id: 'ticket 7/é', version: 0 });
    const long = 'x'.repeat(300);
    await store.save({ ...session, id: long, version: 0 });
    assert.equal((await store.get(long)).id, long);
    assert.ok(path.basename(store.paths(long).session).length < 200);
    assert.equal((await store.get('Ticket 7/é')).id, 'Ticket 7/é');
    assert.equal((await store.get('ticket 7/é')).id, 'ticket 7/é');
    assert.deepEqual(await store.sweep(), []);
  });

  test('a session file that is not a session of the documented format is an error naming the file (issue 20, item 4)', async (t) => {
    const dir = await temporaryDirectory(t);
    const store = new FileStore(dir, { fsync: false });
    const session = swarm().createSession({ id: 'conv' });
    await store.save(session);
    const file = store.paths('conv').session;
    const saved = JSON.parse(await readFile(file, 'utf8'));
    const cases = [
      ['[1,2,3]', 'it holds an array, not a session object'],
      ['null', 'it holds null, not a session object'],
      ['"conv"', 'it holds string conv, not a session object'],
      ['{}', 'its format is missing, not "handoff-graph/session"'],
      [JSON.stringify({ ...saved, format: 'handoff-graph/swarm' }), 'its format is "handoff-graph/swarm", not "handoff-graph/session"'],
      [JSON.stringify({ ...saved, id: 'other' }), `it holds session "other", not 'conv'`],
      [JSON.stringify({ ...saved, version: 0 }), 'its version is number 0: a saved session has an integer version >= 1'],
      [JSON.stringify({ ...saved, active: null }), 'its active is null, not a string'],
      [JSON.stringify({ ...saved, hops: -1 }), 'its hops is number -1, not an integer >= 0'],
      [JSON.stringify({ ...saved, histories: { triage: {} } }), "its history of 'triage' is an object, not an array"],
      [JSON.stringify({ ...saved, checkpoints: null }), 'its checkpoints are null, not an array'],
      ['{"format": ', /^not JSON|Unexpected end of JSON input|Expected/],
    ];
    for (const [text, why] of cases) {
      await writeFile(file, text);
      for (const attempt of [() => store.get('conv'), () => store.save(structuredClone(saved))]) {
        await assert.rejects(attempt, (error) => {
          assert.equal(error.code, 'ERR_NOT_A_SESSION');
          assert.equal(error.path, file);
          const reason = error.message.slice(`${file} is not a session (`.length, -'); it was changed outside the FileStore'.length);
          assert.ok(error.message.startsWith(`${file} is not a session (`), error.message);
          if (typeof why === 'string') assert.equal(reason, why);
          else assert.match(reason, why);
          return true;
        });
      }
    }
    await writeFile(file, JSON.stringify(saved));
    assert.deepEqual(await store.get('conv'), saved);
    // What get() refuses, save() never writes.
    await assert.rejects(store.save({ id: 'conv', version: 1, format: 'handoff-graph/session' }), {
      name: 'TypeError',
      message: "session 'conv' is not a session of the documented format: its swarm is missing, not a string",
    });
    assert.deepEqual(await store.get('conv'), saved);
  });

  test('a torn last line is ignored on read and reported; the next append starts a new line', async (t) => {
    const dir = await temporaryDirectory(t);
    const torn = [];
    const store = new FileStore(dir, { onTornLine: (info) => torn.push(info) });
    const id = 'torn';
    await store.appendCheckpoint(id, { n: 1 });
    await appendFile(store.paths(id).checkpoints, '{"n":2,"pad":"xx');
    assert.deepEqual(await store.listCheckpoints(id), [{ n: 1 }]);
    assert.equal(torn.length, 1);
    assert.deepEqual({ ...torn[0], path: path.basename(torn[0].path) }, { id, path: 'torn.checkpoints.jsonl', line: 2, offset: 8, text: '{"n":2,"pad":"xx', reason: 'the last line has no newline: a write cut short' });
    await store.listCheckpoints(id);
    assert.equal(torn.length, 1, 'reported once');
    await store.appendCheckpoint(id, { n: 3 });
    assert.equal(await readFile(store.paths(id).checkpoints, 'utf8'), '{"n":1}\n{"n":2,"pad":"xx\n{"n":3}\n');
    const read = await store.readCheckpoints(id);
    assert.deepEqual(read.checkpoints, [{ n: 1 }, { n: 3 }]);
    assert.equal(read.torn.length, 1);
    assert.match(read.torn[0].reason, /^not JSON/);
    // Without onTornLine, a process warning.
    const warnings = [];
    const listener = (w) => warnings.push(w);
    process.on('warning', listener);
    t.after(() => process.off('warning', listener));
    await new FileStore(dir).listCheckpoints(id);
    await sleep(10);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].code, 'HANDOFF_GRAPH_TORN_CHECKPOINT');
    assert.match(warnings[0].message, /torn\.checkpoints\.jsonl:2: not JSON/);
  });

  test("a lock left by a dead process is broken at once; a live owner's lock is waited for", async (t) => {
    const dir = await temporaryDirectory(t);
    const store = new FileStore(dir, { lockTimeoutMs: 300 });
    const session = swarm().createSession({ id: 'locked' });
    await store.save(session);
    const { lock } = store.paths(session.id);
    // A process that has exited: its pid names no live process.
    const gone = child('');
    await gone.exited;
    const { hostname } = await import('node:os');
    await writeFile(lock, JSON.stringify({ token: 'dead', host: hostname(), pid: gone.pid, since: new Date().toISOString() }));

    await store.save(session);
    // It succeeded: a lock that was not broken would have made the save time out and reject.
    assert.equal(session.version, 2);
    // A live owner (this process) holds it: the save waits, then gives up with a clear message.
    await writeFile(lock, JSON.stringify({ token: 'live', host: hostname(), pid: process.pid, since: new Date().toISOString() }));

    await assert.rejects(store.save(session), /timed out after 300 ms waiting for .*locked\.lock/);
    // ... and gets it as soon as the owner lets go.
    setTimeout(() => rm(lock), 100);
    await new FileStore(dir, { lockTimeoutMs: 2000 }).save(session);
    assert.equal(session.version, 3);
    // A lock from another host, or unreadable, is broken only once older than staleLockMs.
    await writeFile(lock, JSON.stringify({ token: 'far', host: 'another-host', pid: 1, since: new Date().toISOString() }));
    await assert.rejects(store.save(session), /timed out/);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    await store.save(session);
    assert.equal(session.version, 4);
    assert.deepEqual((await readdir(dir)).sort(), ['locked.json']);
  });

  test('three processes save one session, retrying on conflict: no update and no checkpoint is lost', async (t) => {
    const dir = await temporaryDirectory(t);
    const store = new FileStore(dir);
    const id = 'shared';
    await store.save({ ...swarm().createSession({ id }), variables: { count: 0 } });
    const EACH = 15;
    const code = `
      const store = new FileStore(process.env.DIR);
      const name = process.env.NAME;
      let conflicts = 0;
      for (let done = 0; done < ${EACH}; ) {
        const session = await store.get('${id}');
        session.variables.count += 1;
        session.variables[name] = (session.variables[name] ?? 0) + 1;
        try { await store.save(session); } catch (e) { if (!(e instanceof ConflictError)) throw e; conflicts++; continue; }
        done++;
        await store.appendCheckpoint('${id}', { writer: name, done });
      }
      console.log(JSON.stringify({ conflicts }));`;
    const started = performance.now();
    const procs = ['p0', 'p1', 'p2'].map((name) => child(code, { DIR: dir, NAME: name }));
    await Promise.all(procs.map((p) => p.exited));
    for (const p of procs) assert.equal(p.exitCode, 0, p.output);
    const conflicts = procs.reduce((n, p) => n + JSON.parse(p.stdoutText).conflicts, 0);
    const stored = await store.get(id);
    assert.equal(stored.variables.count, 3 * EACH);
    assert.equal(stored.version, 1 + 3 * EACH);
    const checkpoints = await store.listCheckpoints(id);
    assert.equal(checkpoints.length, 3 * EACH);
    for (const name of ['p0', 'p1', 'p2']) {
      assert.deepEqual(checkpoints.filter((c) => c.writer === name).map((c) => c.done), Array.from({ length: EACH }, (_, k) => k + 1));
    }
    t.diagnostic(`3 processes, ${3 * EACH} saves, ${conflicts} conflicts retried, ${(performance.now() - started).toFixed(0)} ms`);
  });

  test('an append cut short mid-write, then SIGKILL: the torn line is ignored and reported, later lines are whole', async (t) => {
    // The file size limit cuts the write of the second checkpoint short, which is exactly what a
    // kill landing in the middle of the write() leaves on disk; then the process is SIGKILLed.
    const dir = await temporaryDirectory(t);
    const torn = [];
    const store = new FileStore(dir, { onTornLine: (info) => torn.push(info) });
    const id = 'cut';
    const code = `
      const store = new FileStore(process.env.DIR);
      const session = { format: 'handoff-graph/session', version: 0, id: '${id}', swarm: '', active: 'a', hops: 0, turn: 0, selections: {}, variables: { n: 0 }, histories: {}, checkpoints: [] };
      await store.appendCheckpoint('${id}', { n: 1 });
      session.variables.n = 1;
      await store.save(session);
      try {
        await store.appendCheckpoint('${id}', { n: 2, pad: 'x'.repeat(100 << 10) });
        console.log('not cut');
      } catch (error) {
        console.log('cut: ' + error.message);
      }
      setInterval(() => {}, 1000);`;
    const proc = child(code, { DIR: dir }, { fileSizeLimitKiB: 64 });
    await untilOutput(proc, /cut/);
    proc.kill('SIGKILL');
    await proc.exited;
    assert.match(proc.output, /^cut: short write to .*cut\.checkpoints\.jsonl: \d+ of \d+ bytes/m);
    const log = await readFile(store.paths(id).checkpoints, 'utf8');
    assert.equal(log.length, 64 << 10, 'the log holds what was written before the cut');
    assert.ok(log.startsWith('{"n":1}\n{"n":2,"pad":"xxx') && !log.endsWith('\n'));
    assert.deepEqual(await store.get(id), { format: 'handoff-graph/session', version: 1, id, swarm: '', active: 'a', hops: 0, turn: 0, selections: {}, variables: { n: 1 }, histories: {}, checkpoints: [] });
    assert.deepEqual(await store.listCheckpoints(id), [{ n: 1 }]);
    assert.equal(torn.length, 1);
    assert.deepEqual([torn[0].line, torn[0].offset, torn[0].reason], [2, 8, 'the last line has no newline: a write cut short']);
    // The next writer's lines are whole, and the torn one stays ignored.
    await store.appendCheckpoint(id, { n: 2 });
    await store.appendCheckpoint(id, { n: 3 });
    assert.deepEqual(await store.listCheckpoints(id), [{ n: 1 }, { n: 2 }, { n: 3 }]);
    assert.equal(torn.length, 1, 'the same torn line is reported once');
    const { torn: still } = await store.readCheckpoints(id);
    assert.deepEqual(still.map((l) => [l.line, l.reason.slice(0, 8)]), [[2, 'not JSON']]);
  });

  test('a process SIGKILLed in a loop of saves and appends: the session file is always whole, the log has only whole lines', async (t) => {
    const dir = await temporaryDirectory(t);
    const id = 'crash';
    const torn = [];
    const store = new FileStore(dir, { onTornLine: (info) => torn.push(info) });
    // Big writes, so that a kill often lands in the middle of one: a 1 MiB session, and checkpoints
    // of 64 KiB, 256 KiB or 2 MiB depending on the round; every other round without fsync.
    const SESSION_PAD = 1 << 20;
    await store.save({ ...swarm().createSession({ id }), variables: { n: 0 }, pad: 's'.repeat(SESSION_PAD) });
    const code = `
      const store = new FileStore(process.env.DIR, { fsync: process.env.FSYNC === '1' });
      const size = Number(process.env.SIZE);
      const pad = 'c'.repeat(size);
      const session = await store.get('${id}');
      for (let n = session.variables.n + 1; ; n++) {
        await store.appendCheckpoint('${id}', { n, size, pad });
        session.variables.n = n;
        await store.save(session);
        console.log('saved ' + n);
      }`;
    const ROUNDS = 12;
    const seen = { lock: 0, temp: 0, tornTail: 0, reads: 0 };
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const before = (await store.get(id)).variables.n;
      const proc = child(code, { DIR: dir, SIZE: String([64 << 10, 256 << 10, 2 << 20][round % 3]), FSYNC: round % 2 === 0 ? '1' : '0' });
      // Proves the writer got past any lock the previous kill left.
      await untilOutput(proc, /saved \d+/);
      // While it writes, every read of the session file is a whole session.
      const until = Date.now() + 20 + ((round * 37) % 200);
      while (Date.now() < until) {
        const session = await store.get(id);
        assert.equal(session.pad.length, SESSION_PAD);
        assert.equal(session.version - session.variables.n, 1);
        seen.reads++;
        await sleep(1);
      }
      proc.kill('SIGKILL');
      await proc.exited;
      assert.equal(proc.signalCode, 'SIGKILL');
      const names = await readdir(dir);
      if (names.some((n) => n.endsWith('.lock'))) seen.lock++;
      if (names.some((n) => n.includes('.tmp-'))) seen.temp++;
      const log = await readFile(store.paths(id).checkpoints);
      if (log.at(-1) !== 0x0a) seen.tornTail++;

      const session = await store.get(id);
      assert.equal(session.id, id);
      assert.equal(session.pad.length, SESSION_PAD, 'the session file is whole');
      assert.equal(session.version - session.variables.n, 1, 'the session file is one that was saved');
      assert.ok(session.variables.n > before, 'the writer saved this round');
      const { checkpoints, torn: tornLines } = await store.readCheckpoints(id);
      for (const c of checkpoints) assert.equal(c.pad.length, c.size, 'every line read is whole');
      // A checkpoint is appended before the save that follows it: every saved n has its checkpoint.
      const ns = new Set(checkpoints.map((c) => c.n));
      for (let n = 1; n <= session.variables.n; n++) assert.ok(ns.has(n), `checkpoint ${n} is in the log`);
      assert.ok(Math.max(...ns) <= session.variables.n + 1);
      // Torn lines: at most one per kill, and only ever the last line at the time of that kill.
      assert.ok(tornLines.length <= round + 1);
    }
    // The torn lines were reported (once each), and a new writer carries on cleanly.
    await store.listCheckpoints(id);
    assert.equal(torn.length, (await store.readCheckpoints(id)).torn.length);
    const session = await store.get(id);
    await store.save(session);
    await store.appendCheckpoint(id, { n: 'after' });
    assert.deepEqual((await store.listCheckpoints(id)).at(-1), { n: 'after' });
    const swept = await store.sweep();
    assert.deepEqual((await readdir(dir)).sort(), ['crash.checkpoints.jsonl', 'crash.json']);
    t.diagnostic(
      `${ROUNDS} kills after ${session.variables.n - 1} saves in ${(performance.now() - started).toFixed(0)} ms; ` +
        `a kill left a lock ${seen.lock}x, a temporary file ${seen.temp}x, a torn last line ${seen.tornTail}x; ` +
        `${seen.reads} reads during the writes; ${torn.length} torn line(s) reported; sweep removed ${swept.length} file(s)`,
    );
  });
});

// ------------------------------------------------------------------------------------------
// Redis: a real server from Debian's redis-server package (tests/js/redis-server.js).

describe('RedisStore (a real redis-server on 127.0.0.1)', () => {
  let redis;
  const clients = [];
  // Started by the first test that needs it rather than by a before() hook, so that a missing
  // redis-server makes every Redis test FAIL with the reason (a failed hook would cancel them).
  let starting;
  const server = () => (starting ??= startRedis().then((r) => (redis = r)));
  const connect = async () => {
    const client = createClient({ url: (await server()).url });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  };

  after(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.destroy?.())));
    await starting?.catch(() => {});
    await redis?.stop();
  });

  test('redis-server starts on 127.0.0.1 on a free port and answers PING', async (t) => {
    await server();
    t.diagnostic(`redis-server up on 127.0.0.1:${redis.port} in ${redis.startedMs.toFixed(0)} ms`);
  });

  storeContract('RedisStore', async () => {
    // Two connections: two workers.
    return [new RedisStore(await connect(), { prefix: 'test:' }), new RedisStore(await connect(), { prefix: 'test:' })];
  });

  test('keys: prefixed, the session id as hash tag; a hash and a list; ttlSeconds expires both', async () => {
    const client = await connect();
    const store = new RedisStore(client, { prefix: 'app:hg:' });
    const session = swarm().createSession({ id: 'k1' });
    await store.save(session);
    await store.appendCheckpoint('k1', { n: 1 });
    assert.deepEqual(store.keys('k1'), { session: 'app:hg:{k1}:session', checkpoints: 'app:hg:{k1}:checkpoints' });
    assert.deepEqual((await client.keys('app:hg:*')).sort(), ['app:hg:{k1}:checkpoints', 'app:hg:{k1}:session']);
    assert.equal(await client.type('app:hg:{k1}:session'), 'hash');
    assert.equal(await client.type('app:hg:{k1}:checkpoints'), 'list');
    assert.equal(await client.hGet('app:hg:{k1}:session', 'version'), '1');
    assert.equal(await client.pTTL('app:hg:{k1}:session'), -1, 'no expiry by default');
    // Another prefix is another namespace.
    assert.equal(await new RedisStore(client, { prefix: 'other:' }).get('k1'), undefined);
    const expiring = new RedisStore(client, { prefix: 'ttl:', ttlSeconds: 60 });
    await expiring.save(swarm().createSession({ id: 'k2' }));
    await expiring.appendCheckpoint('k2', { n: 1 });
    for (const key of Object.values(expiring.keys('k2'))) {
      const ttl = await client.pTTL(key);
      assert.ok(ttl > 55_000 && ttl <= 60_000, `${key}: ${ttl}`);
    }
  });

  test('what is not a node-redis client is a TypeError', () => {
    assert.throws(() => new RedisStore({ get() {} }), /client of the npm 'redis' package/);
    assert.throws(() => new RedisStore(undefined), TypeError);
  });
});
