// The session stores' typings (js/stores/*.d.ts), as a user imports them, against the real
// `redis` client type. Type-checked (never run) by tests/js/sdk-types.test.mjs.
import { createClient } from 'redis';

import { Swarm, type Session, type SessionStore } from 'handoff-graph';
import { FileStore, ConflictError, type TornLine } from 'handoff-graph/stores/file';
import { MemoryStore, ConflictError as MemoryConflictError } from 'handoff-graph/stores/memory';
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
  // @ts-expect-error: RedisStore takes a node-redis client, not a URL
  new RedisStore('redis://127.0.0.1:6379');
  // @ts-expect-error: FileStore options are checked
  new FileStore('/tmp/s', { fsync: 'yes' });
}
