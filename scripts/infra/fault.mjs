#!/usr/bin/env node
// The fault tier's own infrastructure (tests/fault, ADR 0011): a Postgres, a one-node Kafka and a
// Toxiproxy that no other tier shares, so the suite may stop and restart them. The broker has a
// second listener that advertises the Toxiproxy's address (the worker's link goes through it).
//
//   node scripts/infra/fault.mjs up                 start all three; prints the env (also in .infra/fault/env.json)
//   node scripts/infra/fault.mjs down               stop exactly what `up` started
//   node scripts/infra/fault.mjs kafka-stop         stop the broker (SIGTERM, as a rolling restart does)
//   node scripts/infra/fault.mjs kafka-start        start it again on the same data
//   node scripts/infra/fault.mjs postgres-restart   fast stop and start on the same data
//
// Node built-ins only, as scripts/infra.mjs.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installKafka, launchKafka, startKafka, stopKafka } from './kafka.mjs';
import { INFRA } from './layout.mjs';
import { log, setQuiet } from './log.mjs';
import { restartPostgres, startPostgres, stopPostgres } from './postgres.mjs';
import { freePorts, isOurs } from './process.mjs';
import { readJson } from './state.mjs';
import { installToxiproxy, startToxiproxy, stopToxiproxy } from './toxiproxy.mjs';

export const FAULT_DIR = path.join(INFRA, 'fault');
const STATE = path.join(FAULT_DIR, 'state.json');
const ENV = path.join(FAULT_DIR, 'env.json');

/** @param {import('./state.mjs').State} s */
const envOf = (s) => ({
  FAULT_DATABASE_URL: s.postgres.url,
  FAULT_POSTGRES_PORT: String(s.postgres.port),
  FAULT_KAFKA_BROKERS: `127.0.0.1:${s.kafka.port}`,
  // The broker's proxied listener, and the port it advertises (where the Toxiproxy must listen).
  FAULT_KAFKA_PROXIED_PORT: String(s.kafka.proxied.port),
  FAULT_KAFKA_ADVERTISED_PORT: String(s.kafka.proxied.advertisedPort),
  FAULT_TOXIPROXY_URL: `http://127.0.0.1:${s.toxiproxy.port}`,
});

/** Starts the fault tier's Postgres, Kafka and Toxiproxy on free loopback ports; resolves to their env. */
export async function faultUp() {
  await down();
  await Promise.all([installKafka(), installToxiproxy()]);
  fs.mkdirSync(FAULT_DIR, { recursive: true });
  /** @type {import('./state.mjs').State} */
  const state = { startedAt: new Date().toISOString() };
  const save = () => fs.writeFileSync(STATE, JSON.stringify(state, null, 2));
  save();
  const [pg, kafka, controller, proxied, advertised, toxiproxy] = await freePorts(6);
  try {
    await Promise.all([
      startPostgres(pg, state, save),
      startKafka(kafka, controller, state, save, {
        dir: path.join(FAULT_DIR, 'kafka'),
        proxied: { port: proxied, advertisedPort: advertised },
      }),
      startToxiproxy(toxiproxy, FAULT_DIR).then((t) => {
        state.toxiproxy = t;
        save();
      }),
    ]);
  } catch (e) {
    await down().catch(() => {});
    throw e;
  }
  const env = envOf(state);
  fs.writeFileSync(ENV, `${JSON.stringify(env, null, 2)}\n`);
  return env;
}

/** Stops what `up` recorded; throws when something is still running afterwards. */
export async function down() {
  const s = readJson(STATE);
  if (!s) return;
  await Promise.allSettled([stopPostgres(s.postgres), stopKafka(s.kafka), stopToxiproxy(s.toxiproxy)]);
  const left = [
    ['postgres', s.postgres?.pid, 'postgres'],
    ['kafka', s.kafka?.pid, 'kafka.Kafka'],
    ['toxiproxy', s.toxiproxy?.pid, 'toxiproxy-server'],
  ].filter(([, pid, needle]) => pid && isOurs(pid, needle));
  fs.rmSync(FAULT_DIR, { recursive: true, force: true });
  if (left.length) throw new Error(`still running: ${left.map(([n, p]) => `${n} (${p})`).join(', ')}`);
}

/** @param {(s: import('./state.mjs').State) => Promise<unknown>} work */
async function withState(work) {
  const s = readJson(STATE);
  if (!s) throw new Error('the fault infrastructure is not up (node scripts/infra/fault.mjs up)');
  await work(s);
  fs.writeFileSync(STATE, JSON.stringify(s, null, 2));
}

/** @type {Record<string, () => Promise<unknown>>} */
const commands = {
  up: async () => console.log(JSON.stringify(await faultUp(), null, 2)),
  down,
  'kafka-stop': () => withState((s) => stopKafka(s.kafka)),
  'kafka-start': () => withState((s) => launchKafka(s.kafka)),
  'postgres-restart': () => withState((s) => restartPostgres(s.postgres)),
};

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const cmd = process.argv[2] ?? '';
  const command = commands[cmd];
  if (!command) {
    console.error(`usage: node scripts/infra/fault.mjs <${Object.keys(commands).join('|')}>`);
    process.exit(2);
  }
  if (process.env.FAULT_INFRA_QUIET) setQuiet(true);
  command().catch((e) => {
    log(`${cmd} failed: ${e.stack ?? e}`);
    process.exit(1);
  });
}
