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

const writers = new Map();

class TraceLogFile {
  #file;
  #handle = null;
  #batch = null;  // the lines waiting for the write under way: { text, promise, resolve, reject }
  #writing = false;

  constructor(file) {
    this.#file = file;
  }

  /**
   * Appends `line` (whole, newline included) after every earlier append; resolves once it is
   * written, rejects when it could not be. Lines that arrive while a write is under way go out
   * together in the next one.
   */
  append(line) {
    if (this.#batch === null) {
      const batch = { text: '' };
      batch.promise = new Promise((resolve, reject) => Object.assign(batch, { resolve, reject }));
      this.#batch = batch;
    }
    const batch = this.#batch;
    batch.text += line;
    if (!this.#writing) this.#drain();
    return batch.promise;
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
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
    }
    this.#writing = false;
  }

  async #write(text) {
    if (this.#handle === null) {
      // Kept open for the process's life (an open descriptor does not hold the event loop open).
      this.#handle = await open(this.#file, 'a');
    }
    const data = Buffer.from(text);
    const { bytesWritten } = await this.#handle.write(data);
    if (bytesWritten !== data.length) throw new Error(`short write to ${this.#file}: ${bytesWritten} of ${data.length} bytes`);
  }
}

/** The lines of one turn or run, each with `base` (its swarm and session, or machine and run id). */
class TraceLog {
  #file;
  #base;
  #writes = [];

  constructor(file, base) {
    this.#file = file;
    this.#base = base;
  }

  write(record) {
    let line;
    try {
      line = `${JSON.stringify({ time: new Date().toISOString(), ...this.#base, ...record })}\n`;
    } catch (error) {
      line = `${JSON.stringify({ time: new Date().toISOString(), ...this.#base, type: record.type, unserializable: String(error?.message ?? error) })}\n`;
    }
    const written = this.#file.append(line);
    // Awaited by flush(); until then a failure must not count as an unhandled rejection.
    written.catch(() => {});
    this.#writes.push(written);
  }

  /**
   * A turn's event: its line without what does not belong in a log (chunks are not logged), with
   * `extra` fields (the recording's, on the open line: docs/replay.md).
   */
  turnEvent(event, extra) {
    if (!isChunk(event)) this.write(extra === undefined ? logRecord(event) : { ...logRecord(event), ...extra });
  }

  /** The line of the error a turn or run failed with. */
  error(error) {
    this.write({ type: 'error', name: error?.name ?? 'Error', message: String(error?.message ?? error) });
  }

  /** Waits for every line written so far; rejects with the first write that failed. */
  async flush() {
    const writes = this.#writes;
    this.#writes = [];
    const results = await Promise.allSettled(writes);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed !== undefined) throw new Error(`the trace log could not be written: ${failed.reason?.message ?? failed.reason}`, { cause: failed.reason });
  }

  /**
   * The last flush, at the end of a turn or run: a write that failed rejects, unless the turn or
   * run failed (`failure` is not null), which reports its own error; a failed write is secondary.
   */
  async close(failure) {
    await this.flush().catch((error) => (failure === null ? Promise.reject(error) : undefined));
  }
}

// What an event carries that does not belong in a log line: the live session, the SDK's raw
// response, also inside an agent tool's nested events.
function logRecord(event) {
  const { session: _session, raw: _raw, ...record } = event;
  if (record.type === 'agent_tool') record.event = logRecord(record.event);
  return record;
}

// Chunks are not logged (the answer is, once): neither the turn's nor an agent tool's.
const isChunk = (event) => event.type === 'chunk' || (event.type === 'agent_tool' && isChunk(event.event));

/**
 * The trace log at `location` (a path or a file: URL) for one turn or run, its lines written with
 * `base`, through the process's writer for that file.
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
