// Child processes: one-shot commands, detached daemons, readiness waits, pid checks and kills,
// and free loopback ports to start them on.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * @import { ChildProcess, SpawnOptions } from 'node:child_process'
 * @import { AddressInfo } from 'node:net'
 */
/** A failed run(): its whole output and exit code beside the message (which holds the tail). */
export class RunError extends Error {
  /** @param {string} message @param {string} output @param {number | null} code */
  constructor(message, output, code) {
    super(message);
    this.output = output;
    this.code = code;
  }
}

/** @param {number} ms @returns {Promise<void>} */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** @param {string} p */
export const exists = (p) => fs.existsSync(p);

/**
 * Runs a command, collecting output; rejects (RunError) with the output tail on a non-zero exit.
 * @param {string} cmd @param {string[]} args @param {SpawnOptions} [opts]
 * @returns {Promise<string>}
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else {
        reject(new RunError(`${cmd} ${args.join(' ')} failed (${signal ?? code}):\n${out.slice(-4000)}`, out, code));
      }
    });
  });
}

/** @param {string} bin @returns {string | null} */
export function which(bin) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = path.join(dir || '.', bin);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

/** @param {number | null | undefined} pid */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EPERM') return false;
  }
  // A zombie is not alive for our purposes.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z') return false;
  } catch {}
  return true;
}

/** True when pid is alive and its command line contains `needle` (guards against pid reuse). */
/** @param {number | null | undefined} pid @param {string} needle */
export function isOurs(pid, needle) {
  if (!isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle);
  } catch {
    return true; // no /proc: trust the pid
  }
}

/** @param {number} pid @param {number} ms */
export async function waitGone(pid, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/**
 * @param {number | null | undefined} pid @param {string} needle
 * @param {{ graceMs?: number, group?: boolean }} [opts]
 */
export async function killPid(pid, needle, { graceMs = 10000, group = false } = {}) {
  if (!pid || !isOurs(pid, needle)) return;
  try {
    process.kill(group ? -pid : pid, 'SIGTERM');
  } catch {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
  }
  if (await waitGone(pid, graceMs)) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await waitGone(pid, 3000);
}

/** Reserves `n` distinct free loopback ports by binding port 0 (all held at once, then released). */
/**
 * `n` numbers, as a tuple so destructuring the ports answers numbers.
 * @template {number} N @template {number[]} [Acc=[]]
 * @typedef {number extends N ? number[] : Acc['length'] extends N ? Acc : Ports<N, [...Acc, number]>} Ports
 */
/**
 * @template {number} N
 * @param {N} n @returns {Promise<Ports<N>>}
 */
export async function freePorts(n) {
  /** @type {net.Server[]} */
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise((res, rej) => {
        s.once('error', rej);
        s.listen(0, '127.0.0.1', () => res(undefined));
      });
      servers.push(s);
    }
    return /** @type {Ports<N>} */ (servers.map((s) => /** @type {AddressInfo} */ (s.address()).port));
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * Polls `check` until it answers truthy; throws with the log's tail when `child` exits first or time runs out.
 * @param {string} what @param {() => unknown} check
 * @param {{ timeoutMs: number, child?: ChildProcess, logFile?: string }} opts
 */
export async function waitFor(what, check, { timeoutMs, child, logFile }) {
  const end = Date.now() + timeoutMs;
  /** @type {unknown} */
  let last;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) break;
    try {
      if (await check()) return;
    } catch (e) {
      last = e;
    }
    await sleep(200);
  }
  let tail = '';
  if (logFile && exists(logFile)) tail = fs.readFileSync(logFile, 'utf8').slice(-3000);
  const why = child && child.exitCode !== null ? `exited with ${child.exitCode}` : `not ready after ${timeoutMs} ms`;
  const lastError = last instanceof Error ? last.message : last;
  throw new Error(`${what} ${why}${lastError ? ` (last error: ${lastError})` : ''}\n${tail}`);
}

/**
 * Starts a long-running process detached from us (own process group), output to logFile.
 * @param {string} cmd @param {string[]} args @param {string} logFile @param {SpawnOptions} [opts]
 */
export function spawnDaemon(cmd, args, logFile, opts = {}) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], ...opts });
  fs.closeSync(fd);
  child.on('error', () => {});
  child.unref();
  return child;
}
