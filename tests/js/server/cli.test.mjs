// `handoff-graph serve` as a real process (node js/cli.js, the package's bin): usage mistakes
// (status 2, saying what is wrong), definitions and model modules that do not load (status 1),
// the module model, the file store across a restart, the bearer token, a graceful SIGTERM, and
// provider models through 'handoff-graph/adapters' (a clear error while that entry is absent), and
// a turn with each provider's adapter through its real SDK.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { readRequest } from '../../providers/scenario.mjs';
import { startProviderServer } from '../../providers/server.mjs';
import { CLI, MODEL_FILE, SWARM_FILE, readEvents, request, startCli, turn } from './harness.js';

const run = promisify(execFile);
const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));

// Runs the command to its end: { code, stdout, stderr }.
async function cli(args, options = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { timeout: 20_000, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    if (error.code === undefined || typeof error.code !== 'number') throw error;
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

async function directory(t) {
  const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}

async function serving(t, args, options) {
  const server = await startCli(args, options);
  t.after(() => server.stop('SIGKILL'));
  assert.ok(server.url, `the command did not start:\n${server.output().stderr}`);
  return server;
}

describe('usage', () => {
  test('the package bin is js/cli.js, a node script', async () => {
    assert.deepEqual(manifest.bin, { 'handoff-graph': 'js/cli.js' });
    assert.match(await readFile(CLI, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });

  test('--help and no arguments print the usage; --version the version', async () => {
    for (const args of [['--help'], ['-h'], [], ['help']]) {
      const { code, stdout } = await cli(args);
      assert.equal(code, 0, args.join(' '));
      assert.match(stdout, /^Usage: handoff-graph serve <swarm.json> --model <spec>/);
    }
    assert.equal((await cli(['--version'])).stdout, `${manifest.version}\n`);
  });

  test('usage mistakes: status 2 and what is wrong', async () => {
    const cases = [
      [['serve', SWARM_FILE, '--modle', 'x'], /unknown option --modle \(did you mean --model\?\)/],
      [['serve', SWARM_FILE, '--port', '80000', '--model', `module:${MODEL_FILE}`], /--port must be an integer from 0 to 65535, got '80000'/],
      [['serve', SWARM_FILE, '--port', 'http', '--model', `module:${MODEL_FILE}`], /--port must be an integer/],
      [['serve', SWARM_FILE], /--model is required/],
      [['serve', '--model', `module:${MODEL_FILE}`], /serve needs the swarm definition file/],
      [['serve', SWARM_FILE, SWARM_FILE, '--model', `module:${MODEL_FILE}`], /serve takes one definition file, got 2/],
      [['serve', SWARM_FILE, '--model', 'gpt-4'], /--model 'gpt-4': expected module:<file> or <provider>:<model>/],
      [['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--store', 'mysql://x'], /--store 'mysql:\/\/x': expected memory, file:<dir>, redis:\/\/…, rediss:\/\/… or postgres:\/\/…/],
      [['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--store', 'file:'], /the directory is missing/],
      [['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--turn-lease-ms', '50'], /limits.turnLeaseMs must be at least 100/],
      [['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--max-body-bytes', '-1'], /Option '--max-body-bytes' argument is ambiguous/],
      [['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--max-model-calls=1.5'], /--max-model-calls must be an integer from 1/],
      [['deploy'], /unknown command 'deploy'/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await cli(args);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, message, args.join(' '));
      assert.match(stderr, /Usage: handoff-graph serve/);
      assert.equal(stdout, '');
    }
  });

  test('what does not load: status 1 and why', async (t) => {
    const dir = await directory(t);
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ agents: [{ id: 'a' }], edges: [{ from: 'a', to: 'nobody' }] }));
    await writeFile(path.join(dir, 'broken.json'), '{ "agents": [');
    await writeFile(path.join(dir, 'no-model.mjs'), 'export const answer = 42;\n');
    await writeFile(path.join(dir, 'throws.mjs'), "throw new Error('cannot start');\n");
    const model = `module:${MODEL_FILE}`;
    const cases = [
      [['serve', path.join(dir, 'missing.json'), '--model', model], /cannot read the swarm definition .*missing\.json: no such file/],
      [['serve', path.join(dir, 'bad.json'), '--model', model], /bad\.json is not a valid swarm definition:\n  \/edges\/0\/to: .*nobody/],
      [['serve', path.join(dir, 'broken.json'), '--model', model], /broken\.json is not a valid swarm definition:\n  \/: not valid JSON/],
      [['serve', SWARM_FILE, '--model', `module:${path.join(dir, 'no-model.mjs')}`], /must export the model function as its default export or as 'model'/],
      [['serve', SWARM_FILE, '--model', `module:${path.join(dir, 'throws.mjs')}`], /cannot load .*throws\.mjs: cannot start/],
      [['serve', SWARM_FILE, '--model', `module:${path.join(dir, 'absent.mjs')}`], /cannot load .*absent\.mjs/],
      [['serve', SWARM_FILE, '--model', model, '--store', 'redis://127.0.0.1:1'], /--store redis:\/\/127\.0\.0\.1:1: cannot connect: .*ECONNREFUSED/],
      [['serve', SWARM_FILE, '--model', model, '--store', 'postgres://app:secret@127.0.0.1:1/app'], /--store postgres:\/\/…@127\.0\.0\.1:1\/app: cannot use the database: .*ECONNREFUSED/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await cli(args);
      assert.equal(code, 1, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, message, args.join(' '));
      assert.doesNotMatch(stderr, /secret/, 'a password in the URL is never shown');
    }
  });

  test('a taken port: status 1 saying so', async (t) => {
    const first = await serving(t, ['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0']);
    const { port } = new URL(first.url);
    const { code, stderr } = await cli(['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', port]);
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
  });
});

describe('serving', () => {
  test('--model module:FILE (relative to the working directory), memory store: a whole session over HTTP', async (t) => {
    const server = await serving(t, ['serve', path.relative(process.cwd(), SWARM_FILE), '--model', `module:${path.relative(process.cwd(), MODEL_FILE)}`, '--port', '0']);
    assert.match(server.output().stdout, /^handoff-graph: serving swarm 'support' \(2 agents, sessions in memory \(sessions end with the process\)\) at http:\/\/127\.0\.0\.1:\d+\/\n$/);
    const { body } = await request(server.url, 'POST', 'sessions', { variables: { plan: 'gold' } });
    const result = await turn(server.url, body.id, 'Where is my refund?');
    assert.deepEqual(result.events.map((e) => e.event), ['open', 'tool_use', 'handoff', 'tool_result', 'chunk', 'done']);
    assert.equal(result.events.at(-1).data.text, 'Billing here: you said "Where is my refund?".');
    assert.equal((await request(server.url, 'GET', `sessions/${body.id}/checkpoints`)).body.checkpoints.length, 1);
  });

  test('--store file:DIR keeps sessions across a restart; the limits flags apply', async (t) => {
    const dir = await directory(t);
    const args = ['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0', '--store', `file:${dir}`, '--max-body-bytes', '200'];
    const first = await serving(t, args);
    assert.match(first.output().stdout, new RegExp(`sessions in files in ${dir.replaceAll('/', '\\/')}`));
    const { body } = await request(first.url, 'POST', 'sessions', {});
    assert.equal((await turn(first.url, body.id, 'one')).status, 200);
    assert.equal((await request(first.url, 'POST', `sessions/${body.id}/turns`, { input: 'x'.repeat(300) })).status, 413);
    assert.deepEqual(await first.stop('SIGTERM'), { code: 0, signal: null });
    const second = await serving(t, args);
    const result = await turn(second.url, body.id, 'two');
    assert.equal(result.events.at(-1).data.session.version, 3);
    assert.equal(result.events.at(-1).data.session.turn, 2);
    assert.deepEqual((await request(second.url, 'GET', `sessions/${body.id}/checkpoints`)).body.checkpoints.map((c) => c.turn), [1, 2]);
  });

  test('--trace-log FILE: one JSON line per event of every turn served', async (t) => {
    const file = path.join(await directory(t), 'trace.jsonl');
    const server = await serving(t, ['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0', '--trace-log', file]);
    const { body } = await request(server.url, 'POST', 'sessions', {});
    const result = await turn(server.url, body.id, 'Where is my refund?');
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    // The events but chunks, and the recording's lines of model answers and tool runs (docs/replay.md).
    assert.deepEqual(lines.map((l) => l.type).filter((type) => type !== 'model' && type !== 'tool'), result.events.map((e) => e.event).filter((e) => e !== 'chunk'));
    assert.ok(lines.some((l) => l.type === 'model'));
    assert.ok(lines.every((l) => l.session === body.id && l.swarm === 'support'));
    assert.equal((await cli(['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--trace-log', ''])).code, 2);
  });

  test('HANDOFF_GRAPH_TOKEN: every request needs Authorization: Bearer <token>', async (t) => {
    const server = await serving(t, ['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0'], { env: { HANDOFF_GRAPH_TOKEN: 's3cret-token' } });
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Bearer s3cret-toke' }, { authorization: 'Bearer s3cret-tokenX' }, { authorization: 's3cret-token' }]) {
      const refused = await request(server.url, 'POST', 'sessions', {}, headers);
      assert.equal(refused.status, 401, JSON.stringify(headers));
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
      assert.equal(refused.body.error.code, 'unauthorized');
    }
    const created = await request(server.url, 'POST', 'sessions', {}, { authorization: 'Bearer s3cret-token' });
    assert.equal(created.status, 201);
    assert.equal((await request(server.url, 'GET', `sessions/${created.body.id}`)).status, 401);
    assert.equal((await request(server.url, 'GET', `sessions/${created.body.id}`, undefined, { authorization: 'Bearer s3cret-token' })).status, 200);
  });

  test('SIGTERM: the turn under way finishes and is saved, then the process exits 0', async (t) => {
    const dir = await directory(t);
    const server = await serving(t, ['serve', SWARM_FILE, '--model', `module:${MODEL_FILE}`, '--port', '0', '--store', `file:${dir}`]);
    const { body } = await request(server.url, 'POST', 'sessions', {});
    const response = await fetch(new URL(`sessions/${body.id}/turns`, server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"slow:300 please"}' });
    // SIGTERM once the turn has started.
    const { events } = await readEvents(response, ({ event }) => event === 'open' && server.proc.kill('SIGTERM'));
    assert.equal(events.at(-1).event, 'done');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    assert.match(server.output().stdout, /SIGTERM: finishing the turns under way, then stopping/);
    const saved = JSON.parse(await readFile(path.join(dir, `${body.id.replace(/[A-Z]/g, (c) => `^${c.toLowerCase()}`)}.json`), 'utf8'));
    assert.equal(saved.turn, 1);
  });

  test("--model provider:model goes through 'handoff-graph/adapters'", async () => {
    const { code, stderr } = await cli(['serve', SWARM_FILE, '--model', 'openai:gpt-4.1-mini', '--port', '0'], { env: { ...process.env, OPENAI_API_KEY: '' } });
    if (manifest.exports['./adapters'] === undefined) {
      assert.equal(code, 1);
      assert.match(stderr, /--model openai:gpt-4\.1-mini: provider models need the adapters of 'handoff-graph\/adapters', which this version of handoff-graph does not have; write the model function in a module and pass --model module:\.\/model\.mjs/);
    } else {
      // With the adapters present, createModel is asked for { provider: 'openai', model } and,
      // without a key, says which variable to set.
      assert.equal(code, 1, stderr);
      assert.match(stderr, /OPENAI_API_KEY/);
    }
  });
});

// Each provider's adapter through its real SDK, against the local wire-format server: the model
// transfers to billing, whose answer streams back. The tools must go out in the provider's own
// shape (an adapter's model carries its toolFormat; the server once sent every model Chat
// Completions tools, which the Anthropic and Responses adapters refuse).
describe('provider models', () => {
  for (const [spec, path] of [
    ['openai:scripted', '/v1/chat/completions'],
    ['openai-responses:scripted', '/v1/responses'],
    ['anthropic:scripted', '/v1/messages'],
  ]) {
    test(`--model ${spec}: a turn with a transfer, through the real SDK`, { timeout: 60_000 }, async (t) => {
      const providers = await startProviderServer((record) =>
        readRequest(record).system.includes('Handle invoices')
          ? { text: ['Billing ', 'here.'] }
          : { toolCalls: [{ id: `call_${record.index}`, name: 'transfer_to_billing', arguments: {} }] },
      );
      t.after(() => providers.close());
      const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: providers.openaiURL, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: providers.url };
      const server = await serving(t, ['serve', SWARM_FILE, '--model', spec, '--port', '0'], { env });
      const { body } = await request(server.url, 'POST', 'sessions', {});
      const result = await turn(server.url, body.id, 'Where is my invoice?');
      assert.deepEqual(result.events.at(-1), { event: 'done', data: result.events.at(-1).data });
      assert.equal(result.events.at(-1).data.text, 'Billing here.', JSON.stringify(result.events));
      assert.deepEqual(result.events.filter((e) => e.event === 'handoff').map((e) => [e.data.from, e.data.to]), [['triage', 'billing']]);
      assert.deepEqual([...new Set(providers.requests.map((r) => r.path))], [path]);
    });
  }
});
