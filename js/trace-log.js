// @ts-check
// The trace log, for Node (js/node.js hands openTraceLog to js/tracing.js, which says what to
// log and when): one JSON object per line, appended. A turn's lines are written as they happen
// (a crash keeps what came before it), each in one append of a whole line through one writer
// per file in the process, so that concurrent turns never interleave within a line; the turn
// waits for its lines before it ends, and a write that failed fails the turn. The browser entries
// have no file system, so this file is not part of them.
//
// One writer per file per process: its appends run one after another, whole lines in one
// write(2) on a descriptor opened with O_APPEND (the lines that arrived during the previous write
// go out together), so lines from concurrent turns (and from other processes appending to the same
// file on a local file system) never mix within a line.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @import { FileHandle } from 'node:fs/promises' */

/** @type {Map<string, TraceLogFile>} */
const writers = new Map();

/**
 * The lines waiting for a write, and its promise.
 * @typedef {{ text: string, promise?: Promise<void>, resolve?: () => void, reject?: (error: unknown) => void }} Batch
 */

class TraceLogFile {
  /** @type {string} */
  #file;
  /** @type {FileHandle | null} */
  #handle = null;
  /** @type {Batch | null} */
  #batch = null;  // the lines waiting for the write under way: { text, promise, resolve, reject }
  #writing = false;

  /** @param {string} file */
  constructor(file) {
    this.#file = file;
  }

  /**
   * Appends `line` (whole, newline included) after every earlier append; resolves once it is
   * written, rejects when it could not be. Lines that arrive while a write is under way go out
   * together in the next one.
   * @param {string} line
   * @returns {Promise<void>}
   */
  append(line) {
    if (this.#batch === null) {
      /** @type {Batch} */
      const batch = { text: '' };
      batch.promise = new Promise((resolve, reject) => Object.assign(batch, { resolve, reject }));
      this.#batch = batch;
    }
    const batch = this.#batch;
    batch.text += line;
    if (!this.#writing) this.#drain();
    return /** @type {Promise<void>} set when the batch was made */ (batch.promise);
  }

  async #drain() {
    this.#writing = true;
    // Yield once: the lines of the current tick join the first write.
    await null;
    while (this.#batch !== null) {
      const batch = this.#batch;
      this.#batch = null;
      try {
        await this.#write(batch.text);
        /** @type {() => void} */ (batch.resolve)();
      } catch (error) {
        /** @type {(error: unknown) => void} */ (batch.reject)(error);
      }
    }
    this.#writing = false;
  }

  /** @param {string} text */
  async #write(text) {
    if (this.#handle === null) {
      // Kept open for the process's life (an open descriptor does not hold the event loop open).
      this.#handle = await open(this.#file, 'a');
    }
    const data = Buffer.from(text);
    const { bytesWritten } = await /** @type {FileHandle} opened above */ (this.#handle).write(data);
    if (bytesWritten !== data.length) throw new Error(`short write to ${this.#file}: ${bytesWritten} of ${data.length} bytes`);
  }
}

/** The lines of one turn or run, each with `base` (its swarm and session, or machine and run id). */
class TraceLog {
  /** @type {TraceLogFile} */
  #file;
  /** @type {Record<string, unknown>} */
  #base;
  /** @type {Promise<void>[]} */
  #writes = [];

  /**
   * @param {TraceLogFile} file
   * @param {Record<string, unknown>} base
   */
  constructor(file, base) {
    this.#file = file;
    this.#base = base;
  }

  /**
   * @param {{ type: string, [field: string]: unknown }} record
   * @returns {void}
   */
  write(record) {
    let line;
    try {
      line = `${JSON.stringify({ time: new Date().toISOString(), ...this.#base, ...record })}\n`;
    } catch (error) {
      line = `${JSON.stringify({ time: new Date().toISOString(), ...this.#base, type: record.type, unserializable: String(/** @type {any} */ (error)?.message ?? error) })}\n`;
    }
    const written = this.#file.append(line);
    // Awaited by flush(); until then a failure must not count as an unhandled rejection.
    written.catch(() => {});
    this.#writes.push(written);
  }

  /**
   * A turn's event: its line without what does not belong in a log (chunks are not logged), with
   * `extra` fields (the recording's, on the open line: docs/replay.md).
   * @param {LogEvent} event
   * @param {Record<string, unknown>} [extra]
   * @returns {void}
   */
  turnEvent(event, extra) {
    if (!isChunk(event)) this.write(extra === undefined ? logRecord(event) : { ...logRecord(event), ...extra });
  }

  /**
   * The line of the error a turn or run failed with.
   * @param {any} error what was thrown (an Error, or anything)
   * @returns {void}
   */
  error(error) {
    this.write({ type: 'error', name: error?.name ?? 'Error', message: String(error?.message ?? error) });
  }

  /**
   * Waits for every line written so far; rejects with the first write that failed.
   * @returns {Promise<void>}
   */
  async flush() {
    const writes = this.#writes;
    this.#writes = [];
    const results = await Promise.allSettled(writes);
    const failed = /** @type {PromiseRejectedResult | undefined} */ (results.find((r) => r.status === 'rejected'));
    if (failed !== undefined) throw new Error(`the trace log could not be written: ${failed.reason?.message ?? failed.reason}`, { cause: failed.reason });
  }

  /**
   * The last flush, at the end of a turn or run: a write that failed rejects, unless the turn or
   * run failed (`failure` is not null), which reports its own error; a failed write is secondary.
   * @param {unknown} failure
   * @returns {Promise<void>}
   */
  async close(failure) {
    await this.flush().catch((error) => (failure === null ? Promise.reject(error) : undefined));
  }
}

// What an event carries that does not belong in a log line: the live session, the SDK's raw
// response, also inside an agent tool's nested events.
/** @typedef {{ type: string, event?: LogEvent, [field: string]: unknown }} LogEvent a turn's event, as the log reads it */

/**
 * @param {LogEvent} event
 * @returns {LogEvent}
 */
function logRecord(event) {
  const { session: _session, raw: _raw, ...record } = event;
  if (record.type === 'agent_tool') record.event = logRecord(/** @type {LogEvent} an agent_tool event holds one */ (record.event));
  return record;
}

// Chunks are not logged (the answer is, once): neither the turn's nor an agent tool's.
/** @type {(event: LogEvent) => boolean} */
const isChunk = (event) => event.type === 'chunk' || (event.type === 'agent_tool' && isChunk(/** @type {LogEvent} */ (event.event)));

/**
 * The trace log at `location` (a path or a file: URL) for one turn or run, its lines written with
 * `base`, through the process's writer for that file.
 * @param {string | URL} location
 * @param {Record<string, unknown>} base
 * @returns {Promise<TraceLog>}
 */
export async function openTraceLog(location, base) {
  const file = path.resolve(location instanceof URL ? fileURLToPath(location) : location);
  let writer = writers.get(file);
  if (writer === undefined) {
    writer = new TraceLogFile(file);
    writers.set(file, writer);
  }
  return new TraceLog(writer, base);
}
