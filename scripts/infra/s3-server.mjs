// The tests' S3 server: versitygw (Apache-2.0), a real S3 gateway that keeps each bucket as a folder
// (its posix backend), for the files package's S3 blob-store contract and the services that keep
// files in it. Built with the other Go tools (kube-family.mjs, ADR 0309 on why not MinIO), linked into
// .infra/bin and run detached on a free loopback port.

import fs from 'node:fs';
import path from 'node:path';
import { linkGoTool } from './go-tools.mjs';
import { RUN, VERSITYGW_BIN } from './layout.mjs';
import { log } from './log.mjs';
import { httpGet } from './probe.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

// Test-only credentials of a server that listens on loopback and lives for one run.
export const S3_TEST_ACCESS_KEY = 'flatlay-test';
export const S3_TEST_SECRET_KEY = 'flatlay-test-secret';
export const S3_TEST_BUCKET = 'flatlay-test';
/** The path versitygw answers 200 on when it serves (its `--health` option). */
const HEALTH_PATH = '/healthz';

export const installS3Server = () => linkGoTool(VERSITYGW_BIN, 'versitygw');

/** @param {number} port */
export async function s3ServerOk(port) {
  const res = await httpGet(`http://127.0.0.1:${port}${HEALTH_PATH}`);
  return res.status === 200;
}

/**
 * @param {number} port
 * @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save
 */
export async function startS3Server(port, state, save) {
  const dir = path.join(RUN, 's3');
  const data = path.join(dir, 'data');
  // Object metadata (content type, user metadata) in files beside the data rather than in extended
  // attributes, which not every file system under a clone offers (tmpfs and some overlays refuse user.*).
  const meta = path.join(dir, 'meta');
  fs.mkdirSync(data, { recursive: true });
  fs.mkdirSync(meta, { recursive: true });
  const logFile = path.join(dir, 'versitygw.log');
  const args = ['--port', `127.0.0.1:${port}`, '--health', HEALTH_PATH, '--quiet', 'posix', '--sidecar', meta, data];
  const child = spawnDaemon(VERSITYGW_BIN, args, logFile, {
    cwd: dir,
    // The root user's keys through the environment, not the command line (which `ps` shows).
    env: { ...process.env, ROOT_ACCESS_KEY_ID: S3_TEST_ACCESS_KEY, ROOT_SECRET_ACCESS_KEY: S3_TEST_SECRET_KEY },
  });
  state.s3 = { pid: child.pid, port, logFile };
  save();
  await waitFor('versitygw', () => s3ServerOk(port), { timeoutMs: 60000, child, logFile });
  log(`s3 (versitygw): ready on 127.0.0.1:${port} (pid ${child.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} s */
export async function stopS3Server(s) {
  if (s?.pid) await killPid(s.pid, 'versitygw', { graceMs: 5000, group: true });
}

/** The S3_* settings tests read (the bucket is created by the test that uses it). */
/** @param {import('./state.mjs').ServiceRecord} s */
export const s3ServerEnv = (s) =>
  s && {
    S3_ENDPOINT: `http://127.0.0.1:${s.port}`,
    S3_BUCKET: S3_TEST_BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: S3_TEST_ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: S3_TEST_SECRET_KEY,
  };
