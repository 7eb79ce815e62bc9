// stripe-mock (linked into .infra/bin by go-tools.mjs), run detached on free loopback ports.

import fs from 'node:fs';
import path from 'node:path';
import { RUN, STRIPE_MOCK_BIN } from './layout.mjs';
import { log } from './log.mjs';
import { httpGet } from './probe.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

/** @param {number} port */
export async function stripeMockOk(port) {
  const res = await httpGet(`http://127.0.0.1:${port}/v1/customers`, { Authorization: 'Bearer sk_test_123' });
  return res.status === 200;
}

/**
 * @param {number} port @param {number} httpsPort
 * @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save
 */
export async function startStripeMock(port, httpsPort, state, save) {
  const dir = path.join(RUN, 'stripe-mock');
  fs.mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, 'stripe-mock.log');
  // stripe-mock also opens HTTPS on *:12112 unless told otherwise (-http-addr does not turn it
  // off), so pin that listener to loopback on a free port too.
  const args = ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${httpsPort}`];
  const child = spawnDaemon(STRIPE_MOCK_BIN, args, logFile, { cwd: dir });
  state.stripeMock = { pid: child.pid, port, httpsPort, logFile };
  save();
  await waitFor('stripe-mock', () => stripeMockOk(port), { timeoutMs: 30000, child, logFile });
  log(`stripe-mock: ready on 127.0.0.1:${port} (pid ${child.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} s */
export async function stopStripeMock(s) {
  if (s?.pid) await killPid(s.pid, 'stripe-mock', { graceMs: 5000, group: true });
}
