// What the server adds to the SessionStore contract (turn leases, save(session, { checkpoints })),
// as each store keeps it: the shared contract suite (tests/js/store-contract.js, run by
// tests/js/stores.test.mjs and stores-postgres.test.mjs) checks the behaviour; here, RedisStore's
// keys, and for FileStore a save killed between its log append and its rename (SIGKILL of a child
// process) and a lease left by a killed process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { init, Swarm } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { RedisStore } from 'handoff-graph/stores/redis';
import { createClient } from 'redis';

import { sleep, startRedis, swarmDefinition } from './harness.js';

await init();
const swarm = new Swarm(await swarmDefinition());
after(() => swarm.dispose());

async function directory(t) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-server-stores-'));
  t.after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

// The leases and save(session, { checkpoints }) of every store are part of the shared contract
// (tests/js/store-contract.js); what is particular to a store is here.

describe('RedisStore (a real redis-server)', () => {
  let redis;
  const clients = [];
  let starting;
  const server = () => (starting ??= startRedis().then((r) => (redis = r)));
  after(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.destroy?.())));
    await starting?.catch(() => {});
    await redis?.stop();
  });
  const connect = async () => {
    const client = createClient({ url: (await server()).url });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  };
  test('the lease is a key beside the session, with a PX expiry; delete() removes it', async () => {
    const client = await connect();
    const store = new RedisStore(client, { prefix: 'k:' });
    const session = swarm.createSession({ id: 'lease-keys' });
    await store.save(session, { checkpoints: [{ n: 1 }] });
    assert.equal(await store.acquireLease('lease-keys', 'h1', 5000), true);
    assert.deepEqual((await client.keys('k:*')).sort(), ['k:{lease-keys}:checkpoints', 'k:{lease-keys}:lease', 'k:{lease-keys}:session']);
    assert.equal(await client.get('k:{lease-keys}:lease'), 'h1');
    const ttl = await client.pTTL('k:{lease-keys}:lease');
    assert.ok(ttl > 0 && ttl <= 5000, String(ttl));
    assert.deepEqual(store.keys('lease-keys'), { session: 'k:{lease-keys}:session', checkpoints: 'k:{lease-keys}:checkpoints' });
    assert.equal(await store.delete('lease-keys'), true);
    assert.deepEqual(await client.keys('k:*'), []);
  });

  test('ttlSeconds expires the checkpoints a save appends, too', async () => {
    const client = await connect();
    const store = new RedisStore(client, { prefix: 'ttl:', ttlSeconds: 60 });
    const session = swarm.createSession();
    await store.save(session, { checkpoints: [{ n: 1 }] });
    const { session: sessionKey, checkpoints } = store.keys(session.id);
    for (const key of [sessionKey, checkpoints]) {
      const ttl = await client.pTTL(key);
      assert.ok(ttl > 50_000 && ttl <= 60_000, `${key}: ${ttl}`);
    }
  });
});

describe('FileStore: a save with checkpoints cut short', () => {
  test('a journal left by a save killed before its rename: its lines are not read, and the next save removes them', async (t) => {
    const dir = await directory(t);
    const store = new FileStore(dir, { fsync: false });
    const session = swarm.createSession({ id: 'cut' });
    await store.save(session, { checkpoints: [{ n: 1 }] });
    // What a save of version 2 leaves when killed after appending, before renaming.
    const paths = store.paths('cut');
    const logSize = (await readFile(paths.checkpoints)).length;
    await writeFile(path.join(dir, 'cut.commit'), JSON.stringify({ version: 2, logSize }));
    await appendFile(paths.checkpoints, '{"n":"orphan 1"}\n{"n":"orphan 2"}\n{"n":"torn');
    assert.deepEqual(await store.listCheckpoints('cut'), [{ n: 1 }], 'readers see the log as the session has it');
    assert.equal((await store.get('cut')).version, 1);
    // The retried turn saves version 2 with its own checkpoints.
    await store.save(session, { checkpoints: [{ n: 2 }] });
    assert.deepEqual(await store.listCheckpoints('cut'), [{ n: 1 }, { n: 2 }]);
    assert.equal(await readFile(paths.checkpoints, 'utf8'), '{"n":1}\n{"n":2}\n');
    assert.deepEqual((await readdir(dir)).sort(), ['cut.checkpoints.jsonl', 'cut.json']);
  });

  test('a journal whose save did rename is only cleared', async (t) => {
    const dir = await directory(t);
    const store = new FileStore(dir, { fsync: false });
    const session = swarm.createSession({ id: 'done' });
    await store.save(session, { checkpoints: [{ n: 1 }] });
    // Killed after the rename, before removing the journal.
    await writeFile(path.join(dir, 'done.commit'), JSON.stringify({ version: 1, logSize: 0 }));
    assert.deepEqual(await store.listCheckpoints('done'), [{ n: 1 }]);
    await store.save(session, { checkpoints: [{ n: 2 }] });
    assert.deepEqual(await store.listCheckpoints('done'), [{ n: 1 }, { n: 2 }]);
  });

  test('SIGKILL during saves with checkpoints: the log always holds exactly the saved versions\' checkpoints', async (t) => {
    const dir = await directory(t);
    const storeUrl = new URL('../../../js/stores/file.js', import.meta.url).href;
    // A child saves versions 1, 2, 3, … each with checkpoints [v, v] as fast as it can (fsync on,
    // so that each save takes a while); it is killed at a random moment, several times over.
    const child = `
      const { FileStore } = await import(${JSON.stringify(storeUrl)});
      const store = new FileStore(${JSON.stringify(dir)});
      let session = (await store.get('k')) ?? {
        format: 'handoff-graph/session', id: 'k', version: 0, swarm: '', active: 'a', hops: 0, turn: 0,
        selections: {}, variables: {}, histories: { a: [] }, checkpoints: [],
      };
      process.stdout.write('ready\\n');
      for (;;) {
        const v = session.version + 1;
        await store.save(session, { checkpoints: [{ v }, { v, again: true }] });
      }`;
    const store = new FileStore(dir, { fsync: false });
    for (let round = 0; round < 8; round++) {
      const proc = spawn(process.execPath, ['--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'inherit'] });
      await once(proc.stdout, 'data');
      await sleep(20 + Math.random() * 60);
      proc.kill('SIGKILL');
      await once(proc, 'exit');
      const version = (await store.get('k'))?.version ?? 0;
      const log = await store.listCheckpoints('k');
      const expected = Array.from({ length: version }, (_, i) => [{ v: i + 1 }, { v: i + 1, again: true }]).flat();
      assert.deepEqual(log, expected, `round ${round}: version ${version}`);
    }
    t.diagnostic(`reached version ${(await store.get('k')).version} over 8 kills`);
  });

  test('a lease held by a process of this host that is gone has ended', async (t) => {
    const dir = await directory(t);
    const storeUrl = new URL('../../../js/stores/file.js', import.meta.url).href;
    const child = `
      const { FileStore } = await import(${JSON.stringify(storeUrl)});
      await new FileStore(${JSON.stringify(dir)}).acquireLease('s', 'dead holder', 600000);
      process.stdout.write('held\\n');
      setInterval(() => {}, 1000);`;
    const proc = spawn(process.execPath, ['--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'inherit'] });
    await once(proc.stdout, 'data');
    const store = new FileStore(dir, { fsync: false });
    assert.equal(await store.acquireLease('s', 'me', 1000), false, 'held by a live process');
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    assert.equal(await store.acquireLease('s', 'me', 1000), true, 'its owner is gone');
  });
});
