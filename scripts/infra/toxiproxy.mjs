// Toxiproxy (github.com/Shopify/toxiproxy/v2), the fault tier's network faults: built with
// `go install` once per version into the cache outside the clone (~/.cache/flatlay/toxiproxy-<version>,
// as k6), linked into .infra/bin, and started by the fault tier on a loopback port of its own.
// The module's server command is cmd/server (the binary `go install` names `server`; linked here
// as toxiproxy-server).

import fs from 'node:fs';
import path from 'node:path';
import { BIN, KUBE_CACHE, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { goCompile } from './go-env.mjs';
import { exists, killPid, spawnDaemon, waitFor, which } from './process.mjs';

export const TOXIPROXY_BIN = path.join(BIN, 'toxiproxy-server');
const PACKAGE = 'github.com/Shopify/toxiproxy/v2/cmd/server';

/** Builds toxiproxy-server once per version into the shared cache and links it into .infra/bin. */
export async function installToxiproxy() {
  const version = VERSIONS.toxiproxy;
  const cache = path.join(KUBE_CACHE, `toxiproxy-${version}`);
  const built = path.join(cache, 'server');
  if (!exists(built)) {
    if (!which('go')) throw new Error('go is required to build toxiproxy');
    log(`toxiproxy ${version}: go install into ${cache}`);
    const t = Date.now();
    const tmp = `${cache}.tmp-${process.pid}`;
    fs.mkdirSync(tmp, { recursive: true });
    await goCompile('install', [`${PACKAGE}@${version}`], { env: { GOBIN: tmp } });
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(tmp, cache);
    log(`toxiproxy: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else {
    log(`toxiproxy ${version}: cached in ${cache}`);
  }
  fs.mkdirSync(BIN, { recursive: true });
  fs.rmSync(TOXIPROXY_BIN, { force: true });
  fs.symlinkSync(built, TOXIPROXY_BIN);
  return TOXIPROXY_BIN;
}

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
