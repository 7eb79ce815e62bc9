#!/usr/bin/env node
// Local infrastructure for Flatlay's tests: real Postgres, Kafka (KRaft), Redis, stripe-mock, an S3 server (versitygw) and a test mailbox (SMTP),
// installed into the ignored cache folder `.infra/` and started on free loopback ports; plus the
// Kubernetes tooling the chart test uses (helm, kubeconform in .infra/bin; no cluster), Schemathesis
// and k6 (the load suite).
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
//
// The work is done by the single-purpose modules in scripts/infra/; this file orchestrates them
// and is the only public surface (exports and CLI).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installAptPackages, installGoBeside } from './infra/apt.mjs';
import { ensureBaseImage, installContainerTools, missingContainerTools } from './infra/containers.mjs';
import { installHelm, installKubeconform, installStripeMock } from './infra/go-tools.mjs';
import { health } from './infra/health.mjs';
import { installK6 } from './infra/k6.mjs';
import { installKafka, startKafka, stopKafka } from './infra/kafka.mjs';
import { startMailbox, stopMailbox } from './infra/mailbox.mjs';
import { installS3Server, startS3Server, stopS3Server } from './infra/s3-server.mjs';
import { ENV_FILE, INFRA, IS_ROOT, ROOT, RUN, STATE_FILE, ensureGitignore } from './infra/layout.mjs';
import { isQuiet, log, setQuiet } from './infra/log.mjs';
import { startPostgres, stopPostgres } from './infra/postgres.mjs';
import { installPrometheus } from './infra/prometheus.mjs';
import { freePorts, isOurs } from './infra/process.mjs';
import { startRedis, stopRedis } from './infra/redis.mjs';
import { installSchemathesis } from './infra/schemathesis.mjs';
import { envFrom, readJson } from './infra/state.mjs';
import { startStripeMock, stopStripeMock } from './infra/stripe-mock.mjs';
import { installToxiproxy } from './infra/toxiproxy.mjs';

export { HELM_BIN, KUBECONFORM_BIN, VERSIONS } from './infra/layout.mjs';
export { installK6, K6_BIN } from './infra/k6.mjs';

// ---------------------------------------------------------------------------------------------
// install
// ---------------------------------------------------------------------------------------------

/**
 * Fetches/builds everything into .infra/ (each step skipped when its output exists). `baseImage`:
 * also the container tier's base image (ADR 0304), minutes of downloads on a new machine, made here
 * beside the Go builds when CI installs first (`node scripts/infra.mjs install`); otherwise `npm
 * test` makes it with the product image.
 */
