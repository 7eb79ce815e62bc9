// Prometheus and promtool (github.com/prometheus/prometheus, cmd/prometheus and cmd/promtool), the
// monitoring tests' real parts (tests/monitoring-*.int.spec.ts, ADR 0305): built with `go install`
// once per version into the cache outside the clone (KUBE_CACHE/prometheus-<version>, as Toxiproxy
// and k6), so a fresh clone on a warm machine only links them into .infra/bin. The first build is
// minutes; a cached one is a file check. Built without the `builtinassets` tag (no web UI, the HTTP
// API only) and with `remove_all_sd` (below).

import fs from 'node:fs';
import path from 'node:path';
import { BIN, KUBE_CACHE, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { goCompile } from './go-env.mjs';
import { exists, which } from './process.mjs';

export const PROMETHEUS_BIN = path.join(BIN, 'prometheus');
export const PROMTOOL_BIN = path.join(BIN, 'promtool');
const MODULE = 'github.com/prometheus/prometheus';
const COMMANDS = /** @type {const} */ (['prometheus', 'promtool']);
// Prometheus's own build tag (plugins/plugin_*.go): no service discovery but the static and file
// ones. The tests scrape fixed targets; the cloud and Kubernetes discoveries were 59% of the Go
// source compiled (135 MB of it; 56 MB without), the longest build of a cold `npm test`.
const TAGS = 'remove_all_sd';

/** Builds prometheus and promtool once per version into the shared cache and links them into .infra/bin. */
export async function installPrometheus() {
  const version = VERSIONS.prometheus;
  const cache = path.join(KUBE_CACHE, `prometheus-${version}`);
  // The folder is renamed into place only once both binaries are built: its presence is the marker.
  if (!COMMANDS.every((c) => exists(path.join(cache, c)))) {
    if (!which('go')) throw new Error('go is required to build prometheus and promtool');
    log(`prometheus ${version}: go install into ${cache} (once per machine)`);
    const t = Date.now();
    const tmp = `${cache}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    try {
      await goCompile('install', [`-tags=${TAGS}`, ...COMMANDS.map((c) => `${MODULE}/cmd/${c}@${version}`)], {
        env: { GOBIN: tmp },
      });
      fs.rmSync(cache, { recursive: true, force: true });
      fs.renameSync(tmp, cache);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    log(`prometheus: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else {
    log(`prometheus ${version}: cached in ${cache}`);
  }
  fs.mkdirSync(BIN, { recursive: true });
  for (const [c, link] of /** @type {const} */ ([
    ['prometheus', PROMETHEUS_BIN],
    ['promtool', PROMTOOL_BIN],
  ])) {
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(cache, c), link);
  }
  return { prometheus: PROMETHEUS_BIN, promtool: PROMTOOL_BIN };
}
