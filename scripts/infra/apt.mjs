// System packages from apt: Debian's PostgreSQL, redis-server and chromium.

import fs from 'node:fs';
import { CHROMIUM, IS_ROOT, REDIS_SERVER } from './layout.mjs';
import { log } from './log.mjs';
import { pgBinDir } from './postgres.mjs';
import { exists, run } from './process.mjs';

/** @param {string[]} pkgs */
export async function aptInstall(pkgs) {
  if (!IS_ROOT) throw new Error(`missing ${pkgs.join(', ')}: install them with apt-get (needs root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Never let a package's maintainer script start a system service (redis on 6379, ...).
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !exists(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const candidates = await run('apt-cache', ['policy', ...pkgs], { env }).catch(() => '');
    const stale =
      (candidates.match(/Candidate: \(none\)/g) ?? []).length > 0 ||
      candidates.split('\n').filter((l) => /^\S.*:$/.test(l)).length < pkgs.length;
    if (stale) {
      log('apt-get update');
      await run('apt-get', ['update', '-q'], { env });
    }
    const args = ['install', '-y', '-q', '--no-install-recommends', ...pkgs];
    try {
      await run('apt-get', args, { env });
    } catch (e) {
      if (stale) throw e;
      log('apt-get install failed; apt-get update and retry');
      await run('apt-get', ['update', '-q'], { env });
      await run('apt-get', args, { env });
    }
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
}

/** Installs whichever of postgresql, redis-server and chromium is missing. */
export async function installApt() {
  const pkgs = [];
  if (!pgBinDir()) pkgs.push('postgresql');
  if (!exists(REDIS_SERVER)) pkgs.push('redis-server');
  if (!exists(CHROMIUM)) pkgs.push('chromium');
  if (!pkgs.length) {
    log('apt: postgresql, redis-server, chromium present');
    return;
  }
  log(`apt: installing ${pkgs.join(' ')}`);
  const t = Date.now();
  await aptInstall(pkgs);
  log(`apt: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
