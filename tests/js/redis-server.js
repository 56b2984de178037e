// A real redis-server from Debian's redis-server package (scripts/setup.sh installs it), started
// on 127.0.0.1 on a free port for a test and stopped after: the stores' tests and the docs' Redis
// snippet use it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port free on 127.0.0.1 at the time of the call. */
export async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

function ping(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d;
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Starts redis-server: { port, url, startedMs, stop() }; a clear error when it is not installed. */
export async function startRedis() {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  server.stderr.setEncoding('utf8').on('data', (d) => (output += d));
  const failed = new Promise((resolve) => {
    server.on('error', (error) => resolve(error));
    server.on('exit', (code, signal) => resolve(new Error(`redis-server exited (${signal ?? `code ${code}`}) before answering PING:\n${output}`)));
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      // The fallback's timer is cleared once the server is gone: a pending 5 s timer kept every
      // test file that started a redis-server alive 5 s past its last test.
      let timer;
      const fallback = new Promise((resolve) => (timer = setTimeout(resolve, 5000))).then(() => server.kill('SIGKILL'));
      await Promise.race([once(server, 'exit'), fallback]);
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const started = performance.now();
  for (;;) {
    const outcome = await Promise.race([failed, ping(port).then((ok) => (ok ? 'up' : null))]);
    if (outcome === 'up') break;
    if (outcome instanceof Error) {
      await rm(dir, { recursive: true, force: true });
      if (outcome.code === 'ENOENT') {
        throw new Error('redis-server is not installed, and the RedisStore tests need a real one: run `bash scripts/setup.sh` (it installs the Debian package redis-server), or `apt-get install redis-server`');
      }
      throw outcome;
    }
    if (performance.now() - started > 10_000) {
      await stop();
      throw new Error(`redis-server on 127.0.0.1:${port} did not answer PING within 10 s:\n${output}`);
    }
    await sleep(20);
  }
  return { port, url: `redis://127.0.0.1:${port}`, startedMs: performance.now() - started, stop };
}
