// A process of tests/js/durable.test.mjs: runs (or resumes) the durable run of the counter machine
// (tests/js/durable-machine.js) in a FileStore or a Redis, printing one line per step (after its
// checkpoint) and the result as JSON at the end. Arguments: run|resume, file|redis, the store's
// directory or URL, the run id, the step to hang at (0: none).
import { init } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { RedisStore } from 'handoff-graph/stores/redis';
import { createClient } from 'redis';

import { counter } from './durable-machine.js';

const [mode, kind, location, runId, hangAt] = process.argv.slice(2);
await init();
let client = null;
let store;
if (kind === 'file') {
  store = new FileStore(location);
} else {
  client = createClient({ url: location });
  await client.connect();
  store = new RedisStore(client);
}
const machine = counter({ hangAt: Number(hangAt) });
const onStep = (record) => process.stdout.write(`step ${record.step}\n`);
const result = mode === 'run' ? await machine.run({}, { store, runId, onStep }) : await machine.resume(runId, { store, onStep });
process.stdout.write(`${JSON.stringify({ result })}\n`);
await client?.quit();
