// Redis from Debian's redis-server, daemonized by itself on a free port with no persistence.

import fs from 'node:fs';
import path from 'node:path';
import { REDIS_SERVER, RUN } from './layout.mjs';
import { log } from './log.mjs';
import { tcpExchange } from './probe.mjs';
import { exists, isOurs, killPid, run, waitFor, waitGone } from './process.mjs';

/** @param {number} port */
export async function redisPing(port) {
  const res = await tcpExchange(port, Buffer.from('*1\r\n$4\r\nPING\r\n'), { until: (b) => b.includes('\r\n') });
  return res.toString().startsWith('+PONG');
}

/** @param {number} port @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save */
export async function startRedis(port, state, save) {
  const dir = path.join(RUN, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  const logFile = path.join(dir, 'redis.log');
  state.redis = { port, dir, pidFile, logFile };
  save();
  await run(REDIS_SERVER, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile,
    '--logfile',
    logFile,
    '--dir',
    dir,
  ]);
  await waitFor('redis', () => redisPing(port), { timeoutMs: 20000, logFile });
  await waitFor('redis pidfile', () => exists(pidFile), { timeoutMs: 5000, logFile });
  state.redis.pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  save();
  log(`redis: ready on 127.0.0.1:${port} (pid ${state.redis.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} r */
export async function stopRedis(r) {
  if (!r) return;
  const pid = r.pid ?? (r.pidFile && exists(r.pidFile) ? Number(fs.readFileSync(r.pidFile, 'utf8').trim()) : 0);
  if (pid && isOurs(pid, 'redis-server')) {
    try {
      await tcpExchange(r.port, Buffer.from('*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n'), {
        until: () => false,
        timeoutMs: 3000,
      });
    } catch {
      // the server closes the connection when it shuts down
    }
    await waitGone(pid, 5000);
  }
  if (pid) await killPid(pid, 'redis-server', { graceMs: 3000 });
}
