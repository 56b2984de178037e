// @ts-check
// `handoff-graph replay DEFINITION RECORDING…`: replays recorded sessions (or machine runs)
// against a definition, for CI (docs/replay.md#the-command). Each RECORDING is a trace log file
// (or a directory of `.jsonl` files), split into sessions (a swarm's) or runs (a machine's); one
// line per session or run, `same` or its first divergence, then a summary. Exit status 1 when one
// diverges or a file cannot be read or replayed, 2 for a usage mistake.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { init, RecordingError, StateMachine, Swarm } from './node.js';
import { readLines, textLines } from './recording.js';

export const REPLAY_USAGE = `Usage: handoff-graph replay <definition.json> <recording>... [--json]

Replays recorded conversations (or state-machine runs) against a swarm (or state machine)
definition (docs/replay.md): each recording is a trace log (traceLogPath, --trace-log) or a
directory of .jsonl logs (and durable runs' .run.json records), split by session (or run). Prints one line per session, 'same' or the
first routing decision that now comes out differently, and exits 1 when any differs.

  --json      print one JSON array: [{ file, session | run, same, turns, decisions, divergence, line? } | { file, error }]
              (line: the file's line, from 1, that holds a session's divergence)
  -h, --help  this text`;

export class ReplayUsageError extends Error {}

/** @import { Line } from './recording.js' */

// The definition file: a Swarm or a StateMachine, by its format.
/** @param {string} file */
async function load(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the definition ${file}: ${/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT' ? 'no such file' : /** @type {NodeJS.ErrnoException} */ (error).message}`);
  }
  let document;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  const format = typeof document === 'object' && document !== null ? document.format : undefined;
  try {
    // No options (machine.js and swarm.js document them as required).
    if (format === 'handoff-graph/state-machine') return { kind: 'machine', target: StateMachine.fromJSON(text, undefined) };
    if (format === undefined || format === 'handoff-graph/swarm') return { kind: 'swarm', target: new Swarm(text, undefined) };
  } catch (e) {
    const error = /** @type {Error & { problems?: Array<{ pointer: string, message: string }> }} */ (e);
    const problems = error.problems?.map((p) => `\n  ${p.pointer || '/'}: ${p.message}`).join('') ?? ` ${error.message}`;
    throw new Error(`${file} is not a valid definition:${problems}`);
  }
  throw new Error(`${file}: replay takes a swarm or a state machine definition, not ${JSON.stringify(format)}`);
}

// The files a RECORDING argument names: itself, or a directory's .jsonl files (and durable runs'
// .run.json records) in name order.
/**
 * @param {string} given
 * @returns {Promise<string[]>}
 */
async function recordingFiles(given) {
  let info;
  try {
    info = await stat(given);
  } catch (error) {
    throw new Error(`cannot read ${given}: ${/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT' ? 'no such file or directory' : /** @type {NodeJS.ErrnoException} */ (error).message}`);
  }
  if (!info.isDirectory()) return [given];
  const names = (await readdir(given)).filter((name) => name.endsWith('.jsonl') || name.endsWith('.run.json')).sort();
  return names.map((name) => path.join(given, name));
}

// A swarm's sessions in a log: its lines grouped by `session`, in order of first appearance (a
// machine's lines left out), each with the file's line number of each of its lines (`numbers`).
/**
 * @param {string} text
 * @returns {Array<{ id: string, lines: Line[], numbers: number[] }>}
 */
function sessionsOf(text) {
  const numbers = textLines(text).map((line) => line.number);
  /** @type {Map<string, { id: string, lines: Line[], numbers: number[] }>} */
  const sessions = new Map();
  for (const [i, line] of readLines(text, 'replay').entries()) {
    if (line.machine !== undefined) continue;
    const id = typeof line.session === 'string' ? line.session : '';
    let session = sessions.get(id);
    if (session === undefined) {
      session = { id, lines: [], numbers: [] };
      sessions.set(id, session);
    }
    session.lines.push(line);
    session.numbers.push(numbers[i]);
  }
  return [...sessions.values()];
}

// A machine's runs in a log: by `runId` when the run has one, else each start line begins a run
// (runs of one machine that ran at once without a runId interleave: give them one, or a log each).
/**
 * @param {Line[]} lines
 * @param {string} machine
 * @returns {Array<{ id: string, lines: Line[] }>}
 */
