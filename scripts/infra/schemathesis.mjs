// Schemathesis (the API fuzzer of tests/api-fuzz.e2e.spec.ts and `npm run fuzz`), from PyPI
// into a virtual environment cached outside the clone, keyed by version
// (~/.cache/flatlay/schemathesis-<version>), so CI and every clone share it; the clone's
// .infra/schemathesis points at it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INFRA, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { exists, run, which } from './process.mjs';

export const SCHEMATHESIS_HOME = path.join(INFRA, 'schemathesis');
/** The `st` command of the pinned version (through the clone's link). */
export const SCHEMATHESIS_BIN = path.join(SCHEMATHESIS_HOME, 'bin', 'st');

export async function installSchemathesis() {
  const version = VERSIONS.schemathesis;
  const cache = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
    'flatlay',
    `schemathesis-${version}`,
  );
  const st = path.join(cache, 'bin', 'st');
  if (!exists(st)) {
    const python = which('python3') ? 'python3' : 'python';
    log(`schemathesis ${version}: pip install into ${cache}`);
    const t = Date.now();
    fs.rmSync(cache, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    await run(python, ['-m', 'venv', cache]);
    await run(path.join(cache, 'bin', 'python'), [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `schemathesis==${version}`,
    ]);
    log(`schemathesis: installed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else {
    log(`schemathesis ${version}: cached in ${cache}`);
  }
  fs.mkdirSync(INFRA, { recursive: true });
  fs.rmSync(SCHEMATHESIS_HOME, { recursive: true, force: true });
  fs.symlinkSync(cache, SCHEMATHESIS_HOME);
}
