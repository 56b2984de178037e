// `node bench/server.mjs`: what handoff-graph/server costs on top of the model. A scripted model
// (bench/server-model.mjs) waits a fixed delay per call and reports how long it really took; a
// client in this process runs turns over HTTP against `handoff-graph serve` in child processes,
// and a turn's "added latency" is the time from sending the request to receiving `done`, minus
// the time its model calls took. So it holds everything but the model: HTTP both ways, JSON, the
// store (get, lease, save with checkpoints, release), the routing, the events, and this client.
//
//   answer  one model call, no handoff: the smallest turn
//   handoff the model transfers, the new agent answers: two model calls and one checkpoint
//
// Sequential turns give the latency; concurrent sessions (each running turns back to back, a new
// session every 20 turns) give turns per second. Stores: memory, file (fsync on), Redis
// (Debian's redis-server, started here) and PostgreSQL (Debian's postgresql, initdb'd and started
// here, fsync off as tests/js/postgres-server.js runs it), one server process, and two processes on
// one Redis and on one PostgreSQL.
// The in-process row runs createHandler without HTTP or a child process.
//
// Usage: node bench/server.mjs [--smoke] [--json FILE] [--write]
//   --smoke  a few turns of each kind on the memory store (npm test runs it; the figures mean nothing)
//   --write  puts the tables in BENCHMARKS.md, between its server-bench markers, and the figures
//            in bench/server-results.json (unless --json says where)
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, Swarm } from 'handoff-graph';
import { createHandler } from 'handoff-graph/server';
import { MemoryStore } from 'handoff-graph/stores/memory';

import { startPostgres } from '../tests/js/postgres-server.js';
import { startRedis } from '../tests/js/redis-server.js';
import { machine } from './harness.mjs';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const write = args.includes('--write');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : write ? fileURLToPath(new URL('server-results.json', import.meta.url)) : null;

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = path.join(ROOT, 'js/cli.js');
const SWARM = path.join(ROOT, 'tests/js/server/fixtures/swarm.json');
const MODEL = fileURLToPath(new URL('server-model.mjs', import.meta.url));
const settings = smoke
  ? { delayMs: 1, sequential: 10, concurrency: 4, seconds: 1, warmup: 5 }
  : { delayMs: 10, sequential: 500, concurrency: 64, seconds: 8, warmup: 50 };
const TURNS_PER_SESSION = 20;
process.env.BENCH_MODEL_DELAY_MS = String(settings.delayMs);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function startServer(store) {
  const proc = spawn(process.execPath, [CLI, 'serve', SWARM, '--model', `module:${MODEL}`, '--port', '0', '--store', store], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  let out = '';
  proc.stdout.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => {
      out += d;
      const found = /at (http:\/\/\S+)\n/.exec(out);
      if (found) resolve(found[1]);
    });
    proc.on('exit', (code) => reject(new Error(`the server exited (${code}) before serving`)));
  });
  return { url, stop: async () => (proc.kill('SIGTERM'), once(proc, 'exit')) };
}

// A client of one server (a base URL), or of the in-process handler.
function httpClient(base) {
  return (route, init) => fetch(new URL(route, base), init);
}

function inProcessClient(handler) {
  return (route, init) => handler(new Request(new URL(route, 'http://in-process/'), init));
}

async function createSession(call) {
  const response = await call('sessions', { method: 'POST' });
  if (response.status !== 201) throw new Error(`POST /sessions: ${response.status}`);
  return (await response.json()).id;
}

// One turn: { totalMs, modelMs }. The model's times come back in the tool call ids and the text.
async function runTurn(call, id, kind) {
  const started = performance.now();
  const response = await call(`sessions/${id}/turns`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: kind }) });
  const text = await response.text();
  const totalMs = performance.now() - started;
  if (response.status !== 200 || !text.includes('event: done')) throw new Error(`turn: ${response.status} ${text.slice(-300)}`);
  let modelMs = 0;
  let calls = 0;
  for (const m of text.matchAll(/model-ms=([\d.]+)/g)) {
    modelMs += Number(m[1]);
    calls++;
  }
  // The tool call id appears in tool_use and tool_result, the text in chunk and done: each twice.
  return { totalMs, modelMs: modelMs / 2, calls: calls / 2 };
}

