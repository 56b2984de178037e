#!/usr/bin/env node
// @ts-check
// The `handoff-graph` command (the package's bin):
//   handoff-graph serve swarm.json --model <spec> [--store postgres://…|redis://…|file:DIR|memory] [--host H] [--port P]
// serves a swarm definition file over HTTP with handoff-graph/server (docs/server.md#the-command);
//   handoff-graph check FILE… [--strict] [--json]
// checks definitions (js/cli-check.js, docs/check.md#the-command);
//   handoff-graph replay DEFINITION RECORDING… [--json]
// replays recorded sessions against a definition (js/cli-replay.js, docs/replay.md#the-command);
//   handoff-graph mcp swarm.json [--store …] [--model …] [--http PORT]
// serves a swarm over MCP (js/cli-mcp.js, docs/mcp.md).
// Usage mistakes exit with status 2 and say what is wrong; failures to start exit with status 1.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { CHECK_USAGE, CheckUsageError, checkCommand } from './cli-check.js';
import { MCP_USAGE, McpUsageError, mcpCommand } from './cli-mcp.js';
import { REPLAY_USAGE, ReplayUsageError, replayCommand } from './cli-replay.js';
import { DefinitionError, init, Swarm } from './node.js';
import { closest } from './options.js';
import { createHandler, DEFAULT_LIMITS, serve } from './server/index.js';
import { MemoryStore } from './stores/memory.js';

const USAGE = `Usage: handoff-graph serve <swarm.json> --model <spec> [options]

Serves a swarm definition over HTTP (docs/server.md).

  --model <spec>        the model behind the agents:
                          module:./model.mjs   a module whose default export (or export 'model')
                                               is the model function ({ agent, messages, tools })
                          <provider>:<model>   a provider adapter of 'handoff-graph/adapters',
                                               e.g. openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5
  --store <spec>        where sessions live: memory (default: lost when the process ends),
                        file:<dir> (one host), redis://host:port[/db] or rediss://… (any number of
                        servers; needs the npm package 'redis'), postgres://user@host:port/db or
                        postgresql://… (any number of servers; needs the npm package 'pg')
  --mcp-config <file>   connect the MCP servers the agents name (mcpServers) from a configuration
                        in the shape MCP hosts share: { "mcpServers": { name: { command, args, env }
                        or { url, headers } } } (docs/mcp.md; needs @modelcontextprotocol/sdk)
  --trace-log <file>    append one JSON line per event of every turn to <file>
                        (spans: register an OpenTelemetry SDK, e.g. node --import; docs/server.md#tracing)
  --host <host>         default 127.0.0.1
  --port <port>         default 8787; 0 picks a free port
  --max-body-bytes <n>  default ${DEFAULT_LIMITS.maxBodyBytes}
  --max-model-calls <n> per turn, default ${DEFAULT_LIMITS.maxModelCalls}
  --turn-lease-ms <n>   a turn's lease on its session, default ${DEFAULT_LIMITS.turnLeaseMs}
  --turn-timeout-ms <n> default ${DEFAULT_LIMITS.turnTimeoutMs}
  -h, --help            this text
  -v, --version         the package version

When the environment variable HANDOFF_GRAPH_TOKEN is set, every request must carry
'Authorization: Bearer <that value>'.`;

class UsageError extends Error {}

/** @type {Record<string, string>} */
const LIMIT_FLAGS = { 'max-body-bytes': 'maxBodyBytes', 'max-model-calls': 'maxModelCalls', 'turn-lease-ms': 'turnLeaseMs', 'turn-timeout-ms': 'turnTimeoutMs' };

/** @param {string[]} argv */
function parse(argv) {
  /** @type {import('node:util').ParseArgsConfig['options']} */
  const options = {
    model: { type: 'string' },
    store: { type: 'string' },
    'trace-log': { type: 'string' },
    'mcp-config': { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  };
  for (const flag of Object.keys(LIMIT_FLAGS)) options[flag] = { type: 'string' };
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const error = /** @type {Error} */ (e);
    const unknown = /^Unknown option '(--?[^']+)'/.exec(error.message)?.[1];
    if (unknown === undefined) throw new UsageError(error.message);
    const suggestion = closest(unknown.replace(/^-+/, ''), Object.keys(/** @type {object} set above */ (options)));
    throw new UsageError(`unknown option ${unknown}${suggestion === undefined ? '' : ` (did you mean --${suggestion}?)`}`);
  }
}

