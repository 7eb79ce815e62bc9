// A folder made once per machine (in the cache outside the clone), complete when its `.complete`
// marker holds the recipe it was made by; a folder without it (an interrupted build) is remade.
// Processes that want the same folder at once (`npm test` starts the infrastructure in one process
// while it installs the control plane in another) take turns through a lock, so a build of minutes
// is done once, not once per process.

import fs from 'node:fs';
import path from 'node:path';
import { log } from './log.mjs';
import { isAlive, sleep } from './process.mjs';

/** @param {string} dir @param {string} recipe */
const isComplete = (dir, recipe) => {
  try {
    return fs.readFileSync(path.join(dir, '.complete'), 'utf8') === recipe;
  } catch {
    return false;
  }
};

/** @param {string} lock @returns {number} the pid in the lock, 0 when there is none (yet) */
const ownerOf = (lock) => {
  try {
    return Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
};

/**
 * Holds `<dir>.lock` (a folder: its creation is atomic) while `fn` runs. A lock whose owner has died
 * (its pid file names no live process) is taken over.
 * @template T @param {string} dir @param {string} what @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export async function withLock(dir, what, fn) {
  const lock = `${dir}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      const owner = ownerOf(lock);
      // A lock folder without a pid is a process between its two steps above (wait for it), or one
      // that died there (a minute later).
      const stale = owner
        ? !isAlive(owner)
        : Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 60_000;
      if (stale) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) log(`${what}: waiting for process ${owner || '(starting)'}, which is making it`);
      told = true;
      await sleep(2000);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs `make(dir)` into a fresh `<dir>.tmp-<pid>` and renames it into place, unless `dir` is complete.
 * @param {string} dir @param {string} recipe @param {string} what @param {(out: string) => Promise<unknown>} make
 * @returns {Promise<string>} dir
 */
export async function cached(dir, recipe, what, make) {
  if (isComplete(dir, recipe)) {
    log(`${what}: cached in ${dir}`);
    return dir;
  }
  return withLock(dir, what, async () => {
    // Another process may have made it while this one waited for the lock.
    if (isComplete(dir, recipe)) {
      log(`${what}: made by another process in ${dir}`);
      return dir;
    }
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    log(`${what}: building (once per machine)`);
    const t = Date.now();
    try {
      await make(tmp);
      fs.writeFileSync(path.join(tmp, '.complete'), recipe);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(tmp, dir);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    log(`${what}: ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return dir;
  });
}
