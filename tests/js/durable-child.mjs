// A process of tests/js/durable.test.mjs: runs (or resumes) the durable run of the counter machine
// (tests/js/durable-machine.js) in a FileStore, a Redis or a PostgreSQL, printing one line per step (after its
// checkpoint) and the result as JSON at the end. Arguments: run|resume, file|redis|postgres, the
// store's directory or URL, the run id, the step to hang at (0: none).
import { init } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { PostgresStore } from 'handoff-graph/stores/postgres';
import { RedisStore } from 'handoff-graph/stores/redis';
import pg from 'pg';
import { createClient } from 'redis';

import { counter } from './durable-machine.js';

const [mode, kind, location, runId, hangAt] = process.argv.slice(2);
await init();
let client = null;
let store;
if (kind === 'file') {
  store = new FileStore(location);
} else if (kind === 'postgres') {
  client = new pg.Pool({ connectionString: location });
  store = new PostgresStore({ pool: client });
} else {
  client = createClient({ url: location });
  await client.connect();
  store = new RedisStore(client);
}
const machine = counter({ hangAt: Number(hangAt) });
const onStep = (record) => process.stdout.write(`step ${record.step}\n`);
const result = mode === 'run' ? await machine.run({}, { store, runId, onStep }) : await machine.resume(runId, { store, onStep });
process.stdout.write(`${JSON.stringify({ result })}\n`);
await (kind === 'postgres' ? client.end() : client?.quit());