/**
 * @param {string} text
 * @param {string} flag
 * @param {number} min
 * @param {number} max
 */
function integer(text, flag, min, max) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got '${text}'`);
  return Number(text);
}

/**
 * The model function a --model spec names.
 * @param {string | undefined} spec
 * @returns {Promise<import('./index.js').ModelFunction>}
 */
async function loadModel(spec) {
  if (spec === undefined) throw new UsageError('--model is required: module:./model.mjs, or <provider>:<model> such as openai:gpt-4.1-mini');
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new UsageError(`--model '${spec}': expected module:<file> or <provider>:<model>`);
  const kind = spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  if (kind === 'module') {
    const file = path.resolve(rest);
    let loaded;
    try {
      loaded = await import(pathToFileURL(file).href);
    } catch (error) {
      throw new Error(`--model ${spec}: cannot load ${file}: ${/** @type {Error} */ (error).message}`);
    }
    const model = typeof loaded.default === 'function' ? loaded.default : loaded.model;
    if (typeof model !== 'function') throw new Error(`--model ${spec}: ${file} must export the model function as its default export or as 'model'`);
    return model;
  }
  let adapters;
  try {
    adapters = await import('handoff-graph/adapters');
  } catch (error) {
    const { code } = /** @type {NodeJS.ErrnoException} */ (error);
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`--model ${spec}: provider models need the adapters of 'handoff-graph/adapters', which this version of handoff-graph does not have; write the model function in a module and pass --model module:./model.mjs (docs/server.md)`);
    }
    throw error;
  }
  if (typeof adapters.createModel !== 'function') throw new Error(`--model ${spec}: 'handoff-graph/adapters' has no createModel()`);
  return adapters.createModel(/** @type {any} the user's provider name, which createModel checks */ ({ provider: kind, model: rest }));
}

/**
 * The store a --store spec names, and what closes it.
 * @param {string} [spec]
 */
async function openStore(spec = 'memory') {
  if (spec === 'memory') return { store: new MemoryStore(), describe: 'memory (sessions end with the process)', close: async () => {} };
  if (spec.startsWith('file:')) {
    const dir = spec.slice('file:'.length);
    if (dir.length === 0) throw new UsageError('--store file:<dir>: the directory is missing');
    const { FileStore } = await import('./stores/file.js');
    const store = new FileStore(dir);
    return { store, describe: `files in ${store.directory}`, close: async () => {} };
  }
  if (spec.startsWith('redis://') || spec.startsWith('rediss://')) {
    let redis;
    try {
      redis = await import('redis');
    } catch {
      throw new Error(`--store ${spec} needs the npm package 'redis' (npm install redis), which was not found`);
    }
    const { RedisStore } = await import('./stores/redis.js');
    const shown = spec.replace(/\/\/[^@/]*@/, '//…@');
    // At start-up, three failed attempts are an error; once connected, node-redis reconnects for
    // as long as it takes (the requests of that moment fail with 500s).
    let connected = false;
    const client = redis.createClient({ url: spec, socket: { reconnectStrategy: (retries, cause) => (!connected && retries >= 2 ? cause : Math.min(50 * 2 ** retries, 2000)) } });
    /** @type {Error | undefined} */
    let failure;
    client.on('error', (error) => {
      if (connected) console.error(`handoff-graph: redis: ${error.message}`);
      else failure = error;
    });
    try {
      await client.connect();
    } catch (error) {
      throw new Error(`--store ${shown}: cannot connect: ${/** @type {Error | undefined} */ (error)?.message || failure?.message || error}`);
    }
    connected = true;
    return { store: new RedisStore(client), describe: `redis at ${shown}`, close: () => client.quit().catch(() => client.destroy?.()) };
  }
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    let pg;
    try {
      pg = (await import('pg')).default;
    } catch {
      throw new Error(`--store ${spec.replace(/\/\/[^@/]*@/, '//…@')} needs the npm package 'pg' (npm install pg), which was not found`);
    }
    const { PostgresStore } = await import('./stores/postgres.js');
    const shown = spec.replace(/\/\/[^@/]*@/, '//…@');
    // pg's Pool opens connections as requests need them and replaces broken ones; an idle
    // connection that breaks (a database restart) is reported here rather than crashing the process.
    const pool = new pg.Pool({ connectionString: spec, connectionTimeoutMillis: 10_000 });
    pool.on('error', (error) => console.error(`handoff-graph: postgres: ${error.message}`));
    const store = new PostgresStore({ pool });
    try {
      // Connects, and makes the tables when missing: a database that cannot be used fails here.
      await store.migrate();
    } catch (error) {
      await pool.end().catch(() => {});
      throw new Error(`--store ${shown}: cannot use the database: ${/** @type {Error | undefined} */ (error)?.message || error}`);
    }
    return { store, describe: `postgres at ${shown}`, close: () => pool.end().catch(() => {}) };
  }
  throw new UsageError(`--store '${spec}': expected memory, file:<dir>, redis://…, rediss://… or postgres://…`);
}

