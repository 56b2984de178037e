// The session stores' typings (js/stores/*.d.ts), as a user imports them, against the real
// `redis` client type and the real `pg` Pool and Client types. Type-checked (never run) by tests/js/sdk-types.test.mjs.
import pg from 'pg';
import { createClient } from 'redis';

import { Swarm, type Session, type SessionStore } from 'handoff-graph';
import { FileStore, ConflictError, type TornLine } from 'handoff-graph/stores/file';
import { MemoryStore, ConflictError as MemoryConflictError } from 'handoff-graph/stores/memory';
import { PostgresStore, type PostgresPoolLike, type PostgresSweep } from 'handoff-graph/stores/postgres';
import { RedisStore, type RedisClientLike } from 'handoff-graph/stores/redis';

export async function stores(swarm: Swarm): Promise<void> {
  const client = createClient({ url: 'redis://127.0.0.1:6379' });
  await client.connect();
  const like: RedisClientLike = client;
  const all: SessionStore[] = [
    new MemoryStore(),
    new FileStore('/var/lib/app/sessions', { fsync: false, lockTimeoutMs: 5000, staleLockMs: 60_000, onTornLine: (info: TornLine) => console.warn(info.path, info.line) }),
    new FileStore(new URL('file:///var/lib/app/sessions/')),
    new RedisStore(client, { prefix: 'app:', ttlSeconds: 86_400 }),
    new RedisStore(like),
    new PostgresStore({ pool: new pg.Pool({ connectionString: 'postgres://app@127.0.0.1/app' }) }),
    new PostgresStore({ pool: new pg.Client(), schema: 'app', tablePrefix: '', ttlSeconds: 86_400 }),
  ];
  const session: Session = swarm.createSession();
  for (const store of all) {
    try {
      await store.save(session);
    } catch (error) {
      if (error instanceof ConflictError) {
        const { id, expected, actual, code }: { id: string; expected: number; actual: number; code: 'ERR_SESSION_CONFLICT' } = error;
        void [id, expected, actual, code];
      }
    }
    const loaded: Session | undefined = await store.get(session.id);
    await store.appendCheckpoint(session.id, { turn: loaded?.turn ?? 0 });
    const checkpoints: unknown[] = await store.listCheckpoints(session.id);
    void checkpoints;
  }
  const same: typeof ConflictError = MemoryConflictError;
  void same;
  const file = new FileStore('/tmp/s');
  const { checkpoints, torn }: { checkpoints: unknown[]; torn: TornLine[] } = await file.readCheckpoints('id');
  const removed: string[] = await file.sweep();
  const deleted: boolean = await new MemoryStore().delete('id');
  void [checkpoints, torn, removed, deleted, file.paths('id').lock, new RedisStore(client).keys('id').checkpoints];
  for await (const event of swarm.runTurn(session, 'hi', { model: () => ({ text: 'ok' }), store: new MemoryStore() })) void event;
  const pool: PostgresPoolLike = new pg.Pool();
  const postgres = new PostgresStore({ pool });
  await postgres.migrate();
  const swept: PostgresSweep = await postgres.sweep();
  const table: string = postgres.tables().checkpoints;
  void [swept.leases, table];
  // @ts-expect-error: PostgresStore takes { pool }, not a URL
  new PostgresStore('postgres://127.0.0.1/app');
  // @ts-expect-error: the pool is required
  new PostgresStore({ schema: 'app' });
  // @ts-expect-error: RedisStore takes a node-redis client, not a URL
  new RedisStore('redis://127.0.0.1:6379');
  // @ts-expect-error: FileStore options are checked
  new FileStore('/tmp/s', { fsync: 'yes' });
}
