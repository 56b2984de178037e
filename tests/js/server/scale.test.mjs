// Scale-out on Redis (tests/js/server/scale-suite.js): a redis-server from Debian on 127.0.0.1 and
// two `handoff-graph serve --store redis://…` processes sharing it.
import { createClient } from 'redis';

import { startRedis } from './harness.js';
import { scaleSuite } from './scale-suite.js';

scaleSuite('Redis', {
  async start() {
    const redis = await startRedis();
    const client = createClient({ url: redis.url });
    client.on('error', () => {});
    await client.connect();
    return {
      url: redis.url,
      leaseHeld: async (id) => (await client.exists(`handoff-graph:{${id}}:lease`)) === 1,
      leases: async () => (await client.keys('handoff-graph:*:lease')).length,
      stop: async () => {
        await client.quit().catch(() => {});
        await redis.stop();
      },
    };
  },
});
