// @ts-check
// FileStore's lock (js/stores/file.js): a file naming its owner (host, pid), made complete under a
// temporary name and then link()ed into place, which fails while another writer holds it. A lock
// whose owner process on this host is gone, or older than the store's staleLockMs, is broken.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/** @typedef {{ path: string, token: string }} FileLock a lock held: its file, and the token that says it is ours */

/** This host's name, in every owner file and lease. */
export const HOST = hostname();

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @type {(error: NodeJS.ErrnoException) => void} a missing file is no error */
const ignoreMissing = (error) => {
  if (error.code !== 'ENOENT') throw error;
};

/**
 * Whether process `pid` of this host is alive (one this process may not signal is).
 * @param {number} pid
 * @returns {boolean}
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

// The lock: a file with its owner, made complete under a temporary name, then link()ed into
// place (EEXIST while another writer holds it).
/**
 * @param {string} lockPath
 * @param {{ timeoutMs: number, staleMs: number }} limits how long to wait; when a lock is stale
 * @returns {Promise<FileLock>}
 */
export async function lockFile(lockPath, { timeoutMs, staleMs }) {
  const token = `${HOST}:${process.pid}:${randomBytes(8).toString('hex')}`;
  const temp = `${lockPath}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  let written = 0;
  try {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      // The lock's age is its file's: rewrite the owner file when it has waited a while.
      if (Date.now() - written > 1000) {
        await unlink(temp).catch(ignoreMissing);
        await writeOwner(temp, token);
        written = Date.now();
      }
      try {
        await link(temp, lockPath);
        return { path: lockPath, token };
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      }
      if ((await breakIfStale(lockPath, staleMs)) !== 'held') continue;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${lockPath}, held by another save (a lock left by a dead process on this host is broken automatically; one from another host is not: FileStore is for one host)`);
      }
      await sleep(Math.min(1 + attempt, 20) * (0.5 + Math.random()));
    }
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/**
 * @param {string} file
 * @param {string} token
 */
async function writeOwner(file, token) {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(JSON.stringify({ token, host: HOST, pid: process.pid, since: new Date().toISOString() }));
  } finally {
    await handle.close();
  }
}

/** @param {FileLock} lock */
export async function unlockFile(lock) {
  // Remove the lock only if it is still ours (it was not broken as stale meanwhile).
  const seen = await ownerOf(lock.path);
  if (seen?.owner?.token === lock.token) await unlink(lock.path).catch(ignoreMissing);
}

// A lock is stale when its owner was a process of this host that is gone, or when it is older
// than staleLockMs. Breakers take turns under a second lock (NAME.lock.break, held for two
// system calls), and remove the lock only if it still holds the stale owner they read.
// Returns 'released' (no lock any more), 'broken' or 'held'.
/**
 * @param {string} lockPath
 * @param {number} staleMs
 * @returns {Promise<'released' | 'broken' | 'held'>}
 */
export async function breakIfStale(lockPath, staleMs) {
  const seen = await ownerOf(lockPath);
  if (seen === null) return 'released';
  if (!isStale(seen, staleMs)) return 'held';
  const breaker = `${lockPath}.break`;
  const token = `${HOST}:${process.pid}:${randomBytes(8).toString('hex')}`;
  try {
    await writeOwner(breaker, token);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    // Another process is breaking it. A breaker lock older than a second was left by a process
    // that died between two system calls: remove it.
    const other = await ownerOf(breaker);
    if (other !== null && other.age > 1000) await unlink(breaker).catch(ignoreMissing);
    return 'held';
  }
  try {
    const now = await ownerOf(lockPath);
    if (now === null) return 'released';
    if (now.text !== seen.text) return 'held';
    await unlink(lockPath).catch(ignoreMissing);
    return 'broken';
  } finally {
    await unlink(breaker).catch(ignoreMissing);
  }
}

/**
 * @param {{ owner: any, age: number }} seen an owner file as ownerOf read it
 * @param {number} staleMs
 */
export function isStale(seen, staleMs) {
  const { owner } = seen;
  return (owner?.host === HOST && Number.isInteger(owner.pid) && !alive(owner.pid)) || seen.age > staleMs;
}

/**
 * @param {string} file
 * @returns {Promise<{ text: string, owner: any, age: number } | null>} `owner`: the file's JSON (written by writeOwner), or null
 */
export async function ownerOf(file) {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    /** @type {any} */
    let owner = null;
    try {
      owner = JSON.parse(text);
    } catch {
      // an owner file is complete before it is linked into place; treat junk by its age alone
    }
    return { text, owner, age: Date.now() - info.mtimeMs };
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return null;
    throw error;
  }
}