/** @param {string} token */
function bearer(token) {
  const expected = new TextEncoder().encode(`Bearer ${token}`);
  return (/** @type {Request} */ request) => {
    const given = new TextEncoder().encode(request.headers.get('authorization') ?? '');
    // Compared in full whatever the first difference, so the time taken says nothing of the token.
    let difference = given.length ^ expected.length;
    for (let i = 0; i < expected.length; i++) difference |= expected[i] ^ (given[i] ?? 0);
    if (difference === 0) return true;
    return new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'this server needs Authorization: Bearer <token>' } }), {
      status: 401,
      headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer' },
    });
  };
}

/**
 * The MCP servers of a --mcp-config file, connected; null without one.
 * @param {string | undefined} file
 * @returns {Promise<{ clients: Record<string, unknown>, close(): Promise<void> } | null>}
 */
async function connectMcp(file) {
  if (file === undefined) return null;
  if (file === '') throw new UsageError('--mcp-config needs a file');
  let config;
  try {
    config = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const e = /** @type {NodeJS.ErrnoException} */ (error);
    throw new Error(`--mcp-config ${file}: ${e.code === 'ENOENT' ? 'no such file' : e instanceof SyntaxError ? `not JSON (${e.message})` : e.message}`);
  }
  let mcp;
  try {
    mcp = await import('./mcp/connect.js');
    await import('@modelcontextprotocol/sdk/client/index.js');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ERR_MODULE_NOT_FOUND') throw new Error('--mcp-config needs the MCP SDK: npm install @modelcontextprotocol/sdk');
    throw error;
  }
  try {
    return await mcp.connectMcpServers(config);
  } catch (error) {
    if (error instanceof TypeError) throw new Error(`--mcp-config ${file}: ${error.message}`);
    throw error;
  }
}

/**
 * The swarm of a definition file, with the MCP servers of `mcpConfig` connected; `close()`
 * disposes of it and closes them.
 * @param {string} file
 * @param {{ traceLogPath?: string, mcpConfig?: string }} [options]
 * @returns {Promise<{ swarm: import('./index.js').Swarm, close(): Promise<void> }>}
 */
async function readDefinition(file, { traceLogPath, mcpConfig } = {}) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the swarm definition ${file}: ${/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT' ? 'no such file' : /** @type {NodeJS.ErrnoException} */ (error).message}`);
  }
  await init();
  const mcp = await connectMcp(mcpConfig);
  try {
    const options = { ...(traceLogPath === undefined ? {} : { traceLogPath }), ...(mcp === null ? {} : { mcp: mcp.clients }) };
    // (Its [Symbol.dispose], which disposable() adds at load time, is declared in js/types.d.ts.)
    const swarm = new Swarm(text, /** @type {any} the SDK's clients */ (options));
    return {
      swarm,
      close: async () => {
        swarm.dispose();
        await mcp?.close();
      },
    };
  } catch (error) {
    await mcp?.close();
    if (error instanceof DefinitionError) {
      throw new Error(`${file} is not a valid swarm definition:\n${error.problems.map((p) => `  ${p.pointer || '/'}: ${p.message}`).join('\n')}`);
    }
    throw error;
  }
}

