// The trace log's file, for Node (js/tracing.js holds the format; js/node.js hands this opener to
// it). One writer per file per process: its appends run one after another, each a whole line in
// one write(2) on a descriptor opened with O_APPEND, so lines from concurrent turns (and from other
// processes appending to the same file on a local file system) never mix within a line.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const writers = new Map();

class TraceLogFile {
  #file;
  #handle = null;
  #tail = Promise.resolve();

  constructor(file) {
    this.#file = file;
  }

  /** Appends `line` (whole, newline included) after every earlier append; rejects when it could not. */
  append(line) {
    const next = this.#tail.then(() => this.#write(line));
    // The next line waits for this one whatever its outcome; this one's failure is its turn's.
    this.#tail = next.catch(() => {});
    return next;
  }

  async #write(line) {
    if (this.#handle === null) {
      // Kept open for the process's life (an open descriptor does not hold the event loop open).
      this.#handle = await open(this.#file, 'a');
    }
    const data = Buffer.from(line);
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
