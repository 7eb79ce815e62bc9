// The run's files in .infra/run: state.json (what `up` started, written as it goes so `down` can
// stop a half-started run) and env.json (the connection settings handed to tests).

import fs from 'node:fs';
import { CHROMIUM } from './layout.mjs';
import { mailboxEnv } from './mailbox.mjs';
import { s3ServerEnv } from './s3-server.mjs';

/**
 * What `up` records in state.json (and the fault tier in its own): per service its pid, ports and
 * settings. Read back from JSON written by these scripts, so each service's record stays loose.
 * @typedef {{ pid?: number, port: number } & Record<string, any>} ServiceRecord
 * @typedef {{ startedAt?: string } & Record<string, any>} State
 * @typedef {() => void} Save writes the state as it stands (so `down` can stop a half-started run)
 */
/** @param {string} file @returns {any} JSON, or null when the file is missing or unreadable */
export function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** @param {State} state */
export function envFrom(state) {
  return {
    DATABASE_URL: state.postgres.url,
    KAFKA_BROKERS: `127.0.0.1:${state.kafka.port}`,
    REDIS_URL: `redis://127.0.0.1:${state.redis.port}`,
    STRIPE_MOCK_URL: `http://127.0.0.1:${state.stripeMock.port}`,
    ...s3ServerEnv(state.s3),
    ...mailboxEnv(state.mailbox),
    CHROMIUM_PATH: CHROMIUM,
    pids: {
      postgres: state.postgres.pid,
      kafka: state.kafka.pid,
      redis: state.redis.pid,
      stripeMock: state.stripeMock.pid,
      s3: state.s3.pid,
      mailbox: state.mailbox?.pid,
    },
  };
}
