// What the server tests share: a real redis-server (Debian's, on 127.0.0.1 on a free port), the
// `handoff-graph serve` command run as a child process, the scripted swarm and model, and a
// reader of server-sent events as a client sees them.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../../js/cli.js', import.meta.url));
export const SWARM_FILE = fileURLToPath(new URL('fixtures/swarm.json', import.meta.url));
export const MODEL_FILE = fileURLToPath(new URL('fixtures/model.mjs', import.meta.url));
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function swarmDefinition() {
  return JSON.parse(await readFile(SWARM_FILE, 'utf8'));
}

// A redis-server of its own for a test: { port, url, stop() } (the stores' tests start theirs the same way).
export { freePort, startRedis } from '../redis-server.js';

/**
 * Runs `node js/cli.js ...args` and waits for the line that says where it serves (or for it to
 * exit): { url, proc, output(), exited, stop(signal) }.
 */
export async function startCli(args, { env = {}, cwd } = {}) {
  const proc = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  proc.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const output = () => ({ stdout, stderr });
  const url = await new Promise((resolve) => {
    const look = () => {
      const found = /at (http:\/\/\S+)\n/.exec(stdout);
      if (found) {
        proc.stdout.off('data', look);
        resolve(found[1]);
      }
    };
    proc.stdout.on('data', look);
    exited.then(() => resolve(null));
  });
  const stop = async (signal = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    return exited;
  };
  return { url, proc, output, exited, stop };
}

/** The messages of a text/event-stream body: [{ event, data }] with `data` parsed as JSON. */
export function parseEvents(text) {
  const events = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

/**
 * Reads an event stream as it arrives: calls `onEvent({ event, data })` for each message and
 * resolves to all of them, or to { events, error } if the connection breaks first.
 */
export async function readEvents(response, onEvent = () => {}) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const [message] = parseEvents(buffer.slice(0, end + 2));
        buffer = buffer.slice(end + 2);
        events.push(message);
        await onEvent(message);
      }
    }
  } catch (error) {
    return { events, error };
  }
  return { events, error: null };
}

/** A JSON request: { status, headers, body } with the body parsed when it is JSON. */
export async function request(base, method, route, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    init.headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(new URL(route, base), init);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, headers: response.headers, body: type.startsWith('application/json') ? JSON.parse(text) : text };
}

/** Runs a whole turn: { status, events } (events parsed; [] for a non-stream answer, with `body`). */
export async function turn(base, id, input, headers = {}) {
  const response = await fetch(new URL(`sessions/${id}/turns`, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ input }),
  });
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { status: response.status, events: [], body: JSON.parse(text) };
  return { status: response.status, events: parseEvents(text) };
}
