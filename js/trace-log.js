// The trace log's file, for Node (js/tracing.js holds the format; js/node.js hands this opener to
// it). One writer per file per process: its appends run one after another, whole lines in one
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

/** The process's writer for the trace log at `location` (a path or a file: URL). */
export async function openTraceLog(location) {
  const file = path.resolve(location instanceof URL ? fileURLToPath(location) : location);
  let writer = writers.get(file);
  if (writer === undefined) {
    writer = new TraceLogFile(file);
    writers.set(file, writer);
  }
  return writer;
}
