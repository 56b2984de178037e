// @ts-check
// FileStore's file writes (js/stores/file.js): a file replaced whole (a temporary file, flushed,
// renamed over it, the directory entry flushed), lines appended in one write, and a JSON file only
// the store writes read back.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';

/**
 * @param {string} file
 * @returns {Promise<any>} what this store wrote there (a journal, a lease), or null
 */
export async function readOwnJSON(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    // Written whole (temporary file, rename) by this store only: anything else is not ours.
    if (error instanceof SyntaxError) throw new Error(`${file} was changed outside the FileStore (${error.message})`);
    throw error;
  }
}

// Write a temporary file, flush it (when `durable`), rename it over `file`, flush the directory
// entry (`dir`).
/**
 * @param {string} file
 * @param {string} text
 * @param {boolean} durable
 * @param {string} dir the directory `file` is in
 */
export async function replaceFile(file, text, durable, dir) {
  const temp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  /** @type {import('node:fs/promises').FileHandle | null} */
  let handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text);
    if (durable) await handle.sync();
    await handle.close();
    handle = null;
    await rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  if (durable) await syncDir(dir);
}

/** @param {string} directory */
async function syncDir(directory) {
  /** @type {import('node:fs/promises').FileHandle | undefined} */
  let dir;
  try {
    dir = await open(directory, 'r');
    await dir.sync();
  } catch {
    // Some platforms cannot fsync a directory (Windows): the rename is still atomic.
  } finally {
    await dir?.close().catch(() => {});
  }
}


/**
 * Appends `lines` in one O_APPEND write, on a new line if the file ends in a torn one.
 * @param {string} file
 * @param {string} lines
 * @param {boolean} durable flush it to the disk
 */
export async function appendLines(file, lines, durable) {
  const handle = await open(file, 'a+');
  try {
    // A log that does not end in a newline ends in a line torn by a killed writer: start a new
    // line so that these checkpoints stay whole.
    const { size } = await handle.stat();
    let data = Buffer.from(lines);
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) data = Buffer.concat([Buffer.from('\n'), data]);
    }
    const { bytesWritten } = await handle.write(data);
    if (bytesWritten !== data.length) throw new Error(`short write to ${file}: ${bytesWritten} of ${data.length} bytes`);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}
