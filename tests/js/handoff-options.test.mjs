// Every options object of the Swarm API and of the session stores rejects unknown keys (issue 13):
// a typo is a TypeError that names the key, lists the allowed ones and suggests the closest, and
// nothing has changed when it is thrown. Wrong argument types and counts say what is missing.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { init, Swarm } from 'handoff-graph';
import { FileStore } from 'handoff-graph/stores/file';
import { MemoryStore } from 'handoff-graph/stores/memory';
import { PostgresStore } from 'handoff-graph/stores/postgres';
import { RedisStore } from 'handoff-graph/stores/redis';

await init();

const definition = {
  agents: [{ id: 'a', entry: true, tools: [{ name: 'look', description: 'Look' }] }, { id: 'b' }],
  edges: [{ from: 'a', to: 'b' }],
};

/** assert.throws for a TypeError whose message is exactly `message` (a string) or matches it. */
function throwsType(fn, message) {
  assert.throws(fn, (error) => {
    assert.equal(error.name, 'TypeError', error.message);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe('Swarm options', () => {
  test('an unknown key of the constructor options is a TypeError with a suggestion', () => {
    throwsType(
      () => new Swarm(definition, { handler: {} }),
      "Swarm options: unknown option 'handler' (did you mean 'handlers'?); allowed: contexts, handlers, mocks, instructions, reducers, state, extractVariables, extractIntents, inputGuardrails, outputGuardrails, tracing, traceLogPath, workflows, agentTools, mcp",
    );
    throwsType(() => Swarm.fromJSON(definition, { extractVariable: () => ({}) }), /unknown option 'extractVariable' \(did you mean 'extractVariables'\?\)/);
    throwsType(() => new Swarm(definition, { [Symbol('x')]: 1 }), /unknown option Symbol\(x\)/);
    throwsType(() => new Swarm(definition, 'handlers'), 'Swarm options must be an object, got string handlers');
  });

  test('the state hooks are a fixed set: a typo there is caught too', () => {
    throwsType(
      () => new Swarm(definition, { state: { validat: () => true } }),
      "Swarm options.state: unknown option 'validat' (did you mean 'validate'?); allowed: normalize, validate",
    );
    throwsType(() => new Swarm(definition, { state: { normalize: 'upper' } }), 'options.state.normalize must be a function, got string upper');
    throwsType(() => new Swarm(definition, { handlers: { look: 'yes' } }), 'options.handlers.look must be a function, got string yes');
    throwsType(() => new Swarm(definition, { contexts: [] }), 'options.contexts must be an object, got an array');
  });

  test('a missing definition says so', () => {
    throwsType(() => new Swarm(), 'new Swarm(definition, options): the definition is missing');
  });

  test('createSession options', () => {
    const swarm = new Swarm(definition);
    throwsType(() => swarm.createSession({ variable: { x: 1 } }), "createSession options: unknown option 'variable' (did you mean 'variables'?); allowed: id, variables");
    throwsType(() => swarm.createSession({ id: 5 }), 'createSession: id must be a non-empty string, got number 5');
    throwsType(() => swarm.createSession({ id: '' }), /id must be a non-empty string/);
    assert.equal(swarm.createSession({ id: 's1' }).id, 's1');
  });

  test('tools() options', () => {
    const swarm = new Swarm(definition);
    const session = swarm.createSession();
    throwsType(() => swarm.tools(session, 'ai-sdk', { jsonschema: (s) => s }), "tools options: unknown option 'jsonschema' (did you mean 'jsonSchema'?); allowed: jsonSchema");
    throwsType(() => swarm.tools(session, 'ai-sdk', { jsonSchema: 1 }), "jsonSchema must be the jsonSchema function from 'ai'");
    throwsType(() => swarm.tools(), 'tools: expected a session from swarm.createSession(), got nothing');
  });

  test('runTurn options: checked before the turn changes anything', async () => {
    const swarm = new Swarm(definition);
    const session = swarm.createSession();
    const before = structuredClone(session);
    const model = () => ({ text: 'hi' });
    const attempts = [
      [{ model, maxModelCall: 3 }, "runTurn options: unknown option 'maxModelCall' (did you mean 'maxModelCalls'?); allowed: model, toolFormat, jsonSchema, maxModelCalls, signal, store, toolState, agentConfig, statusEvents"],
      [{ model, toolformat: 'anthropic' }, /unknown option 'toolformat' \(did you mean 'toolFormat'\?\)/],
      [{ model, toolFormat: 'gemini' }, /toolFormat must be one of openai-responses, openai-chat, anthropic, ai-sdk, got string gemini/],
      [{ model, maxModelCalls: -1 }, /maxModelCalls must be an integer >= 0, got number -1/],
      [{ model, signal: {} }, /signal must be an AbortSignal/],
      [{ model, store: {} }, /store must be a session store/],
      [{ modl: model }, /unknown option 'modl' \(did you mean 'model'\?\)/],
      [undefined, /runTurn needs \{ model \}/],
    ];
    for (const [options, message] of attempts) {
      await assert.rejects(async () => {
        for await (const e of swarm.runTurn(session, 'x', options)) void e;
      }, (error) => error instanceof TypeError && (typeof message === 'string' ? error.message === message : message.test(error.message)));
    }
    await assert.rejects(async () => {
      for await (const e of swarm.runTurn(session)) void e;
    }, { name: 'TypeError', message: 'runTurn(session, input, { model }): input must be a string, got nothing' });
    await assert.rejects(async () => {
      for await (const e of swarm.runTurn()) void e;
    }, { name: 'TypeError', message: 'runTurn(session, input, { model }): expected a session from swarm.createSession(), got nothing' });
    assert.deepEqual(session, before, 'no refused call changed the session');
  });

  test('other calls say what is missing', () => {
    const swarm = new Swarm(definition);
    const session = swarm.createSession();
    throwsType(() => swarm.applyToolCall(session), 'applyToolCall(session, call): a tool call is { name, arguments }, got nothing');
    throwsType(() => swarm.applyToolCall(), 'applyToolCall: expected a session from swarm.createSession(), got nothing');
    throwsType(() => swarm.updateState(session), 'updateState(session, variables): variables must be an object, got nothing');
    throwsType(() => swarm.applyRules({}), 'applyRules: expected a session from swarm.createSession(), got an object');
  });
});

describe('store options', () => {
  test('MemoryStore takes no options', () => {
    throwsType(() => new MemoryStore({ prefix: 'x' }), "MemoryStore options: unknown option 'prefix'; it takes no options");
    assert.ok(new MemoryStore() instanceof MemoryStore);
  });

  test('FileStore options', async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-options-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    throwsType(() => new FileStore(dir, { fsynch: false }), "FileStore options: unknown option 'fsynch' (did you mean 'fsync'?); allowed: fsync, lockTimeoutMs, staleLockMs, onTornLine");
    throwsType(() => new FileStore(dir, { lockTimeout: 5 }), /unknown option 'lockTimeout' \(did you mean 'lockTimeoutMs'\?\)/);
    throwsType(() => new FileStore(dir, { fsync: 'no' }), 'FileStore options.fsync must be a boolean, got string no');
    throwsType(() => new FileStore(dir, { lockTimeoutMs: -1 }), 'FileStore options.lockTimeoutMs must be a number >= 0, got number -1');
    throwsType(() => new FileStore(dir, { staleLockMs: Number.NaN }), /staleLockMs must be a number >= 0, got number NaN/);
    throwsType(() => new FileStore(), 'new FileStore(directory, options): the directory is missing');
    assert.ok(new FileStore(dir, { fsync: false, lockTimeoutMs: 10, staleLockMs: 100, onTornLine: () => {} }) instanceof FileStore);
  });

  test('RedisStore options', () => {
    const client = { eval() {}, hGet() {}, lRange() {}, del() {} };
    throwsType(() => new RedisStore(client, { ttl: 60 }), "RedisStore options: unknown option 'ttl'; allowed: prefix, ttlSeconds");
    throwsType(() => new RedisStore(client, { prefx: 'a:' }), /unknown option 'prefx' \(did you mean 'prefix'\?\)/);
    throwsType(() => new RedisStore(), 'new RedisStore(client, options): the client is missing: pass a connected client of the npm redis package (createClient())');
    assert.ok(new RedisStore(client, { prefix: 'a:', ttlSeconds: 5 }) instanceof RedisStore);
  });

  test('PostgresStore options', () => {
    const pool = { query: async () => ({ rows: [] }) };
    throwsType(() => new PostgresStore({ pool, ttl: 60 }), "PostgresStore options: unknown option 'ttl'; allowed: pool, schema, tablePrefix, ttlSeconds");
    throwsType(() => new PostgresStore({ pool, tablePrefx: 'a_' }), /unknown option 'tablePrefx' \(did you mean 'tablePrefix'\?\)/);
    throwsType(() => new PostgresStore({ pol: pool }), /unknown option 'pol' \(did you mean 'pool'\?\)/);
    throwsType(() => new PostgresStore(), 'new PostgresStore({ pool }): the options are missing: pass { pool: new Pool(...) } (the npm package pg)');
    assert.ok(new PostgresStore({ pool, schema: 'app', tablePrefix: 'hg_', ttlSeconds: 5 }) instanceof PostgresStore);
  });
});

test('store methods say what is missing', async () => {
  const store = new MemoryStore();
  await assert.rejects(store.get(), { name: 'TypeError', message: 'a session id is a non-empty string, got nothing' });
  await assert.rejects(store.save(), { name: 'TypeError', message: 'save() takes a session object, got nothing' });
  await assert.rejects(store.save({ id: 'x' }), { name: 'TypeError', message: "session 'x' has no version: a session's version is an integer >= 0 (0 before its first save)" });
});