/**
 * @param {Record<string, string | undefined>} values the string flags (parse() gives the others)
 * @param {string[]} positionals
 */
async function serveCommand(values, positionals) {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'serve needs the swarm definition file: handoff-graph serve swarm.json --model …' : `serve takes one definition file, got ${positionals.length}: ${positionals.join(' ')}`);
  const host = values.host ?? '127.0.0.1';
  const port = values.port === undefined ? 8787 : integer(values.port, 'port', 0, 65535);
  /** @type {Record<string, number>} */
  const limits = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) if (values[flag] !== undefined) limits[key] = integer(values[flag], flag, 1, 2 ** 31 - 1);
  const model = await loadModel(values.model);
  if (values['trace-log'] === '') throw new UsageError('--trace-log needs a file');
  const { swarm, close: closeSwarm } = await readDefinition(positionals[0], { traceLogPath: values['trace-log'], mcpConfig: values['mcp-config'] });
  const { store, describe, close: closeStore } = await openStore(values.store).catch(async (error) => {
    await closeSwarm();
    throw error;
  });
  const token = process.env.HANDOFF_GRAPH_TOKEN;
  let handler;
  try {
    handler = createHandler({ swarm, store, model, limits, ...(token ? { authorize: bearer(token) } : {}) });
  } catch (error) {
    await closeStore();
    await closeSwarm();
    throw error instanceof TypeError ? new UsageError(error.message) : error;
  }
  let server;
  try {
    server = await serve(handler, { host, port });
  } catch (error) {
    await closeStore();
    await closeSwarm();
    throw new Error(`cannot listen on ${host}:${port}: ${/** @type {Error} */ (error).message}`);
  }
  const agents = swarm.toJSON().agents.length;
  console.log(`handoff-graph: serving swarm '${swarm.name}' (${agents} agent${agents === 1 ? '' : 's'}, sessions in ${describe}) at ${server.url}`);
  /** @param {string} signal */
  const stop = async (signal) => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    console.log(`handoff-graph: ${signal}: finishing the turns under way, then stopping`);
    // Turns under way get up to 10 s to finish; then the connections are cut.
    const force = setTimeout(() => server.server.closeAllConnections(), 10_000);
    force.unref();
    await server.close().catch(() => {});
    await closeStore();
    await closeSwarm();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** @param {string[]} argv */
async function main(argv) {
  if (argv[0] === 'check') {
    process.exitCode = await checkCommand(argv.slice(1));
    return;
  }
  if (argv[0] === 'mcp') {
    await mcpCommand(argv.slice(1), { loadModel, openStore, readDefinition });
    return;
  }
  if (argv[0] === 'replay') {
    process.exitCode = await replayCommand(argv.slice(1));
    return;
  }
  const { values, positionals } = parse(argv);
  if (values.version) {
    const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    console.log(manifest.version);
    return;
  }
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    console.log(`${USAGE}\n\n${CHECK_USAGE}\n\n${REPLAY_USAGE}\n\n${MCP_USAGE}`);
    return;
  }
  if (command !== 'serve') throw new UsageError(`unknown command '${command}': the commands are serve, check, replay and mcp`);
  await serveCommand(/** @type {Record<string, string | undefined>} the flags serve reads are strings */ (values), rest);
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof McpUsageError) {
    console.error(`handoff-graph: ${error.message}\n\n${MCP_USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof CheckUsageError) {
    console.error(`handoff-graph: ${error.message}\n\n${CHECK_USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof ReplayUsageError) {
    console.error(`handoff-graph: ${error.message}\n\n${REPLAY_USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof UsageError) {
    console.error(`handoff-graph: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`handoff-graph: ${error.message}`);
    process.exitCode = 1;
  }
});
