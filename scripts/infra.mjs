#!/usr/bin/env node
// Local infrastructure for Flatlay's tests: real Postgres, Kafka (KRaft), Redis and stripe-mock,
// installed into the ignored cache folder `.infra/` and started on free loopback ports; plus the
// Kubernetes tooling the chart test uses (helm, kubeconform in .infra/bin; no cluster).
//
//   node scripts/infra.mjs install   fetch/build everything (idempotent, cached in .infra/)
//   node scripts/infra.mjs up        install, start all services, write .infra/run/env.json
//   node scripts/infra.mjs status    show what is running
//   node scripts/infra.mjs down      stop exactly what `up` started, remove .infra/run
//
// As a module: `import { up, down, status, install } from './infra.mjs'`; `up()` resolves to the
// env object (also written to .infra/run/env.json).
//
// Node built-ins only: this must run before `npm install`.

import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------
// Pinned versions and layout
// ---------------------------------------------------------------------------------------------

export const VERSIONS = Object.freeze({
  kafka: '3.9.2', // org.apache.kafka:kafka_2.13 (+ kafka-tools for the admin CLIs)
  slf4jReload4j: '1.7.36',
  reload4j: '1.2.25',
  dependencyPlugin: '3.8.1',
  stripeMock: 'v0.203.0', // github.com/stripe/stripe-mock
  helm: 'v3.21.4', // helm.sh/helm/v3/cmd/helm
  kubeconform: 'v0.7.0', // github.com/yannh/kubeconform/cmd/kubeconform
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INFRA = path.join(ROOT, '.infra');
const BIN = path.join(INFRA, 'bin');
const KAFKA_DIR = path.join(INFRA, 'kafka');
const KAFKA_LIBS = path.join(KAFKA_DIR, 'libs');
const RUN = path.join(INFRA, 'run');
const ENV_FILE = path.join(RUN, 'env.json');
const STATE_FILE = path.join(RUN, 'state.json');
const STRIPE_MOCK_BIN = path.join(BIN, 'stripe-mock');
export const HELM_BIN = path.join(BIN, 'helm');
export const KUBECONFORM_BIN = path.join(BIN, 'kubeconform');
const REDIS_SERVER = '/usr/bin/redis-server';
const CHROMIUM = '/usr/bin/chromium';

const PG_USER = 'flatlay';
const PG_PASSWORD = 'flatlay';
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

let quiet = false;
const log = (...a) => {
  if (!quiet) console.log('[infra]', ...a);
};

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const exists = (p) => fs.existsSync(p);

/** Runs a command, collecting output; rejects with the output tail on a non-zero exit. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else {
        const e = new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code}):\n${out.slice(-4000)}`);
        e.output = out;
        e.code = code;
        reject(e);
      }
    });
  });
}

function which(bin) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = path.join(dir || '.', bin);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  return null;
}

function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  // A zombie is not alive for our purposes.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z') return false;
  } catch {}
  return true;
}

/** True when pid is alive and its command line contains `needle` (guards against pid reuse). */
function isOurs(pid, needle) {
  if (!isAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle);
  } catch {
    return true; // no /proc: trust the pid
  }
}

async function waitGone(pid, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

async function killPid(pid, needle, { graceMs = 10000, group = false } = {}) {
  if (!isOurs(pid, needle)) return;
  try {
    process.kill(group ? -pid : pid, 'SIGTERM');
  } catch {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
  }
  if (await waitGone(pid, graceMs)) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  await waitGone(pid, 3000);
}

/** Reserves `n` distinct free loopback ports by binding port 0 (all held at once, then released). */
async function freePorts(n) {
  const servers = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = net.createServer();
      await new Promise((res, rej) => {
        s.once('error', rej);
        s.listen(0, '127.0.0.1', res);
      });
      servers.push(s);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

function tcpExchange(port, payload, { until, timeoutMs = 2000 } = {}) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    const done = (err, v) => {
      clearTimeout(t);
      sock.destroy();
      err ? reject(err) : resolve(v);
    };
    const t = setTimeout(() => done(new Error('timeout')), timeoutMs);
    sock.on('connect', () => sock.write(payload));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (until(buf)) done(null, buf);
    });
    sock.on('error', (e) => done(e));
    sock.on('close', () => done(new Error('closed')));
  });
}

