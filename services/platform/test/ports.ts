// Ports for test processes that are killed and started again on the same port.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { freePort } from '../src/index.js';

/**
 * A port free now that stays free while a process is down between a kill and its restart: one
 * below the kernel's ephemeral range, which outgoing connections (Kafka, Postgres, fetch) draw
 * from and `freePort()` too. A port from that range was taken by someone's outgoing connection in
 * the moment between a kill and the restart, or between choosing it and the first start
 * (EADDRINUSE).
 */
export async function steadyPort(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768 60999');
  const ephemeralFrom = Number(range.trim().split(/\s+/)[0]) || 32768;
  const lowest = Math.min(20_000, ephemeralFrom - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = lowest + Math.floor(Math.random() * (ephemeralFrom - lowest));
    if (await canListen(port)) return port;
  }
  return freePort();
}

/**
 * `n` distinct steady ports (see steadyPort), for a suite that starts several processes: each
 * stays free from the moment it is chosen until its process starts, which in the container suite
 * is seconds later (a port from the ephemeral range, chosen by `freePort()`, was taken in between:
 * EADDRINUSE on a component's metrics port).
 */
export async function steadyPorts(n: number): Promise<number[]> {
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(await steadyPort());
  return [...chosen];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}
