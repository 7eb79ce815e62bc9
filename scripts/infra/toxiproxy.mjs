// Toxiproxy (github.com/Shopify/toxiproxy/v2), the fault tier's network faults: built with the
// other Go tools once per machine (kube-family.mjs, outside the clone), linked into .infra/bin, and
// started by the fault tier on a loopback port of its own. The module's server command is
// cmd/server (the build names it `server`; linked here as toxiproxy-server).

import fs from 'node:fs';
import path from 'node:path';
import { linkGoTool } from './go-tools.mjs';
import { BIN } from './layout.mjs';
import { log } from './log.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

export const TOXIPROXY_BIN = path.join(BIN, 'toxiproxy-server');

/** Links toxiproxy-server into .infra/bin (building the Go tools first where needed); answers the link. */
export const installToxiproxy = () => linkGoTool(TOXIPROXY_BIN, 'server');

/** Starts toxiproxy-server on 127.0.0.1:`port` (its HTTP API), output to `dir`/toxiproxy.log. */
/** @param {number} port @param {string} dir */
export async function startToxiproxy(port, dir) {
  fs.mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, 'toxiproxy.log');
  const child = spawnDaemon(TOXIPROXY_BIN, ['-host', '127.0.0.1', '-port', String(port)], logFile);
  await waitFor(
    'toxiproxy',
    async () => (await fetch(`http://127.0.0.1:${port}/version`).catch(() => undefined))?.ok === true,
    { timeoutMs: 30_000, child, logFile },
  );
  log(`toxiproxy: ready on 127.0.0.1:${port} (pid ${child.pid})`);
  return { pid: child.pid, port, logFile };
}

/** @param {import('./state.mjs').ServiceRecord | undefined} t */
export async function stopToxiproxy(t) {
  if (t?.pid) await killPid(t.pid, 'toxiproxy-server', { graceMs: 5000 });
}