function httpGet(url, headers = {}, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, timeout: timeoutMs }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function waitFor(what, check, { timeoutMs, child, logFile }) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) break;
    try {
      if (await check()) return;
    } catch (e) {
      last = e;
    }
    await sleep(200);
  }
  let tail = '';
  if (logFile && exists(logFile)) tail = fs.readFileSync(logFile, 'utf8').slice(-3000);
  const why = child && child.exitCode !== null ? `exited with ${child.exitCode}` : `not ready after ${timeoutMs} ms`;
  throw new Error(`${what} ${why}${last ? ` (last error: ${last.message})` : ''}\n${tail}`);
}

/** Starts a long-running process detached from us (own process group), output to logFile. */
function spawnDaemon(cmd, args, logFile, opts = {}) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], ...opts });
  fs.closeSync(fd);
  child.on('error', () => {});
  child.unref();
  return child;
}

// ---------------------------------------------------------------------------------------------
// install
// ---------------------------------------------------------------------------------------------

function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!exists(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => exists(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

async function aptInstall(pkgs) {
  if (!IS_ROOT) throw new Error(`missing ${pkgs.join(', ')}: install them with apt-get (needs root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Never let a package's maintainer script start a system service (redis on 6379, ...).
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !exists(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const candidates = await run('apt-cache', ['policy', ...pkgs], { env }).catch(() => '');
    const stale = (candidates.match(/Candidate: \(none\)/g) ?? []).length > 0 || candidates.split('\n').filter((l) => /^\S.*:$/.test(l)).length < pkgs.length;
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

async function installApt() {
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

function kafkaPom() {
  const dep = (g, a, v) =>
    `    <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by scripts/infra.mjs: the jars of a single-node Kafka broker. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.flatlay.infra</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
${dep('org.apache.kafka', 'kafka_2.13', VERSIONS.kafka)}
${dep('org.apache.kafka', 'kafka-tools', VERSIONS.kafka)}
${dep('org.slf4j', 'slf4j-reload4j', VERSIONS.slf4jReload4j)}
${dep('ch.qos.reload4j', 'reload4j', VERSIONS.reload4j)}
  </dependencies>
</project>
`;
}

async function installKafka() {
  const marker = path.join(KAFKA_LIBS, '.complete');
  const pom = kafkaPom();
  if (exists(marker) && fs.readFileSync(marker, 'utf8') === pom) {
    log(`kafka ${VERSIONS.kafka}: cached in .infra/kafka/libs`);
    return;
  }
  if (!which('mvn')) throw new Error('mvn (Maven) is required to fetch Kafka');
  log(`kafka ${VERSIONS.kafka}: fetching jars from Maven Central`);
  const t = Date.now();
  fs.mkdirSync(KAFKA_DIR, { recursive: true });
  fs.rmSync(KAFKA_LIBS, { recursive: true, force: true });
  fs.writeFileSync(path.join(KAFKA_DIR, 'pom.xml'), pom);
  await run(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      path.join(KAFKA_DIR, 'pom.xml'),
      `org.apache.maven.plugins:maven-dependency-plugin:${VERSIONS.dependencyPlugin}:copy-dependencies`,
      '-DincludeScope=runtime',
      `-DoutputDirectory=${KAFKA_LIBS}`,
    ],
    { cwd: KAFKA_DIR },
  );
  fs.writeFileSync(marker, pom);
  log(`kafka: ${fs.readdirSync(KAFKA_LIBS).filter((f) => f.endsWith('.jar')).length} jars in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/** `go install <pkg>@<version>` into .infra/bin, skipped when that version is already there. */
async function installGoTool(name, pkg, version) {
  const bin = path.join(BIN, name);
  const marker = path.join(BIN, `.${name}.version`);
  if (exists(bin) && exists(marker) && fs.readFileSync(marker, 'utf8') === version) {
    log(`${name} ${version}: cached in .infra/bin`);
    return;
  }
  if (!which('go')) throw new Error(`go is required to build ${name}`);
  log(`${name} ${version}: go install`);
  const t = Date.now();
  fs.mkdirSync(BIN, { recursive: true });
  await run('go', ['install', `${pkg}@${version}`], {
    cwd: os.tmpdir(),
    env: { ...process.env, GOBIN: BIN, GOFLAGS: '-mod=mod', GO111MODULE: 'on' },
  });
  fs.writeFileSync(marker, version);
  log(`${name}: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const installStripeMock = () => installGoTool('stripe-mock', 'github.com/stripe/stripe-mock', VERSIONS.stripeMock);
// Kubernetes tooling for tests/chart.int.spec.ts (lint, render, schema-check the Helm chart offline).
const installHelm = () => installGoTool('helm', 'helm.sh/helm/v3/cmd/helm', VERSIONS.helm);
const installKubeconform = () => installGoTool('kubeconform', 'github.com/yannh/kubeconform/cmd/kubeconform', VERSIONS.kubeconform);

/** Fetches/builds everything into .infra/ (each step skipped when its output exists). */
export async function install(opts = {}) {
  if (opts.quiet !== undefined) quiet = opts.quiet;
  ensureGitignore();
  fs.mkdirSync(INFRA, { recursive: true });
  const t = Date.now();
  // Independent steps run side by side (apt, Maven, Go).
  const results = await Promise.allSettled([installApt(), installKafka(), installStripeMock(), installHelm(), installKubeconform()]);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) throw new Error(failed.map((r) => r.reason?.message ?? r.reason).join('\n\n'));
  log(`install: ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

function ensureGitignore() {
  const gi = path.join(ROOT, '.gitignore');
  const text = exists(gi) ? fs.readFileSync(gi, 'utf8') : '';
  if (!text.split('\n').some((l) => ['.infra/', '/.infra/', '.infra', '/.infra'].includes(l.trim()))) {
    fs.writeFileSync(gi, text + (text && !text.endsWith('\n') ? '\n' : '') + '.infra/\n');
  }
}

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

function postgresIds() {
  if (!IS_ROOT) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return ids();
  } catch {
    log('creating OS user postgres (Postgres refuses to run as root)');
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/bin/sh', 'postgres']);
    return ids();
  }
}

async function pgReady(bin, port) {
  try {
    await run(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', PG_USER, '-d', 'postgres']);
    return true;
  } catch {
    return false;
  }
}

async function pgQuery(bin, url, sql) {
  return (await run(path.join(bin, 'psql'), [url, '-XAtqc', sql])).trim();
}

async function startPostgres(port, state, save) {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  const ids = postgresIds();
  // Under /tmp so that the `postgres` OS user can reach it whatever the repo's permissions.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'flatlay-pg-'));
  fs.chmodSync(base, 0o700);
  if (IS_ROOT) fs.chownSync(base, ids.uid, ids.gid);
  const data = path.join(base, 'data');
  const logFile = path.join(base, 'postgres.log');
  state.postgres = { base, data, port, bin, logFile };
  save();
  const pw = path.join(base, 'pw');
  fs.writeFileSync(pw, PG_PASSWORD + '\n');
  if (IS_ROOT) fs.chownSync(pw, ids.uid, ids.gid);
  const asPg = { ...ids, cwd: base, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
  await run(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', PG_USER, `--pwfile=${pw}`, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    asPg,
  );
  fs.rmSync(pw);
  const opts = [
    `-p ${port}`,
    `-k ${base}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=128MB',
  ].join(' ');
  // detached: the postmaster gets its own session, so a Ctrl-C aimed at our caller does not reach it.
  await run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start'], { ...asPg, detached: true });
  const url = `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitFor('postgres', async () => (await pgReady(bin, port)) && (await pgQuery(bin, url, 'select 1')) === '1', {
    timeoutMs: 30000,
    logFile,
  });
  state.postgres.pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  state.postgres.url = url;
  save();
  log(`postgres: ready on 127.0.0.1:${port} (pid ${state.postgres.pid})`);
}

async function stopPostgres(pg) {
  if (!pg) return;
  if (pg.data && exists(path.join(pg.data, 'postmaster.pid'))) {
    try {
      await run(path.join(pg.bin, 'pg_ctl'), ['-D', pg.data, '-m', 'fast', '-w', '-t', '30', 'stop'], { ...postgresIds(), cwd: pg.base });
    } catch (e) {
      log(`postgres: pg_ctl stop failed, killing (${e.message.split('\n')[0]})`);
    }
  }
  if (pg.pid) await killPid(pg.pid, 'postgres', { graceMs: 5000 });
  if (pg.base && pg.base.startsWith(path.join(os.tmpdir(), 'flatlay-pg-'))) fs.rmSync(pg.base, { recursive: true, force: true });
}

/** Kafka ApiVersions v0 request; resolves true when the broker answers with error_code 0. */
async function kafkaApiVersions(port) {
  const clientId = Buffer.from('flatlay-infra');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
  body.writeInt16BE(18, 0); // api_key ApiVersions
  body.writeInt16BE(0, 2); // api_version
  body.writeInt32BE(7, 4); // correlation_id
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  const res = await tcpExchange(port, Buffer.concat([size, body]), {
    until: (b) => b.length >= 4 && b.length >= 4 + b.readInt32BE(0),
  });
  return res.readInt32BE(4) === 7 && res.readInt16BE(8) === 0;
}

function kafkaUuid() {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-') && !/^A{21}[AQ]$/.test(id)) return id;
  }
}

async function startKafka(port, controllerPort, state, save) {
  const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const dir = path.join(RUN, 'kafka');
  const logDir = path.join(dir, 'data');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(logDir, { recursive: true });
  const props = path.join(dir, 'server.properties');
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'inter.broker.listener.name=PLAINTEXT',
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      `log.dirs=${logDir}`,
      'num.partitions=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=false',
      'delete.topic.enable=true',
      'num.network.threads=2',
      'num.io.threads=4',
      'log.flush.interval.messages=9223372036854775807',
      '',
    ].join('\n'),
  );
  const log4j = path.join(dir, 'log4j.properties');
  fs.writeFileSync(
    log4j,
    [
      'log4j.rootLogger=INFO, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      'log4j.logger.kafka=INFO',
      'log4j.logger.org.apache.kafka=INFO',
      'log4j.logger.state.change.logger=WARN',
      '',
    ].join('\n'),
  );
  const cp = path.join(KAFKA_LIBS, '*');
  const jvm = [`-Dlog4j.configuration=file:${log4j}`, '-Djava.awt.headless=true', '-cp', cp];
  await run(java, ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...jvm, 'kafka.tools.StorageTool', 'format', '-t', kafkaUuid(), '-c', props]);
  const logFile = path.join(dir, 'kafka.log');
  const child = spawnDaemon(
    java,
    ['-Xms128m', '-Xmx384m', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', `-Dflatlay.infra=${ROOT}`, ...jvm, 'kafka.Kafka', props],
    logFile,
  );
  state.kafka = { pid: child.pid, port, controllerPort, dir, logFile };
  save();
  await waitFor(
    'kafka',
    async () => fs.readFileSync(logFile, 'utf8').includes('Kafka Server started') && (await kafkaApiVersions(port)),
    { timeoutMs: 120000, child, logFile },
  );
  log(`kafka: ready on 127.0.0.1:${port} (pid ${child.pid})`);
}

async function redisPing(port) {
  const res = await tcpExchange(port, Buffer.from('*1\r\n$4\r\nPING\r\n'), { until: (b) => b.includes('\r\n') });
  return res.toString().startsWith('+PONG');
}

async function startRedis(port, state, save) {
  const dir = path.join(RUN, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  const logFile = path.join(dir, 'redis.log');
  state.redis = { port, dir, pidFile, logFile };
  save();
  await run(REDIS_SERVER, [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--save', '',
    '--appendonly', 'no',
    '--daemonize', 'yes',
    '--pidfile', pidFile,
    '--logfile', logFile,
    '--dir', dir,
  ]);
  await waitFor('redis', () => redisPing(port), { timeoutMs: 20000, logFile });
  await waitFor('redis pidfile', () => exists(pidFile), { timeoutMs: 5000, logFile });
  state.redis.pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  save();
  log(`redis: ready on 127.0.0.1:${port} (pid ${state.redis.pid})`);
}

async function stopRedis(r) {
  if (!r) return;
  const pid = r.pid ?? (r.pidFile && exists(r.pidFile) ? Number(fs.readFileSync(r.pidFile, 'utf8').trim()) : 0);
  if (pid && isOurs(pid, 'redis-server')) {
    try {
      await tcpExchange(r.port, Buffer.from('*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n'), { until: () => false, timeoutMs: 3000 });
    } catch {
      // the server closes the connection when it shuts down
    }
    await waitGone(pid, 5000);
  }
  if (pid) await killPid(pid, 'redis-server', { graceMs: 3000 });
}

async function stripeMockOk(port) {
  const res = await httpGet(`http://127.0.0.1:${port}/v1/customers`, { Authorization: 'Bearer sk_test_123' });
  return res.status === 200;
}

async function startStripeMock(port, httpsPort, state, save) {
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

// ---------------------------------------------------------------------------------------------
// State, env, health
// ---------------------------------------------------------------------------------------------

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function envFrom(state) {
  return {
    DATABASE_URL: state.postgres.url,
    KAFKA_BROKERS: `127.0.0.1:${state.kafka.port}`,
    REDIS_URL: `redis://127.0.0.1:${state.redis.port}`,
    STRIPE_MOCK_URL: `http://127.0.0.1:${state.stripeMock.port}`,
    CHROMIUM_PATH: CHROMIUM,
    pids: {
      postgres: state.postgres.pid,
      kafka: state.kafka.pid,
      redis: state.redis.pid,
      stripeMock: state.stripeMock.pid,
    },
  };
}

async function health(state) {
  const h = {};
  const guard = async (f) => {
    try {
      return Boolean(await f());
    } catch {
      return false;
    }
  };
  h.postgres = await guard(async () => state.postgres?.pid && isOurs(state.postgres.pid, 'postgres') && (await pgReady(state.postgres.bin, state.postgres.port)));
  h.kafka = await guard(async () => state.kafka?.pid && isOurs(state.kafka.pid, 'kafka.Kafka') && (await kafkaApiVersions(state.kafka.port)));
  h.redis = await guard(async () => state.redis?.pid && isOurs(state.redis.pid, 'redis-server') && (await redisPing(state.redis.port)));
  h.stripeMock = await guard(async () => state.stripeMock?.pid && isOurs(state.stripeMock.pid, 'stripe-mock') && (await stripeMockOk(state.stripeMock.port)));
  return h;
}

// ---------------------------------------------------------------------------------------------
// up / down / status
// ---------------------------------------------------------------------------------------------

/**
 * Installs what is missing, starts Postgres, Kafka, Redis and stripe-mock on free loopback ports
 * and resolves to the env object (also written to .infra/run/env.json). When everything recorded
 * is already up and healthy, keeps it and resolves to the same env.
 */
export async function up(opts = {}) {
  if (opts.quiet !== undefined) quiet = opts.quiet;
  const t0 = Date.now();
  const existing = readJson(STATE_FILE);
  if (existing?.complete) {
    const h = await health(existing);
    if (Object.values(h).every(Boolean)) {
      log('already up and healthy; keeping it');
      return readJson(ENV_FILE) ?? envFrom(existing);
    }
    log(`found a stale run (${Object.entries(h).filter(([, ok]) => !ok).map(([k]) => k).join(', ')} not healthy); restarting`);
  }
  if (existing) await down({ quiet });

  await install();
  fs.rmSync(RUN, { recursive: true, force: true });
  fs.mkdirSync(RUN, { recursive: true });
  const state = { root: ROOT, startedAt: new Date().toISOString(), complete: false };
  const save = () => fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  save();

  const [pgPort, kafkaPort, controllerPort, redisPort, stripePort, stripeHttpsPort] = await freePorts(6);
  const t1 = Date.now();
  try {
    const results = await Promise.allSettled([
      startPostgres(pgPort, state, save),
      startKafka(kafkaPort, controllerPort, state, save),
      startRedis(redisPort, state, save),
      startStripeMock(stripePort, stripeHttpsPort, state, save),
    ]);
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length) throw new Error(failed.map((r) => r.reason?.message ?? r.reason).join('\n\n'));
  } catch (e) {
    log('start failed; stopping what was started');
    await down({ quiet: true }).catch(() => {});
    throw e;
  }
  state.complete = true;
  save();
  const env = envFrom(state);
  fs.writeFileSync(ENV_FILE, JSON.stringify(env, null, 2) + '\n');
  log(`services started in ${((Date.now() - t1) / 1000).toFixed(1)} s; up took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  log(`env: ${path.relative(process.cwd(), ENV_FILE) || ENV_FILE}`);
  return env;
}

/** Stops exactly what `up` recorded and removes .infra/run. */
export async function down(opts = {}) {
  if (opts.quiet !== undefined) quiet = opts.quiet;
  const state = readJson(STATE_FILE);
  if (!state) {
    log('nothing recorded as running');
    fs.rmSync(RUN, { recursive: true, force: true });
    return;
  }
  await Promise.allSettled([
    stopPostgres(state.postgres),
    state.kafka?.pid ? killPid(state.kafka.pid, 'kafka.Kafka', { graceMs: 15000, group: true }) : null,
    stopRedis(state.redis),
    state.stripeMock?.pid ? killPid(state.stripeMock.pid, 'stripe-mock', { graceMs: 5000, group: true }) : null,
  ]);
  const left = [
    ['postgres', state.postgres?.pid, 'postgres'],
    ['kafka', state.kafka?.pid, 'kafka.Kafka'],
    ['redis', state.redis?.pid, 'redis-server'],
    ['stripe-mock', state.stripeMock?.pid, 'stripe-mock'],
  ].filter(([, pid, needle]) => pid && isOurs(pid, needle));
  fs.rmSync(RUN, { recursive: true, force: true });
  if (left.length) throw new Error(`still running: ${left.map(([n, p]) => `${n} (${p})`).join(', ')}`);
  log('down: all stopped');
}

/** Prints (and resolves to) the health of what `up` recorded. */
export async function status(opts = {}) {
  if (opts.quiet !== undefined) quiet = opts.quiet;
  const state = readJson(STATE_FILE);
  if (!state) {
    log('down (nothing recorded in .infra/run)');
    return { up: false };
  }
  const h = await health(state);
  const addr = {
    postgres: state.postgres && `127.0.0.1:${state.postgres.port}`,
    kafka: state.kafka && `127.0.0.1:${state.kafka.port}`,
    redis: state.redis && `127.0.0.1:${state.redis.port}`,
    stripeMock: state.stripeMock && `127.0.0.1:${state.stripeMock.port}`,
  };
  for (const [name, ok] of Object.entries(h)) {
    log(`${name.padEnd(11)} ${ok ? 'up  ' : 'DOWN'} ${addr[name] ?? '-'} pid ${state[name]?.pid ?? '-'}`);
  }
  const allUp = state.complete && Object.values(h).every(Boolean);
  log(allUp ? `all up; env in ${ENV_FILE}` : 'not fully up');
  return { up: allUp, health: h, env: allUp ? readJson(ENV_FILE) : null };
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const cmd = process.argv[2];
  const commands = { install, up, down, status };
  if (!commands[cmd]) {
    console.error('usage: node scripts/infra.mjs <install|up|down|status>');
    process.exit(2);
  }
  commands[cmd]()
    .then((r) => {
      if (cmd === 'up') console.log(JSON.stringify(r, null, 2));
      if (cmd === 'status' && !r.up) process.exitCode = 1;
    })
    .catch((e) => {
      console.error(`[infra] ${cmd} failed: ${e.stack ?? e}`);
      process.exit(1);
    });
}