/** @param {{ quiet?: boolean, baseImage?: boolean }} [opts] */
export async function install(opts = {}) {
  if (opts.quiet !== undefined) setQuiet(opts.quiet);
  ensureGitignore();
  fs.mkdirSync(INFRA, { recursive: true });
  const t = Date.now();
  // The system packages (the container tools among them: one apt-get) and Go at once. The Go builds
  // need only Go, so on a new machine they compile while apt downloads and unpacks; the steps that
  // run java, mvn, python3's venv or podman wait for the packages.
  const packages = installAptPackages(IS_ROOT ? missingContainerTools() : []);
  const go = installGoBeside(packages);
  /** @param {() => Promise<unknown>} step */
  const afterPackages = (step) => packages.then(step);
  /** @param {() => Promise<unknown>} step */
  const afterGo = (step) => go.then(step);
  const results = await Promise.allSettled([
    packages,
    go,
    // podman, buildah, runc for the container tier (ADR 0304), and with `baseImage` its base image.
    afterPackages(installContainerTools).then(() => (opts.baseImage ? timedBaseImage() : undefined)),
    afterPackages(installKafka),
    afterGo(installStripeMock),
    afterGo(installS3Server),
    afterGo(installHelm),
    afterGo(installKubeconform),
    afterPackages(installSchemathesis),
    // The load suite's k6 (tests/load-smoke.e2e.spec.ts in the e2e tier, `npm run load`).
    afterGo(installK6),
    // The fault tier's network faults (tests/fault, scripts/infra/fault.mjs).
    afterGo(installToxiproxy),
    // The monitoring tests' Prometheus and promtool (tests/monitoring-*.int.spec.ts, ADR 0305).
    // Built with helm in one Go build with the control plane's binaries (kube-family.mjs, ADR 0307),
    // so those are made here too; the k8s tier's CRDs are made by `npm test` (kube-tools.mjs).
    afterGo(installPrometheus),
  ]);
  // A failed apt-get or Go fails the steps after it too: each message once.
  const failed = new Set(
    results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason?.message ?? r.reason)] : [])),
  );
  if (failed.size) throw new Error([...failed].join('\n\n'));
  log(`install: ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/** The container base image, its time printed as the image build's own steps are (ADR 0304). */
async function timedBaseImage() {
  const t = Date.now();
  const built = await ensureBaseImage();
  log(`containers: base image ${built ? 'built' : 'cached'} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// up / down / status
// ---------------------------------------------------------------------------------------------

/**
 * Installs what is missing, starts Postgres, Kafka, Redis, stripe-mock, the S3 server and the test mailbox on free loopback ports
 * and resolves to the env object (also written to .infra/run/env.json). When everything recorded
 * is already up and healthy, keeps it and resolves to the same env.
 */
/** @param {{ quiet?: boolean }} [opts] */
export async function up(opts = {}) {
  if (opts.quiet !== undefined) setQuiet(opts.quiet);
  const t0 = Date.now();
  const existing = readJson(STATE_FILE);
  if (existing?.complete) {
    const h = await health(existing);
    if (Object.values(h).every(Boolean)) {
      log('already up and healthy; keeping it');
      return readJson(ENV_FILE) ?? envFrom(existing);
    }
    log(
      `found a stale run (${Object.entries(h)
        .filter(([, ok]) => !ok)
        .map(([k]) => k)
        .join(', ')} not healthy); restarting`,
    );
  }
  if (existing) await down({ quiet: isQuiet() });

  await install();
  fs.rmSync(RUN, { recursive: true, force: true });
  fs.mkdirSync(RUN, { recursive: true });
  const state = { root: ROOT, startedAt: new Date().toISOString(), complete: false };
  const save = () => fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  save();

  const [pgPort, kafkaPort, controllerPort, redisPort, stripePort, stripeHttpsPort, s3Port, smtpPort, mailboxPort] =
    await freePorts(9);
  const t1 = Date.now();
  try {
    const results = await Promise.allSettled([
      startPostgres(pgPort, state, save),
      startKafka(kafkaPort, controllerPort, state, save),
      startRedis(redisPort, state, save),
      startStripeMock(stripePort, stripeHttpsPort, state, save),
      startS3Server(s3Port, state, save),
      startMailbox(smtpPort, mailboxPort, state, save),
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
  fs.writeFileSync(ENV_FILE, `${JSON.stringify(env, null, 2)}\n`);
  log(
    `services started in ${((Date.now() - t1) / 1000).toFixed(1)} s; up took ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  log(`env: ${path.relative(process.cwd(), ENV_FILE) || ENV_FILE}`);
  return env;
}

/** Stops exactly what `up` recorded and removes .infra/run. */
/** @param {{ quiet?: boolean }} [opts] */
export async function down(opts = {}) {
  if (opts.quiet !== undefined) setQuiet(opts.quiet);
  const state = readJson(STATE_FILE);
  if (!state) {
    log('nothing recorded as running');
    fs.rmSync(RUN, { recursive: true, force: true });
    return;
  }
  await Promise.allSettled([
    stopPostgres(state.postgres),
    stopKafka(state.kafka),
    stopRedis(state.redis),
    stopStripeMock(state.stripeMock),
    stopS3Server(state.s3),
    stopMailbox(state.mailbox),
  ]);
  const left = [
    ['postgres', state.postgres?.pid, 'postgres'],
    ['kafka', state.kafka?.pid, 'kafka.Kafka'],
    ['redis', state.redis?.pid, 'redis-server'],
    ['stripe-mock', state.stripeMock?.pid, 'stripe-mock'],
    ['s3', state.s3?.pid, 'versitygw'],
    ['mailbox', state.mailbox?.pid, 'mailbox-server'],
  ].filter(([, pid, needle]) => pid && isOurs(pid, needle));
  fs.rmSync(RUN, { recursive: true, force: true });
  if (left.length) throw new Error(`still running: ${left.map(([n, p]) => `${n} (${p})`).join(', ')}`);
  log('down: all stopped');
}

/** Prints (and resolves to) the health of what `up` recorded. */
/** @param {{ quiet?: boolean }} [opts] */
export async function status(opts = {}) {
  if (opts.quiet !== undefined) setQuiet(opts.quiet);
  const state = readJson(STATE_FILE);
  if (!state) {
    log('down (nothing recorded in .infra/run)');
    return { up: false };
  }
  const h = await health(state);
  /** @type {Record<string, string | undefined>} */
  const addr = {
    postgres: state.postgres && `127.0.0.1:${state.postgres.port}`,
    kafka: state.kafka && `127.0.0.1:${state.kafka.port}`,
    redis: state.redis && `127.0.0.1:${state.redis.port}`,
    stripeMock: state.stripeMock && `127.0.0.1:${state.stripeMock.port}`,
    s3: state.s3 && `127.0.0.1:${state.s3.port}`,
    mailbox: state.mailbox && `127.0.0.1:${state.mailbox.smtpPort} (API ${state.mailbox.port})`,
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
  const cmd = process.argv[2] ?? '';
  /** @type {Record<string, () => Promise<any>>} */
  const commands = { install: () => install({ baseImage: true }), up, down, status };
  const command = commands[cmd];
  if (!command) {
    console.error('usage: node scripts/infra.mjs <install|up|down|status>');
    process.exit(2);
  }
  command()
    .then((r) => {
      if (cmd === 'up') console.log(JSON.stringify(r, null, 2));
      if (cmd === 'status' && !r.up) process.exitCode = 1;
    })
    .catch((e) => {
      console.error(`[infra] ${cmd} failed: ${e.stack ?? e}`);
      process.exit(1);
    });
}