// Added latency = the turn's time minus the model's nominal time (calls × delay): a timer that
// fires late because the server's event loop was busy is the server's doing, as a provider's
// answer read late would be. `modelP50` is what the model calls measured (the timers' own slack).
function summarize(samples) {
  const added = samples.map((s) => s.totalMs - s.calls * settings.delayMs).sort((a, b) => a - b);
  const model = samples.map((s) => s.modelMs).sort((a, b) => a - b);
  return { turns: samples.length, p50: percentile(added, 50), p99: percentile(added, 99), modelP50: percentile(model, 50), nominalModelMs: samples[0].calls * settings.delayMs };
}

async function sequential(call, kind) {
  let id = await createSession(call);
  for (let i = 0; i < settings.warmup; i++) await runTurn(call, id, kind);
  const samples = [];
  for (let i = 0; i < settings.sequential; i++) {
    if (i % TURNS_PER_SESSION === 0) id = await createSession(call);
    samples.push(await runTurn(call, id, kind));
  }
  return summarize(samples);
}

async function concurrent(calls, kind) {
  const until = performance.now() + settings.seconds * 1000;
  const samples = [];
  const worker = async (w) => {
    const call = calls[w % calls.length];
    while (performance.now() < until) {
      const id = await createSession(call);
      for (let i = 0; i < TURNS_PER_SESSION && performance.now() < until; i++) samples.push(await runTurn(call, id, kind));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: settings.concurrency }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  return { ...summarize(samples), concurrency: settings.concurrency, seconds, perSecond: samples.length / seconds };
}

// The scale tests' scenario (tests/js/server/scale-suite.js) measured: RACE_SESSIONS sessions at
// once, RACE_ROUNDS handoff turns each, every turn sent at the same moment to both processes (so
// one runs it and the other answers 409 turn_in_progress, or both run it, one after the other);
// then each session's checkpoint log is read: one checkpoint per turn that ran, none lost or twice.
const RACE_SESSIONS = smoke ? 4 : 100;
const RACE_ROUNDS = 5;
async function raced(setup, calls) {
  const started = performance.now();
  let ran = 0;
  let refused = 0;
  let wrongLogs = 0;
  await Promise.all(
    Array.from({ length: RACE_SESSIONS }, async (_, i) => {
      const id = await createSession(calls[i % 2]);
      let mine = 0;
      for (let round = 0; round < RACE_ROUNDS; round++) {
        const statuses = await Promise.all(
          [0, 1].map(async (k) => {
            const response = await calls[(i + round + k) % 2](`sessions/${id}/turns`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"handoff"}' });
            const text = await response.text();
            if (response.status === 200 && !text.includes('event: done')) throw new Error(`raced turn: ${text.slice(-300)}`);
            return response.status;
          }),
        );
        for (const status of statuses) {
          if (status === 200) mine++;
          else if (status === 409) refused++;
          else throw new Error(`raced turn: status ${status}`);
        }
      }
      ran += mine;
      const { checkpoints } = await (await calls[0](`sessions/${id}/checkpoints`)).json();
      if (checkpoints.length !== mine || checkpoints.some((c, k) => c.turn !== k + 1)) wrongLogs++;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const row = { setup, sessions: RACE_SESSIONS, rounds: RACE_ROUNDS, ran, refused, wrongLogs, seconds, perSecond: ran / seconds };
  results.raced.push(row);
  console.log(`${setup.padEnd(34)} raced     ${RACE_SESSIONS} sessions × ${RACE_ROUNDS}: ${ran} turns ran, ${refused} got 409, ${wrongLogs} wrong logs, ${seconds.toFixed(1)} s (${row.perSecond.toFixed(0)} turns/s)`);
  if (wrongLogs > 0) throw new Error(`${setup}: ${wrongLogs} sessions lost or repeated a checkpoint`);
}

const results = { date: new Date().toISOString(), host: machine(), settings, rows: [], raced: [], loadBefore: loadavg()[0] };
try {
  results.commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  results.commit = null;
}

function report(row) {
  results.rows.push(row);
  const f = (x) => x.toFixed(2).padStart(7);
  const rate = row.perSecond === undefined ? '' : `  ${row.perSecond.toFixed(0).padStart(5)} turns/s at ${row.concurrency} sessions`;
  console.log(`${row.setup.padEnd(34)} ${row.kind.padEnd(8)} ${row.mode.padEnd(10)} added p50 ${f(row.p50)} ms  p99 ${f(row.p99)} ms  (${row.turns} turns, model p50 ${row.modelP50.toFixed(1)} ms)${rate}`);
}

async function measureSetup(setup, calls, kinds = ['answer', 'handoff']) {
  for (const kind of kinds) report({ setup, kind, mode: 'sequential', ...(await sequential(calls[0], kind)) });
  report({ setup, kind: 'handoff', mode: 'concurrent', ...(await concurrent(calls, 'handoff')) });
}

await init();
console.log(`model: ${settings.delayMs} ms per call; ${smoke ? 'smoke run' : `${settings.sequential} sequential turns, ${settings.concurrency} concurrent sessions for ${settings.seconds} s`}`);

{
  const swarm = new Swarm(await readFile(SWARM, 'utf8'));
  const { default: model } = await import(MODEL);
  const handler = createHandler({ swarm, store: new MemoryStore(), model });
  await measureSetup('in-process handler, memory', [inProcessClient(handler)]);
  swarm.dispose();
}

const stores = [['memory', 'memory', null]];
if (!smoke) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-bench-files-'));
  stores.push(['file (fsync)', `file:${dir}`, () => rm(dir, { recursive: true, force: true })]);
}
for (const [name, spec, cleanup] of stores) {
  const server = await startServer(spec);
  await measureSetup(`1 process, ${name}`, [httpClient(server.url)]);
  await server.stop();
  await cleanup?.();
}
if (!smoke) {
  const redis = await startRedis();
  results.redis = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=(\S+)/)?.[1];
  const one = await startServer(redis.url);
  await measureSetup('1 process, Redis', [httpClient(one.url)]);
  const two = await startServer(redis.url);
  report({ setup: '2 processes, one Redis', kind: 'handoff', mode: 'concurrent', ...(await concurrent([httpClient(one.url), httpClient(two.url)], 'handoff')) });
  await raced('2 processes, one Redis', [httpClient(one.url), httpClient(two.url)]);
  await Promise.all([one.stop(), two.stop()]);
  await redis.stop();

  const postgres = await startPostgres();
  results.postgres = postgres.version.split(' ')[0];
  const first = await startServer(postgres.url);
  await measureSetup('1 process, PostgreSQL', [httpClient(first.url)]);
  const second = await startServer(postgres.url);
  report({ setup: '2 processes, one PostgreSQL', kind: 'handoff', mode: 'concurrent', ...(await concurrent([httpClient(first.url), httpClient(second.url)], 'handoff')) });
  await raced('2 processes, one PostgreSQL', [httpClient(first.url), httpClient(second.url)]);
  await Promise.all([first.stop(), second.stop()]);
  await postgres.stop();
}

results.loadAfter = loadavg()[0];
console.log(`load average (1 min): ${results.loadBefore.toFixed(2)} before, ${results.loadAfter.toFixed(2)} after`);
if (jsonOut) await writeFile(jsonOut, `${JSON.stringify(results, null, 2)}\n`);

function markdown() {
  const { host, settings: s } = results;
  const ms = (x) => `${x.toFixed(2)} ms`;
  const lines = [
    '## HTTP server (handoff-graph/server)',
    '',
    `Measured ${results.date.slice(0, 10)} on ${host.cpu} (${host.cores} cores), Node ${host.node}, ${host.platform}${results.commit ? `, commit ${results.commit}` : ''}${results.redis ? `, redis-server ${results.redis}` : ''}${results.postgres ? `, PostgreSQL ${results.postgres} (fsync off)` : ''}. ` +
      `The machine's load average (1 min) was ${results.loadBefore.toFixed(2)} before the run and ${results.loadAfter.toFixed(2)} after (other jobs shared it). ` +
      'Reproduce with `node bench/server.mjs --write` (`--smoke` is the quick run of `npm test`).',
    '',
    `A scripted model waits ${s.delayMs} ms per call and reports how long it really took; a client in the benchmark's process runs turns over HTTP ` +
      'against `handoff-graph serve` in child processes (the client, the servers and the database share the same cores). **Added latency** is the time from sending ' +
      '`POST /sessions/:id/turns` to receiving `done`, minus the model\'s nominal time (calls × delay): HTTP both ways, JSON, the store (read, lease, ' +
      'version-checked save with the checkpoints, release), routing and events, and the client. An *answer* turn is one model call; a *handoff* turn is two ' +
      `(the transfer, then the new agent's answer) and one checkpoint. The model's timers firing late count as added latency (a busy event loop reads a provider's answer late too); ` +
      'the measured model time is what the model calls took by their own clock. ' +
      `Sequential: ${s.sequential} turns one after the other. Concurrent: ${s.concurrency} sessions ` +
      `running turns back to back for ${s.seconds} s (a new session every ${TURNS_PER_SESSION} turns); turns per second are completed turns over that time.`,
    '',
    '| setup | turn | run | added p50 | added p99 | model: nominal / measured p50 | turns | turns/s |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...results.rows.map((r) => `| ${r.setup} | ${r.kind} | ${r.mode === 'concurrent' ? `${r.concurrency} sessions at once` : 'sequential'} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.nominalModelMs} / ${r.modelP50.toFixed(1)} ms | ${r.turns} | ${r.perSecond === undefined ? '–' : r.perSecond.toFixed(0)} |`),
    '',
    `For scale: at ${s.delayMs} ms per call, ${s.concurrency} sessions at once would complete ${Math.round((s.concurrency * 1000) / (2 * s.delayMs))} handoff turns per second ` +
      `if the server, the store and the client cost nothing; here they shared ${host.cores} cores with each other (and with the other jobs the load average counts).`,
  ];
  if (results.raced.length > 0) {
    lines.push(
      '',
      `**Raced turns** (the scenario of the scale tests, tests/js/server/scale.test.mjs and scale-postgres.test.mjs): ${RACE_SESSIONS} sessions at once, ` +
        `${RACE_ROUNDS} handoff turns each, every turn sent at the same moment to both server processes, so that one runs it and the other answers 409 ` +
        "`turn_in_progress` (or both run it, one after the other); then every session's checkpoint log is read back: one checkpoint per turn that ran, in order.",
      '',
      '| setup | sessions × turns | turns ran | answered 409 | logs with a checkpoint lost or repeated | time | turns/s |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...results.raced.map((r) => `| ${r.setup} | ${r.sessions} × ${r.rounds} | ${r.ran} | ${r.refused} | ${r.wrongLogs} | ${r.seconds.toFixed(1)} s | ${r.perSecond.toFixed(0)} |`),
    );
  }
  return lines.join('\n');
}

if (write) {
  if (smoke) throw new Error('--write with --smoke: the smoke figures mean nothing');
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const page = await readFile(file, 'utf8');
  const section = `<!-- server-bench:begin (written by bench/server.mjs --write) -->\n${markdown()}\n<!-- server-bench:end -->`;
  const marked = /<!-- server-bench:begin[^>]*-->[\s\S]*?<!-- server-bench:end -->/;
  await writeFile(file, marked.test(page) ? page.replace(marked, section) : `${page.trimEnd()}\n\n${section}\n`);
  console.log('wrote the server section of BENCHMARKS.md');
}
