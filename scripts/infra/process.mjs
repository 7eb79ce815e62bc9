// Child processes: one-shot commands, detached daemons, readiness waits, pid checks and kills,
// and free loopback ports to start them on.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const exists = (p) => fs.existsSync(p);

/** Runs a command, collecting output; rejects with the output tail on a non-zero exit. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else {
        const e = new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code}):\n${out.slice(-4000)}`);
        e.output = out;
        e.code = code;
        reject(e);
      }
    });
  });
}

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

export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
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
export function isOurs(pid, needle) {
  if (!isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle);
  } catch {
    return true; // no /proc: trust the pid
  }
}

export async function waitGone(pid, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

export async function killPid(pid, needle, { graceMs = 10000, group = false } = {}) {
  if (!isOurs(pid, needle)) return;
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
export async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise((res, rej) => {
        s.once('error', rej);
        s.listen(0, '127.0.0.1', res);
      });
      servers.push(s);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

export async function waitFor(what, check, { timeoutMs, child, logFile }) {
  const end = Date.now() + timeoutMs;
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
  throw new Error(`${what} ${why}${last ? ` (last error: ${last.message})` : ''}\n${tail}`);
}

/** Starts a long-running process detached from us (own process group), output to logFile. */
export function spawnDaemon(cmd, args, logFile, opts = {}) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], ...opts });
  fs.closeSync(fd);
  child.on('error', () => {});
  child.unref();
  return child;
}
