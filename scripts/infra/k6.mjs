// k6 (the load generator of `npm run bench:api`), built with `go install go.k6.io/k6@<version>` into
// a folder cached outside the clone, keyed by version (~/.cache/flatlay/k6-<version>), so every
// clone shares one build (a few minutes on 2 cores the first time); the clone's .infra/bin/k6
// points at it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { goCompile } from './go-env.mjs';
import { exists, which } from './process.mjs';

export const K6_BIN = path.join(BIN, 'k6');

/** Builds k6 once per version into the shared cache and links it into .infra/bin; answers the binary's path. */
export async function installK6() {
  const version = VERSIONS.k6;
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'flatlay', `k6-${version}`);
  const built = path.join(cache, 'k6');
  if (!exists(built)) {
    if (!which('go')) throw new Error('go is required to build k6');
    log(`k6 ${version}: go install into ${cache}`);
    const t = Date.now();
    fs.mkdirSync(cache, { recursive: true });
    await goCompile('install', [`go.k6.io/k6@${version}`], { env: { GOBIN: cache } });
    log(`k6: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else {
    log(`k6 ${version}: cached in ${cache}`);
  }
  fs.mkdirSync(BIN, { recursive: true });
  fs.rmSync(K6_BIN, { force: true });
  fs.symlinkSync(built, K6_BIN);
  return K6_BIN;
}