function runsOf(lines, machine) {
  /** @type {Array<{ id: string, lines: Line[] }>} */
  const runs = [];
  /** @type {Map<string, { id: string, lines: Line[] }>} */
  const byId = new Map();
  /** @type {{ id: string, lines: Line[] } | null} */
  let current = null;
  for (const line of lines) {
    if (line.machine !== machine) continue;
    if (typeof line.runId === 'string') {
      if (!byId.has(line.runId)) {
        const run = { id: line.runId, lines: [] };
        byId.set(line.runId, run);
        runs.push(run);
      }
      /** @type {{ id: string, lines: Line[] }} */ (byId.get(line.runId)).lines.push(line);
      continue;
    }
    if (line.type === 'start' || current === null) {
      current = { id: `#${runs.length + 1}`, lines: [] };
      runs.push(current);
    }
    current.lines.push(line);
  }
  return runs;
}

// A durable run's record (a FileStore's NAME.run.json), or null when the text is not one.
/**
 * @param {string} text
 * @returns {Record<string, any> | null}
 */
function durableRun(text) {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && value.format === 'handoff-graph/run' ? value : null;
  } catch {
    return null;
  }
}

/** @type {(value: unknown) => string | undefined} */
const shown = (value) => JSON.stringify(value);

// One line of output for a replayed session or run.
/**
 * @param {string} file
 * @param {string} name
 * @param {Record<string, any>} report
 * @param {string} kind 'swarm' or 'machine'
 * @param {number | undefined} line the file's line that holds a session's divergence
 */
function describeReport(file, name, report, kind, line) {
  const head = `${file} ${name}`;
  if (report.same) return `${head}: same (${kind === 'machine' ? `${report.decisions} steps` : `${report.turns} turn${report.turns === 1 ? '' : 's'}, ${report.decisions} decisions`})`;
  const d = report.divergence;
  const where = kind === 'machine' ? `step ${d.index + 1}` : `turn ${d.turn}, decision ${d.index}${line === undefined ? '' : `, line ${line}`}`;
  return `${head}: differs at ${where} (${d.kind}): recorded ${shown(d.recorded)}, replayed ${shown(d.replayed)}`;
}

/**
 * Runs the command; resolves to the exit status.
 * @param {string[]} argv
 * @param {(line: string) => void} [out]
 * @returns {Promise<number>}
 */
export async function replayCommand(argv, out = console.log) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ReplayUsageError(/** @type {Error} */ (error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(REPLAY_USAGE);
    return 0;
  }
  if (positionals.length < 2) throw new ReplayUsageError(positionals.length === 0 ? 'replay needs a definition file and at least one recording' : 'replay needs at least one recording (a trace log, or a directory of them)');
  const [definitionFile, ...given] = positionals;
  await init();
  const { kind, target } = await load(definitionFile);
  /** @type {Array<Record<string, any>>} */
  const results = [];
  let failed = false;
  try {
    for (const recording of given) {
      for (const file of await recordingFiles(recording)) {
        /** @type {Array<{ id: string, lines: unknown, numbers?: number[] }>} */
        let groups;
        try {
          const text = await readFile(file, 'utf8');
          const run = kind === 'machine' ? durableRun(text) : null;
          if (run !== null) groups = run.machine === target.name ? [{ id: run.id, lines: run }] : [];
          else groups = kind === 'swarm' ? sessionsOf(text) : runsOf(readLines(text, 'replay'), target.name);
        } catch (e) {
          const error = /** @type {Error} */ (e);
          failed = true;
          results.push({ file, error: error.message });
          if (!values.json) out(`${file}: error: ${error.message}`);
          continue;
        }
        for (const group of groups) {
          const name = kind === 'swarm' ? `session ${group.id || '(none)'}` : `run ${group.id}`;
          try {
            const report = await target.replay(/** @type {any} a swarm's session lines, or a machine's run: what its target takes */ (group.lines));
            if (!report.same) failed = true;
            const d = report.divergence;
            const line = group.numbers !== undefined && d !== null && 'line' in d ? group.numbers[d.line] : undefined;
            results.push({ file, [kind === 'swarm' ? 'session' : 'run']: group.id, ...report, ...(line === undefined ? {} : { line }) });
            if (!values.json) out(describeReport(file, name, report, kind, line));
          } catch (error) {
            if (!(error instanceof RecordingError) && !(error instanceof TypeError)) throw error;
            failed = true;
            results.push({ file, [kind === 'swarm' ? 'session' : 'run']: group.id, error: error.message });
            if (!values.json) out(`${file} ${name}: error: ${error.message.replaceAll('\n', ' ')}`);
          }
        }
      }
    }
  } finally {
    target.dispose();
  }
  if (values.json) {
    out(JSON.stringify(results, null, 2));
  } else {
    const replayed = results.filter((r) => r.same !== undefined);
    const differing = replayed.filter((r) => !r.same).length;
    const noun = kind === 'swarm' ? 'conversation' : 'run';
    const errors = results.length - replayed.length;
    out(`${differing} of ${replayed.length} ${noun}s route differently${errors === 0 ? '' : `; ${errors} could not be replayed`}`);
  }
  return failed ? 1 : 0;
}
