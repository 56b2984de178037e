// A real PostgreSQL server from Debian's postgresql package (scripts/setup.sh installs it), made by
// initdb in a temporary directory and started on 127.0.0.1 on a free port for a test, stopped and
// removed after: the PostgresStore tests, the server's scale test and the docs' snippet use it.
// PostgreSQL refuses to run as root: as root, initdb and postgres run as the `postgres` user the
// package creates (the directory is given to it); as anyone else, as that user.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

import { freePort } from './redis-server.js';

const run = promisify(execFile);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const MISSING = 'PostgreSQL is not installed, and the PostgresStore tests need a real server: run `bash scripts/setup.sh` (it installs the Debian package postgresql), or `apt-get install postgresql`';

/** The directory of initdb and postgres: Debian keeps them in /usr/lib/postgresql/<major>/bin, off the PATH. */
function binDirectory() {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, 'bin', 'postgres'))) : [];
  if (majors.length === 0) throw new Error(MISSING);
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return path.join(root, newest, 'bin');
}

/** uid and gid of the `postgres` user, when this process is root (PostgreSQL will not run as root). */
async function runAs() {
  if (process.getuid?.() !== 0) return {};
  let ids;
  try {
    ids = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  } catch {
    throw new Error(`the user 'postgres' does not exist, and as root the tests run PostgreSQL as that user: ${MISSING}`);
  }
  return { uid: Number(ids[0].stdout), gid: Number(ids[1].stdout) };
}

/**
 * Starts a PostgreSQL server of its own: { port, url, startedMs, version, stop() }. `url` connects
 * as the superuser `postgres` (trust authentication, 127.0.0.1 only) to the database `postgres`.
 */
export async function startPostgres() {
  const bin = binDirectory();
  const user = await runAs();
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-postgres-'));
  const data = path.join(dir, 'data');
  const cleanup = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  const started = performance.now();
  try {
    if (user.uid !== undefined) await chown(dir, user.uid, user.gid);
    await run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], { ...user, cwd: dir, env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    await cleanup();
    throw new Error(`initdb failed: ${error.stderr || error.message}`);
  }
  const port = await freePort();
  // fsync off: a test server's data is thrown away (a SIGKILLed *client* is what the tests kill).
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
  const server = spawn(path.join(bin, 'postgres'), args, { ...user, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  server.stderr.setEncoding('utf8').on('data', (d) => (output += d));
  const failed = new Promise((resolve) => {
    server.on('error', (error) => resolve(error));
    server.on('exit', (code, signal) => resolve(new Error(`postgres exited (${signal ?? `code ${code}`}) before accepting connections:\n${output}`)));
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      // SIGINT: PostgreSQL's fast shutdown (ends the sessions, no waiting for clients).
      server.kill('SIGINT');
      // The fallback's timer is cleared once the server is gone, so it keeps no process alive.
      let timer;
      const fallback = new Promise((resolve) => (timer = setTimeout(resolve, 10_000))).then(() => server.kill('SIGKILL'));
      await Promise.race([once(server, 'exit'), fallback]);
      clearTimeout(timer);
    }
    await cleanup();
  };
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const ready = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query('SHOW server_version');
      return rows[0].server_version;
    } catch {
      return null;
    } finally {
      await client.end().catch(() => {});
    }
  };
  for (;;) {
    const outcome = await Promise.race([failed, ready()]);
    if (typeof outcome === 'string') return { port, url, version: outcome, startedMs: performance.now() - started, stop };
    if (outcome instanceof Error) {
      await cleanup();
      throw outcome;
    }
    if (performance.now() - started > 30_000) {
      await stop();
      throw new Error(`postgres on 127.0.0.1:${port} did not accept connections within 30 s:\n${output}`);
    }
    await sleep(50);
  }
}
