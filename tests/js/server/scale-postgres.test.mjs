// Scale-out on PostgreSQL (tests/js/server/scale-suite.js): a PostgreSQL server from Debian's
// postgresql package on 127.0.0.1 (tests/js/postgres-server.js) and two `handoff-graph serve
// --store postgres://…` processes sharing it. A lease is a row of handoff_graph_leases; it is live
// while its expiry, by the database's clock, is ahead.
import pg from 'pg';

import { startPostgres } from '../postgres-server.js';
import { scaleSuite } from './scale-suite.js';

scaleSuite('PostgreSQL', {
  async start() {
    const server = await startPostgres();
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    pool.on('error', () => {});
    const live = 'expires_at > clock_timestamp()';
    return {
      url: server.url,
      leaseHeld: async (id) => (await pool.query(`SELECT 1 FROM handoff_graph_leases WHERE session_id = $1 AND ${live}`, [id])).rows.length === 1,
      // Every row, live or not: a lease given back is deleted, and the killed process's expired one
      // was taken over by the retry and given back in its turn.
      leases: async () => (await pool.query('SELECT count(*)::int AS n FROM handoff_graph_leases')).rows[0].n,
      stop: async () => {
        await pool.end().catch(() => {});
        await server.stop();
      },
    };
  },
});
